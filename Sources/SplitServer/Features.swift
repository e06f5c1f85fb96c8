import SplitCore

extension Server {
    /// What `hello` lists in `features` (WIRE.md revision 2): `revision2`, then every op of
    /// the table beyond protocol 1's that names an optional capability, so a capability is
    /// listed exactly when its op is in this build.
    static let features: [String] = {
        let optional = ["explain", "sweep", "cluster"]
        let ops = Set(Op.table.map(\.name))
        return ["revision2"] + optional.filter { ops.contains($0) }
    }()
}
