import SplitClient
import SplitCore
import SplitWire
import Testing

extension EndToEnd {
    /// `limit_exceeded` and the line limit, with small limits set through the daemon's
    /// environment overrides (docs/CONFIGURATION.md: `SPLITD_LIMITS_*`).
    @Suite struct Limits {
        @Test func tooManyScenesIsLimitExceeded() throws {
            try withDaemon(environment: ["SPLITD_LIMITS_MAX_SCENES": "3"]) { daemon in
                let connection = try daemon.client()
                for index in 0..<3 { try connection.createScene("s\(index)", device: IPadPro129.device) }
                #expect(
                    serverErrorCode { try connection.createScene("s3", device: IPadPro129.device) } == "limit_exceeded")
                #expect(try connection.listScenes().count == 3)
                // Deleting one makes room again.
                try connection.deleteScene("s0")
                #expect(try connection.createScene("s3", device: IPadPro129.device).revision == 1)
            }
        }

        @Test func tooManyClientsIsLimitExceededAndTheExtraOneIsClosed() throws {
            try withDaemon(environment: ["SPLITD_LIMITS_MAX_CLIENTS": "3"]) { daemon in
                let admitted = try (0..<3).map { try daemon.client("client-\($0)") }
                let extra = try daemon.connect()
                #expect(serverErrorCode { try extra.hello(client: "extra") } == "limit_exceeded")
                for client in admitted { try client.ping() }
                // A slot freed is a slot available.
                admitted[0].close()
                let deadline = ContinuousClock.now.advanced(by: .seconds(5))
                var admittedLater = false
                while !admittedLater, ContinuousClock.now < deadline {
                    admittedLater = (try? daemon.client("later")) != nil
                }
                #expect(admittedLater)
            }
        }

        @Test func aConfiguredLineLimitIsEnforced() throws {
            try withDaemon(environment: ["SPLITD_LIMITS_MAX_LINE_LENGTH": "1024"]) { daemon in
                let fits = try daemon.client("fits")
                let padding = String(repeating: "p", count: 900)
                // Padded in a free-form member: a request may carry no member its op does not take.
                try fits.sendLine(#"{"id":1,"op":"hello","protocol":1,"client":"\#(padding)"}"#)
                #expect(try fits.nextMessage()["ok"] == true)
                let offender = try daemon.client("offender")
                try offender.sendLine(#"{"id":1,"op":"hello","protocol":1,"client":"\#(padding)\#(padding)"}"#)
                #expect(errorCode(of: try offender.nextUnreadableResponse()) == "frame_too_large")
                #expect(try offender.awaitClose(timeout: .seconds(5)))
                try fits.ping()
            }
        }

        @Test func idsLongerThanTheLimitAreRefused() throws {
            try withDaemon { daemon in
                let connection = try daemon.client()
                try connection.createScene("ids", device: IPadPro129.device, config: mailConfig)
                let long = String(repeating: "v", count: 129)
                let code = serverErrorCode { try connection.intent("ids", .push(column: .primary, vc: long)) }
                #expect(code == "limit_exceeded" || code == "bad_request")
                #expect(
                    try connection.intent("ids", .push(column: .primary, vc: String(repeating: "v", count: 128)))
                        .revision == 2)
            }
        }
    }
}
