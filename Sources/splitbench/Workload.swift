import ArgumentParser

/// The request mixes the load commands send. Connection `c` works on scene `bench-c`, created
/// by `SceneSetup` at 1366x1024 on an iPad Pro 12.9" (expanded, two columns); every request of
/// every mix is a real change (the scene's revision moves), which a durable daemon must
/// commit before answering.
enum Workload: String, CaseIterable, ExpressibleByArgument, Sendable {
    /// Full screen, then a one-third-width slide-over: collapses, then expands again (the
    /// anchor's examples/resize.txt).
    case resize
    /// Push a detail view controller on the secondary column, then pop it.
    case intent
    /// Resize and intent requests interleaved: push, collapse, expand, pop.
    case mixed
    /// An appSwitcher snapshot session (recorded, so also a write).
    case snapshot

    var templates: [RequestTemplate] {
        let lines: [String]
        switch self {
        case .resize:
            lines = [Self.resizeFull, Self.resizeThird]
        case .intent:
            lines = [Self.push, Self.pop]
        case .mixed:
            lines = [Self.push, Self.resizeThird, Self.resizeFull, Self.pop]
        case .snapshot:
            lines = [#"{"id":%n,"op":"snapshot","scene":"bench-%c","preset":"appSwitcher"}"#]
        }
        return lines.map(RequestTemplate.init)
    }

    static let resizeFull = #"{"id":%n,"op":"resize","scene":"bench-%c","width":1366,"height":1024}"#
    static let resizeThird = #"{"id":%n,"op":"resize","scene":"bench-%c","width":375,"height":1024}"#
    static let push =
        #"{"id":%n,"op":"intent","scene":"bench-%c","intent":{"kind":"push","column":"secondary","vc":"detail-%n"}}"#
    static let pop = #"{"id":%n,"op":"intent","scene":"bench-%c","intent":{"kind":"pop","column":"secondary"}}"#
}
