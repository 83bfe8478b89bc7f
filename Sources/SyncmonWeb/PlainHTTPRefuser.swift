import NIOCore

/// On a TLS listener, answers a plain-HTTP request with 400 and a sentence, as Go's servers
/// (and so node_exporter) do, instead of a TLS alert nobody can read. Looks at the first byte
/// only: a TLS connection starts with a handshake record (0x16), an HTTP request with a
/// capital letter. Then it steps out of the pipeline.
package final class PlainHTTPRefuser: ChannelInboundHandler, RemovableChannelHandler {
    package typealias InboundIn = ByteBuffer
    package typealias OutboundOut = ByteBuffer

    package init() {}

    package static let answer = "HTTP/1.0 400 Bad Request\r\n\r\nClient sent an HTTP request to an HTTPS server.\n"

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = self.unwrapInboundIn(data)
        guard let first = buffer.getInteger(at: buffer.readerIndex, as: UInt8.self) else {
            context.fireChannelRead(data)
            return
        }
        if (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(first) {
            // Written below the TLS handler: it goes out in the clear.
            let response = context.channel.allocator.buffer(string: Self.answer)
            let channel = context.channel
            context.writeAndFlush(self.wrapOutboundOut(response)).whenComplete { _ in channel.close(promise: nil) }
            return
        }
        context.fireChannelRead(data)
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }
}
