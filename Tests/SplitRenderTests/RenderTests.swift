import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import SplitCore
import Testing
@testable import SplitRender

/// Layouts of real scenes, resolved by the engine, for the pictures' tests.
enum Scenes {
    static let engine = SplitEngine()

    static func patch(_ json: String) throws -> SplitConfigPatch {
        try JSONDecoder().decode(SplitConfigPatch.self, from: Data(json.utf8))
    }

    /// A scene of `device` at `size` with `config`, after `intents`.
    static func state(
        on device: String = "ipad-pro-12.9", _ width: Double, _ height: Double, config: String,
        intents: [Intent] = [], then commands: [SceneCommand] = []
    ) throws -> SceneState {
        var state = try engine.createScene(
            id: "s", device: device, size: Size(width: width, height: height), config: patch(config))
        for intent in intents { state = try engine.apply(.intent(intent), to: state).state }
        for command in commands { state = try engine.apply(command, to: state).state }
        return state
    }

    /// `commands` run after `intents`: revision 2's requests (a popover's anchor) that no
    /// protocol-1 intent can say.
    static func layout(
        on device: String = "ipad-pro-12.9", _ width: Double, _ height: Double, config: String,
        intents: [Intent] = [], then commands: [SceneCommand] = []
    ) throws -> Layout {
        engine.layout(of: try state(on: device, width, height, config: config, intents: intents, then: commands))
    }

    static let mail = #"{"roots":{"primary":"inbox","secondary":"detail"}}"#
    static let board =
        #"{"style":"tripleColumn","roots":{"primary":"folders","supplementary":"threads","secondary":"message"}}"#

    /// Every golden case: name, layout, options.
    static func cases() throws -> [(String, Layout, RenderOptions)] {
        [
            ("classic-landscape", try layout(1366, 1024, config: mail), RenderOptions(title: "classic, full screen")),
            (
                "double-portrait-overlay",
                try layout(
                    1024, 1366, config: #"{"style":"doubleColumn","roots":{"primary":"inbox","secondary":"detail"}}"#,
                    intents: [.displayModeButton]), RenderOptions(title: "doubleColumn, overlay")
            ),
            (
                "triple-tile",
                try layout(
                    1366, 1024,
                    config:
                        #"{"style":"tripleColumn","preferredDisplayMode":"twoBesideSecondary","roots":{"primary":"folders","supplementary":"threads","secondary":"message"}}"#
                ), RenderOptions()
            ),
            (
                "triple-displace",
                try layout(
                    1366, 1024,
                    config:
                        #"{"style":"tripleColumn","preferredSplitBehavior":"displace","preferredDisplayMode":"twoDisplaceSecondary","roots":{"primary":"folders","supplementary":"threads","secondary":"message"}}"#
                ), RenderOptions(title: "displace")
            ),
            (
                "collapsed-detail", try layout(375, 1024, config: mail, intents: [.showDetail(vc: "message-7")]),
                RenderOptions(title: "collapsed")
            ),
            (
                "presentations-regular",
                try layout(
                    1366, 1024, config: mail, intents: [.present(vc: "compose", style: .formSheet)],
                    then: [.present(PresentationRequest(vc: "share", style: .popover, anchor: "detail"))]),
                RenderOptions()
            ),
            (
                "presentation-compact",
                try layout(375, 1024, config: mail, intents: [.present(vc: "compose", style: .popover)]),
                RenderOptions()
            ),
            (
                "rtl-triple",
                try layout(
                    1366, 1024,
                    config:
                        #"{"style":"tripleColumn","layoutDirection":"rtl","preferredDisplayMode":"twoBesideSecondary","roots":{"primary":"folders","supplementary":"threads","secondary":"message"}}"#
                ), RenderOptions(title: "rtl", layoutDirection: .rtl)
            ),
            (
                "tabs-phone",
                try layout(
                    on: "iphone-14", 390, 844,
                    config:
                        #"{"tabs":[{"root":"chats","title":"Chats"},{"root":"contacts","title":"Contacts"}],"roots":{"secondary":"empty"}}"#,
                    intents: [.selectTab(index: 1)]), RenderOptions(tabTitles: ["Chats", "Contacts"])
            ),
        ]
    }
}

/// The golden files live beside this file; `SPLIT_RECORD_GOLDEN=1` rewrites them.
enum Golden {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
    static var recording: Bool { ProcessInfo.processInfo.environment["SPLIT_RECORD_GOLDEN"] == "1" }

    static func check(_ name: String, _ text: String) throws {
        let url = directory.appendingPathComponent(name)
        if recording {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
            return
        }
        let golden = try String(contentsOf: url, encoding: .utf8)
        #expect(
            golden == text,
            "\(name) differs from its golden file (SPLIT_RECORD_GOLDEN=1 rewrites it after an intended change)")
    }
}

