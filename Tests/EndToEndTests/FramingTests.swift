import Foundation
import SplitClient
import SplitWire
import Testing
import SplitTestSupport

extension EndToEnd {
    /// WIRE.md "Transport and framing", `hello`, and the errors a line itself can cause.
    @Suite struct Framing {
        @Test func helloAnswersProtocolOneAndAServerName() throws {
            try withDaemon { daemon in
                let connection = try daemon.connect()
                let result = try connection.hello(client: "e2e")
                #expect(result["protocol"]?.int == 1)
                #expect(result["server"]?.string?.isEmpty == false)
            }
        }

        @Test func helloWithAnotherVersionIsVersionMismatch() throws {
            try withDaemon { daemon in
                let connection = try daemon.connect()
                #expect(
                    serverErrorCode { try connection.hello(client: "e2e", protocolVersion: 2) } == "version_mismatch")
                #expect(
                    serverErrorCode { try connection.hello(client: "e2e", protocolVersion: 0) } == "version_mismatch")
            }
        }

        @Test func pingAnswersOk() throws {
            try withDaemon { daemon in
                let response = try rawResponse(try daemon.client(), "ping")
                #expect(response["ok"]?.bool == true)
            }
        }

        @Test func responsesEchoTheRequestIdOfEitherType() throws {
            try withDaemon { daemon in
                let connection = try daemon.client()
                try connection.sendLine(#"{"id":"text-id","op":"ping"}"#)
                try connection.sendLine(#"{"id":42,"op":"ping"}"#)
                let first = try connection.nextMessage()
                let second = try connection.nextMessage()
                #expect(first["id"] == "text-id")
                #expect(second["id"] == 42)
            }
        }

        @Test func unknownOpIsUnknownOpWithTheIdEchoed() throws {
            try withDaemon { daemon in
                let connection = try daemon.client()
                let response = try rawResponse(connection, "scene.teleport", ["scene": "x"])
                #expect(response["ok"]?.bool == false)
                #expect(errorCode(of: response) == "unknown_op")
                #expect(response["error"]?["message"]?.string?.isEmpty == false)
                try connection.ping()  // still open
            }
        }

        @Test(arguments: [
            ("this is not json", JSONValue.null), ("{\"id\": 1, \"op\": ", .int(1)), ("[1,2,3]", .null),
            ("\"a string\"", .null), ("42", .null), ("{\"id\":1,\"op\":\"ping\"} trailing", .int(1)),
            ("{\"id\":\"a\",\"id\":\"b\",\"op\":\"ping\"}", .null), ("{\"op\":\"ping\",\"id\":\"x\",}", .string("x")),
        ])
        func aLineThatIsNotAJSONObjectIsBadJSONWithTheIdItCarriesAndTheConnectionStaysOpen(
            line: String, id: JSONValue
        ) throws {
            try withDaemon { daemon in
                let connection = try daemon.client()
                try connection.sendLine(line)
                let response = try connection.nextMessage()
                #expect(response["id"] == id, "WIRE: id null, echoed if it could be read")
                #expect(response["ok"]?.bool == false)
                #expect(errorCode(of: response) == "bad_json")
                try connection.ping()
            }
        }

        @Test func anObjectWithoutOpIsRefusedWithItsIdEchoed() throws {
            try withDaemon { daemon in
                let connection = try daemon.client()
                try connection.sendLine(#"{"id": 7, "scene": "x"}"#)
                let response = try connection.nextMessage()
                #expect(response["id"] == 7)
                #expect(response["ok"]?.bool == false)
                #expect(errorCode(of: response) == "bad_request")
                try connection.ping()
            }
        }

        @Test func responsesComeInRequestOrderOnePerRequest() throws {
            try withDaemon { daemon in
                let connection = try daemon.client()
                try connection.createScene("order", device: IPadPro129.device, config: mailConfig)
                // A mix of reads, changes and failures, all pipelined before reading anything.
                var ids: [JSONValue] = []
                for index in 0..<60 {
                    switch index % 5 {
                    case 0: ids.append(try connection.send(op: "ping"))
                    case 1:
                        ids.append(
                            try connection.send(
                                op: "resize", ["scene": "order", "width": .int(Int64(700 + index)), "height": 1024]))
                    case 2: ids.append(try connection.send(op: "scene.get", ["scene": "order"]))
                    case 3: ids.append(try connection.send(op: "scene.get", ["scene": "missing"]))
                    default: ids.append(try connection.send(op: "nonsense"))
                    }
                }
                var received: [JSONValue] = []
                for _ in ids { received.append(try connection.nextMessage()["id"] ?? .null) }
                #expect(received == ids)
                try connection.drain()
                #expect(connection.unreadableResponses.isEmpty)
            }
        }

        @Test func anOversizedLineIsFrameTooLargeThenTheConnectionCloses() throws {
            try withDaemon { daemon in
                let bystander = try daemon.client("bystander")
                try bystander.createScene("keep", device: IPadPro129.device, config: mailConfig)
                let before = try bystander.getScene("keep")

                let offender = try daemon.client("offender")
                // A syntactically valid request, padded past the default 65536-byte limit.
                let padding = String(repeating: "a", count: 70_000)
                try offender.sendLine(
                    #"{"id":1,"op":"resize","scene":"keep","width":500,"height":500,"pad":"\#(padding)"}"#)
                let refusal = try offender.nextUnreadableResponse()
                #expect(errorCode(of: refusal) == "frame_too_large")
                #expect(try offender.awaitClose(timeout: .seconds(5)))

                #expect(try bystander.getScene("keep") == before)
                try bystander.ping()
            }
        }

        /// Ours (`limits.partialLineTimeoutSeconds`): a client that stalls in the middle of a
        /// line is refused and closed; lines it completed before are answered, and a slow
        /// client that does finish its line, or one idle between lines, is left alone.
        @Test func aLineLeftUnfinishedPastTheTimeoutIsRefusedAndClosed() throws {
            try withDaemon(environment: ["SPLITD_LIMITS_PARTIAL_LINE_TIMEOUT_SECONDS": "1"]) { daemon in
                let idle = try daemon.client("idle")
                let slow = try daemon.client("slow")
                let staller = try daemon.client("staller")
                try staller.sendRaw(
                    Array(#"{"id":"done","op":"ping"}"#.utf8) + [10] + Array(#"{"id":"never","op":"pi"#.utf8))
                let answered = try staller.response(to: "done")
                #expect(answered["ok"] == true)
                try slow.sendRaw(Array(#"{"id":"late","op":"#.utf8))
                Thread.sleep(forTimeInterval: 0.4)
                try slow.sendRaw(Array(#""ping"}"#.utf8) + [10])
                #expect(try slow.response(to: "late")["ok"] == true)

                let refusal = try staller.nextUnreadableResponse(timeout: .seconds(5))
                #expect(errorCode(of: refusal) == "bad_request")
                #expect(refusal["error"]?["message"]?.string?.contains("partialLineTimeoutSeconds") == true)
                #expect(try staller.awaitClose(timeout: .seconds(5)))

                // By now the idle client has been connected for over a second without a line.
                Thread.sleep(forTimeInterval: 1.2)
                try idle.ping()
                try slow.ping()
                let stats = try idle.call("stats")
                #expect(stats["partialLineTimeouts"] == 1)
                #expect(stats["errors"]?["bad_request"] == 1)
            }
        }

        @Test func anOversizedLineWithoutNewlineIsRefusedWithoutWaitingForTheEnd() throws {
            try withDaemon { daemon in
                let offender = try daemon.client("offender")
                // No newline ever comes: the daemon must not buffer past its limit.
                try? offender.sendRaw(Array(repeating: UInt8(ascii: "x"), count: 65_536 + 4096))
                let refusal = try offender.nextUnreadableResponse(timeout: .seconds(5))
                #expect(errorCode(of: refusal) == "frame_too_large")
                #expect(try offender.awaitClose(timeout: .seconds(5)))
                try daemon.client("after").ping()
            }
        }

        @Test func randomBytesLeaveOtherClientsAndTheStateUntouched() throws {
            try withDaemon { daemon in
                let owner = try daemon.client("owner")
                try owner.createScene("calm", device: IPadPro129.device, config: mailConfig)
                try owner.intent("calm", .push(column: .primary, vc: "thread"))
                let before = try owner.getScene("calm")
                let watcher = try daemon.client("watcher")
                try watcher.attach("calm", role: .viewer)

                var generator = SplitMix64(seed: 0x5EED)
                for round in 0..<8 {
                    let garbage = try daemon.connect()
                    var bytes = (0..<4096).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
                    bytes.append(UInt8(ascii: "\n"))
                    try? garbage.sendRaw(bytes)
                    // Whatever the garbage got, the connection answers (or was closed) without
                    // disturbing anyone else.
                    _ = try? garbage.drain(quiet: .milliseconds(50))
                    #expect(daemon.isRunning, "round \(round)")
                    garbage.close()
                }
                #expect(try owner.getScene("calm") == before)
                try watcher.drain(quiet: .milliseconds(200))
                #expect(watcher.takePushes().isEmpty)
                try watcher.ping()
                try owner.ping()
            }
        }

        @Test func malformedRequestsLeaveTheStateUntouched() throws {
            try withDaemon { daemon in
                let owner = try daemon.client("owner")
                try owner.createScene("calm", device: IPadPro129.device, config: mailConfig)
                let before = try owner.getScene("calm")
                let watcher = try daemon.client("watcher")
                try watcher.attach("calm", role: .viewer)

                let offender = try daemon.client("offender")
                let lines = [
                    #"{"id":1,"op":"resize","scene":"calm","width":"wide","height":1024}"#,
                    #"{"id":2,"op":"resize","scene":"calm","width":0,"height":1024}"#,
                    #"{"id":3,"op":"resize","scene":"calm","width":-5,"height":1024}"#,
                    #"{"id":4,"op":"resize","scene":"calm","width":100001,"height":1024}"#,
                    #"{"id":5,"op":"resize","scene":"calm","height":1024}"#,
                    #"{"id":6,"op":"intent","scene":"calm","intent":{"kind":"push","column":"primary"}}"#,
                    #"{"id":7,"op":"intent","scene":"calm","intent":"push"}"#,
                    #"{"id":8,"op":"intent","scene":"calm"}"#,
                    #"{"id":9,"op":"scene.create","scene":"bad id!","device":"ipad-pro-12.9"}"#,
                    #"{"id":10,"op":"scene.create","scene":"x"}"#,
                    #"{"id":11,"op":"resize","scene":"calm","width":1e400,"height":1024}"#,
                ]
                for line in lines { try offender.sendLine(line) }
                for expected in 1...lines.count {
                    let response = try offender.nextMessage()
                    // An out-of-range number may make the whole line unreadable JSON (id null).
                    #expect(
                        response["id"]?.int == expected || (expected == 11 && response["id"] == .null), "\(response)")
                    #expect(response["ok"]?.bool == false, "line \(expected) was accepted: \(response)")
                    let code = errorCode(of: response)
                    #expect(
                        code == "bad_request" || (expected == 11 && code == "bad_json"), "line \(expected): \(response)"
                    )
                }
                #expect(try owner.getScene("calm") == before)
                #expect(try owner.listScenes().map(\.scene) == ["calm"])
                try watcher.drain(quiet: .milliseconds(200))
                #expect(watcher.takePushes().isEmpty)
            }
        }
    }
}
