import NIOCore

/// Answers the server's HTTP/2 PING frames below the HTTP/2 handler, so that it never sees them.
///
/// Why: etcd's Go gRPC server sends a PING (BDP estimation) for nearly every request it
/// receives, and swift-nio-http2 treats more than 200 PING/SETTINGS frames in 30 s as a
/// flood and closes the connection with GOAWAY (ENHANCE_YOUR_CALM); the call in flight then
/// fails `unavailable` although etcd may have applied it. The transport exposes no setting
/// for that limit, so this handler sits first in the connection's pipeline (right after
/// the TLS handler when TLS is on: it reads plaintext HTTP/2 frames), removes every PING
/// without the ACK flag from the inbound bytes and writes the ACK itself (RFC 9113 6.7: the
/// ACK carries the same 8 bytes). PING ACKs and all other frames pass through unchanged,
/// so the HTTP/2 handler's own PINGs (keepalive) still get their ACKs.
///
/// Invariant: the bytes passed on are exactly the inbound stream minus whole PING frames,
/// in order; a frame split across reads is reassembled before it is judged. The server
/// sends no connection preface other than frames, so the stream is frames from byte 0.
/// The ACK is written as one buffer between the HTTP/2 handler's writes (same event loop),
/// so it never lands inside another frame.
public final class PingResponder: ChannelInboundHandler, RemovableChannelHandler {
    public typealias InboundIn = ByteBuffer
    public typealias InboundOut = ByteBuffer
    public typealias OutboundOut = ByteBuffer

    /// Bytes of the current frame's payload still to pass through.
    private var passThrough = 0
    /// Inbound bytes not judged yet (an incomplete frame header, or an incomplete PING).
    private var pending: ByteBuffer?
    /// PINGs answered on this connection.
    public private(set) var answered = 0
    /// Called with the running count after each answered PING (tests, statistics).
    private let onAnswer: (@Sendable (Int) -> Void)?

    public init(onAnswer: (@Sendable (Int) -> Void)? = nil) {
        self.onAnswer = onAnswer
    }

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var input = unwrapInboundIn(data)
        if var held = pending {
            held.writeBuffer(&input)
            input = held
            pending = nil
        }
        var output = context.channel.allocator.buffer(capacity: input.readableBytes)
        while input.readableBytes > 0 {
            if passThrough > 0 {
                let n = min(passThrough, input.readableBytes)
                var slice = input.readSlice(length: n)!
                output.writeBuffer(&slice)
                passThrough -= n
                continue
            }
            guard input.readableBytes >= 9 else { break }
            let start = input.readerIndex
            let length =
                Int(input.getInteger(at: start, as: UInt8.self)!) << 16
                | Int(input.getInteger(at: start + 1, as: UInt16.self)!)
            let type = input.getInteger(at: start + 3, as: UInt8.self)!
            let flags = input.getInteger(at: start + 4, as: UInt8.self)!
            if type == 0x6 && flags & 0x1 == 0 && length == 8 {
                guard input.readableBytes >= 17 else { break }
                input.moveReaderIndex(forwardBy: 9)
                let opaque = input.readSlice(length: 8)!
                var ack = context.channel.allocator.buffer(capacity: 17)
                ack.writeInteger(UInt8(0)); ack.writeInteger(UInt16(8))
                ack.writeInteger(UInt8(0x6)); ack.writeInteger(UInt8(0x1))
                ack.writeInteger(UInt32(0))
                var payload = opaque
                ack.writeBuffer(&payload)
                context.writeAndFlush(wrapOutboundOut(ack), promise: nil)
                answered += 1
                onAnswer?(answered)
                continue
            }
            var header = input.readSlice(length: 9)!
            output.writeBuffer(&header)
            passThrough = length
        }
        if input.readableBytes > 0 {
            var rest = context.channel.allocator.buffer(capacity: input.readableBytes)
            rest.writeBuffer(&input)
            pending = rest
        }
        if output.readableBytes > 0 {
            context.fireChannelRead(wrapInboundOut(output))
        }
    }
}
