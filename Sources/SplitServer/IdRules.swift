import SplitCore
import SplitWire

// The one rule for ids: an id that can never be valid (a scene id outside WIRE's
// 1-128 characters of [A-Za-z0-9._:-], a view-controller id empty or over 128 characters)
// is `bad_request`; a valid id over the configured `limits.maxIdLength` is `limit_exceeded`.
extension Server {
    /// Checks the id of a scene being created: the engine's rule (`bad_request`), then the
    /// configured length (`limit_exceeded`).
    func checkNewSceneID(_ id: String) throws(WireError) {
        do { try SplitEngine.checkSceneId(id) } catch { throw WireError(error) }
        guard id.utf8.count <= settings.coreLimits.maxIdLength else {
            throw WireError(.limitExceeded, "scene id longer than \(settings.coreLimits.maxIdLength) characters")
        }
    }

    /// Checks every view-controller id `intent` names (its config's too, for `setConfig`).
    func checkViewControllerIDs(of intent: Intent) throws(WireError) {
        switch intent {
        case let .push(_, vc), let .show(vc, _), let .showDetail(vc), let .present(vc, _):
            try checkViewControllerID(vc)
        case let .setConfig(patch):
            try checkViewControllerIDs(of: patch)
        case .pop, .popToRoot, .back, .selectTab, .dismiss, .setPreferredDisplayMode, .displayModeButton,
            .gesture, .tapDimmed, .showColumn, .hideColumn:
            break
        }
    }

    /// Checks the view-controller ids of a configuration: roots, placeholder, tab roots.
    func checkViewControllerIDs(of patch: SplitConfigPatch?) throws(WireError) {
        guard let patch else { return }
        let roots = patch.roots
        for id in [roots?.primary, roots?.supplementary, roots?.secondary, roots?.compact, patch.placeholder ?? nil] {
            if let id { try checkViewControllerID(id) }
        }
        for tab in patch.tabs ?? [] { try checkViewControllerID(tab.root) }
    }

    private func checkViewControllerID(_ id: String) throws(WireError) {
        guard !id.isEmpty, id.count <= SplitEngine.idLengthCeiling else {
            throw WireError(.badRequest, "view controller id must be 1-\(SplitEngine.idLengthCeiling) characters")
        }
        let limit = settings.coreLimits.maxIdLength
        guard id.count <= limit else {
            throw WireError(
                .limitExceeded, "view controller id '\(id.prefix(limit))…' is longer than limits.maxIdLength (\(limit))"
            )
        }
    }
}
