import SplitClient
import SplitCore
import SplitWire
#if canImport(Glibc)
import Glibc
#endif

/// Writes `text` and a newline to stdout and flushes (watch streams line by line).
func emit(_ text: String) {
    print(text)
    fflush(nil)
}

/// Writes every byte of `text` to `fd`, retrying short writes, EINTR and EAGAIN. Nil when
/// all was written, else the `errno` of the write that failed, or EIO for a write that wrote
/// nothing without an error (errno is not set then, so it would name an older failure). The
/// terminal ignores it (a vanished one cannot be told anything); golden files report it.
@discardableResult
func writeAll(_ fd: Int32, _ text: String) -> Int32? {
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
        if written > 0 {
            offset += written
            continue
        }
        guard written < 0 else { return EIO }
        let failure = errno
        guard failure == EINTR || failure == EAGAIN else { return failure }
        if failure == EAGAIN { usleep(1000) }
    }
    return nil
}

/// `--json`: the server's result object on one line; otherwise `human()`.
func emit(_ result: JSONValue, json: Bool, human: () -> String) {
    emit(json ? JSONWriter.string(result) : human())
}

func describe(_ reply: SceneReply) -> String {
    "scene \(reply.scene) revision \(reply.revision)\n" + describe(reply.layout)
}

/// The new revision and layout, then the events. With no events: `no change` only when the
/// revision did not move from `revisionBefore` (splitd keeps the revision of a request that
/// changes nothing, and every accepted change adds 1); otherwise `no events`, since some
/// changes (a column width from set-config) have none.
func describe(_ reply: ChangeReply, revisionBefore: Int?) -> String {
    var text = "revision \(reply.revision)\n" + describe(reply.layout)
    if reply.timeline.isEmpty {
        text += revisionBefore == reply.revision ? "\nno change" : "\nno events"
    } else {
        text += "\nevents:"
        for event in reply.timeline { text += "\n  " + describe(event) }
    }
    return text
}

func describe(_ push: LayoutPush) -> String {
    var text = "scene \(push.scene) revision \(push.revision)\n" + describe(push.layout)
    for event in push.timeline { text += "\n  event " + describe(event) }
    return text
}

/// A JSON value as readable `key: value` lines (stats, hello, devices...).
func describeFields(_ value: JSONValue, indent: String = "") -> String {
    switch value {
    case .object(let object) where object.isEmpty:
        return indent + "{}"
    case .array(let elements) where elements.isEmpty:
        return indent + "[]"
    case .object(let object):
        return object.map { member in
            switch member.value {
            case .object(let nested) where nested.isEmpty: "\(indent)\(member.key): {}"
            case .array(let nested) where nested.isEmpty: "\(indent)\(member.key): []"
            case .object, .array:
                "\(indent)\(member.key):\n" + describeFields(member.value, indent: indent + "  ")
            default:
                "\(indent)\(member.key): \(scalarText(member.value))"
            }
        }.joined(separator: "\n")
    case .array(let elements):
        return elements.map { element in
            switch element {
            case .object, .array: "\(indent)-\n" + describeFields(element, indent: indent + "  ")
            default: "\(indent)- \(scalarText(element))"
            }
        }.joined(separator: "\n")
    default:
        return indent + scalarText(value)
    }
}

private func scalarText(_ value: JSONValue) -> String {
    if let text = value.string { return visible(text) }
    return JSONWriter.string(value)
}