/// The elements of an SVG document as XMLParser reads them (which also proves it is XML).
final class SVGElements: NSObject, XMLParserDelegate {
    struct Element {
        var name: String
        var attributes: [String: String]
        /// The nearest enclosing `data-column`, if any.
        var column: String?
        var text = ""
    }

    private(set) var elements: [Element] = []
    private var open: [Int] = []
    private(set) var error: (any Error)?

    static func parse(_ svg: String) throws -> [Element] {
        let delegate = SVGElements()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = delegate
        guard parser.parse() else { throw delegate.error ?? parser.parserError ?? CocoaError(.coderReadCorrupt) }
        return delegate.elements
    }

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        let column = attributes["data-column"] ?? open.last.flatMap { elements[$0].column }
        elements.append(Element(name: name, attributes: attributes, column: column))
        open.append(elements.count - 1)
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if let index = open.last { elements[index].text += string }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        open.removeLast()
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) { error = parseError }
}

@Suite struct RenderTests {
    /// Each visible column is one `rect.frame` with exactly the layout's x and width (and
    /// the window's height); hidden columns have none.
    static func checkFrames(_ layout: Layout, in elements: [SVGElements.Element]) throws {
        let frames = elements.filter { $0.name == "rect" && $0.attributes["class"] == "frame" }
        #expect(frames.count == layout.visibleColumns.count)
        for column in layout.columns {
            let drawn = frames.filter { $0.column == column.column.rawValue }
            guard column.visible else {
                #expect(drawn.isEmpty, "hidden \(column.column) drawn")
                continue
            }
            let frame = try #require(drawn.first, "no frame for \(column.column)")
            let x = try #require(Double(frame.attributes["x"] ?? ""))
            let width = try #require(Double(frame.attributes["width"] ?? ""))
            #expect(
                abs(x - column.x) < 0.006 && abs(width - column.width) < 0.006,
                "\(column.column): drawn \(x)+\(width), layout \(column.x)+\(column.width)")
            #expect(Double(frame.attributes["height"] ?? "") == layout.size.height)
        }
    }

    @Test func goldenPictures() throws {
        for (name, layout, options) in try Scenes.cases() {
            let svg = LayoutRenderer.svg(layout, options: options)
            #expect(svg == LayoutRenderer.svg(layout, options: options), "\(name) is not deterministic")
            try Golden.check(name + ".svg", svg)
        }
    }

    @Test func everyPictureParsesAndPlacesItsColumns() throws {
        for (name, layout, options) in try Scenes.cases() {
            let elements = try SVGElements.parse(LayoutRenderer.svg(layout, options: options))
            #expect(elements.first?.name == "svg", "\(name)")
            try Self.checkFrames(layout, in: elements)
        }
    }

    /// The kinds of columns the cases exist for are really in them.
    @Test func casesCoverTheirKinds() throws {
        let layouts = Dictionary(uniqueKeysWithValues: try Scenes.cases().map { ($0.0, $0.1) })
        #expect(layouts["double-portrait-overlay"]?.columns.contains { $0.overlay && $0.visible } == true)
        #expect(layouts["double-portrait-overlay"]?.columns.contains { $0.dimmed } == true)
        let displaced = try #require(layouts["triple-displace"])
        #expect(displaced.splitBehavior == .displace)
        #expect(displaced.visibleColumns.contains { $0.x + $0.width > displaced.size.width })
        #expect(layouts["collapsed-detail"]?.collapsed == true)
        #expect(layouts["presentation-compact"]?.presentations.first?.effectiveStyle == .pageSheet)
        #expect(layouts["presentations-regular"]?.presentations.map(\.effectiveStyle) == [.formSheet, .popover])
        #expect(layouts["tabs-phone"]?.selectedTab == 1)
        let rtl = try #require(layouts["rtl-triple"])
        let primary = try #require(rtl.columns.first { $0.column == .primary })
        #expect(primary.x + primary.width == rtl.size.width, "rtl puts the primary at the right edge")
    }

    @Test func drawsWhatTheLayoutSays() throws {
        let cases = Dictionary(uniqueKeysWithValues: try Scenes.cases().map { ($0.0, ($0.1, $0.2)) })
        func elements(_ name: String) throws -> [SVGElements.Element] {
            let (layout, options) = try #require(cases[name])
            return try SVGElements.parse(LayoutRenderer.svg(layout, options: options))
        }
        func classes(_ element: SVGElements.Element) -> Set<String> {
            Set((element.attributes["class"] ?? "").split(separator: " ").map(String.init))
        }
        // The top of each stack is highlighted, and only it.
        let collapsed = try elements("collapsed-detail")
        let tops = collapsed.filter { classes($0).contains("top") }
        #expect(tops.map { $0.attributes["data-vc"] } == ["message-7"])
        #expect(collapsed.contains { $0.name == "text" && $0.text == "collapsed" })
        #expect(
            !collapsed.contains { classes($0).contains("display-mode-button") },
            "no display-mode button while collapsed")
        // Overlay column drawn above, the secondary dimmed with a tap target.
        let overlay = try elements("double-portrait-overlay")
        #expect(overlay.contains { classes($0).isSuperset(of: ["column", "primary", "overlay"]) })
        #expect(
            overlay.contains {
                $0.attributes["class"] == "scrim" && $0.column == "secondary"
                    && $0.attributes["data-intent"] == #"{"kind":"tapDimmed"}"#
            })
        #expect(
            overlay.contains {
                classes($0).contains("display-mode-button")
                    && $0.attributes["data-intent"] == #"{"kind":"displayModeButton"}"#
            })
        // The displaced column is partly off-window and veiled there.
        let displace = try elements("triple-displace")
        #expect(displace.contains { $0.attributes["class"] == "offwindow" })
        #expect(displace.contains { classes($0).contains("displaced") })
        // Presentations: a form sheet and a popover with its anchor; in compact the popover is a page sheet.
        let presented = try elements("presentations-regular")
        #expect(
            presented.contains {
                classes($0) == ["presentation", "formSheet"] && $0.attributes["data-vc"] == "compose"
            })
        #expect(presented.contains { classes($0) == ["presentation", "popover"] })
        #expect(presented.contains { $0.attributes["class"] == "anchor" })
        let compact = try elements("presentation-compact")
        #expect(
            compact.contains {
                classes($0) == ["presentation", "pageSheet"] && $0.attributes["data-style"] == "popover"
            })
        #expect(compact.contains { $0.text == "popover → pageSheet" })
        // Tabs: the selected one marked, each a selectTab.
        let tabs = try elements("tabs-phone")
        #expect(tabs.filter { classes($0).contains("tab") }.count == 2)
        #expect(
            tabs.contains {
                classes($0) == ["tab", "selected"] && $0.attributes["data-intent"] == #"{"kind":"selectTab","index":1}"#
            })
        // Rows of a root list drive showDetail (or show in the supplementary).
        let classic = try elements("classic-landscape")
        #expect(
            classic.contains {
                $0.attributes["class"] == "row"
                    && $0.attributes["data-intent"] == #"{"kind":"showDetail","vc":"inbox-1"}"#
            })
        let triple = try elements("triple-tile")
        #expect(
            triple.contains {
                $0.attributes["class"] == "row"
                    && $0.attributes["data-intent"] == #"{"kind":"show","vc":"folders-1","column":"supplementary"}"#
            })
        // Caption: traits and display mode.
        #expect(classic.contains { $0.text == "1366x1024 landscape · horizontal regular · vertical regular" })
        #expect(classic.contains { $0.text == "expanded · oneBesideSecondary · tile" })
    }

    @Test func textIsEscaped() throws {
        var layout = try Scenes.layout(1366, 1024, config: Scenes.mail)
        layout.columns[0].stack = ["<a & \"b\">\u{1}"]
        let svg = LayoutRenderer.svg(layout, options: RenderOptions(title: "x < y"))
        let elements = try SVGElements.parse(svg)
        #expect(elements.contains { $0.text == "0. <a & \"b\">" })
        #expect(elements.contains { $0.text == "x < y" })
    }

    @Test func numbers() {
        #expect(svgNumber(1366) == "1366")
        #expect(svgNumber(519.08) == "519.08")
        #expect(svgNumber(0.5) == "0.5")
        #expect(svgNumber(-12.25) == "-12.25")
        #expect(svgNumber(1e-9) == "0")
        #expect(svgNumber(.nan) == "0")
    }

    @Test func sessionStrip() throws {
        let state = try Scenes.state(1366, 1024, config: Scenes.mail)
        let result = try Scenes.engine.snapshot(state, preset: "appSwitcher")
        let svg = SessionRenderer.svg(result, title: "mail")
        try Golden.check("session-app-switcher.svg", svg)
        let elements = try SVGElements.parse(svg)
        let nested = elements.filter { $0.attributes["class"] == "snapshot" }
        #expect(nested.count == result.snapshots.count)
        // Each snapshot's frames are its layout's.
        for (index, snapshot) in result.snapshots.enumerated() {
            let one = try SVGElements.parse(LayoutRenderer.svg(snapshot.layout))
            try Self.checkFrames(snapshot.layout, in: one)
            #expect(nested[index].attributes["data-width"] == svgNumber(snapshot.size.width))
        }
        let frames = elements.filter { $0.attributes["class"] == "frame" }
        #expect(frames.count == result.snapshots.map(\.layout.visibleColumns.count).reduce(0, +))
    }
}
