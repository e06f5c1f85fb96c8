import SplitCore

extension Server {
    /// The capabilities of this build (WIRE.md revision 2): `revision2`, then every op of the
    /// table beyond protocol 1's that names one, so a capability is listed exactly when its op
    /// is in this build.
    static let builtFeatures: [String] = {
        let optional = ["explain", "sweep", "scene.at"]
        let ops = Set(Op.table.map(\.name))
        return ["revision2"] + optional.filter { ops.contains($0) }
    }()

    /// What `hello` lists in `features`: the build's, and `cluster` while this daemon serves
    /// its scenes from an etcd cluster.
    /// `scene.at` is left out there: the cluster's store keeps no history.
    var features: [String] {
        cluster == nil ? Self.builtFeatures : Self.builtFeatures.filter { $0 != "scene.at" } + ["cluster"]
    }
}
