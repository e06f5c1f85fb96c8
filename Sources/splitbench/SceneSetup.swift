/// Creates the scenes the workloads refer to: `bench-0` ... `bench-(count-1)`, at 1366x1024
/// on an iPad Pro 12.9" (two columns, expanded) with a root on each column (so a pushed view
/// controller can be popped), pipelined in batches over one connection.
enum SceneSetup {
    static let device = "ipad-pro-12.9"
    static let primaryRoot = "inbox"
    static let secondaryRoot = "thread"

    /// Creates scenes `prefix0` ..< `prefix(count-1)`, starting at `first`; an existing scene
    /// is accepted as it is (a daemon targeted twice). Answers the seconds it took.
    @discardableResult
    static func createScenes(
        socketPath: String, count: Int, first: Int = 0, prefix: String = "bench-",
        batch: Int = 500
    ) throws(BenchError) -> Double {
        let started = monotonicNanoseconds()
        let client = try LineClient(path: socketPath)
        var next = first
        let end = first + count
        while next < end {
            let upper = min(end, next + batch)
            var bytes: [UInt8] = []
            for index in next..<upper {
                bytes += Array(
                    #"{"id":\#(index + 1),"op":"scene.create","scene":"\#(prefix)\#(index)","device":"\#(device)","size":{"width":1366,"height":1024},"config":{"roots":{"primary":"\#(primaryRoot)","secondary":"\#(secondaryRoot)"}}}"#
                        .utf8)
                bytes.append(0x0A)
            }
            try client.send(bytes)
            for _ in next..<upper {
                let reply = try client.readLine(timeout: 60)
                let text = String(decoding: reply, as: UTF8.self)
                if reply.withUnsafeBytes({ isErrorReply($0) }) && !text.contains("scene_exists") {
                    throw BenchError("scene.create failed: \(text)")
                }
            }
            next = upper
        }
        return Double(monotonicNanoseconds() - started) / 1e9
    }
}
