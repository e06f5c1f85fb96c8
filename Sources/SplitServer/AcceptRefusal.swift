import Glibc
import SplitCore
import SplitLoop
import SplitWire

/// What a client refused at accept (EMFILE, ENFILE) reads before the listener closes it.
enum AcceptRefusal {
    /// The line for a client refused because `accept` failed with `failure` (EMFILE, ENFILE).
    /// The "too many clients" prefix is what splitctl recognizes (exit 69), as for the server's.
    static func line(_ failure: Int32) -> [UInt8] {
        let reason: String
        if failure == ENFILE {
            reason = "the system's open-file table is full"
        } else if let limit = FileDescriptorLimit.current() {
            reason =
                "the open-file limit (\(limit) descriptors) leaves room for \(FileDescriptorLimit.clients(under: limit))"
        } else {
            reason = "the open-file limit is reached"
        }
        return Notices.error(id: nil, code: .limitExceeded, message: "too many clients (\(reason))")
    }
}
