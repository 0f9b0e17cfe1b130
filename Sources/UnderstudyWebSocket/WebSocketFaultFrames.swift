/// Frames that break RFC 6455 on purpose, for the faults a client's WebSocket code must survive
/// (issue 45): each is a named function, so a fault's bytes are written in one place and checked byte
/// for byte. A strict client (Python's `websockets`, a browser) fails the connection on each of them.
public enum WebSocketFaultFrames {
    /// A text frame with reserved bits set that no extension negotiated (§5.2: the client must fail
    /// the connection). RSV1 by default, which is wrong unless permessage-deflate was agreed.
    public static func reservedBitsSet(text: String, bits: UInt8 = WebSocketFrame.rsv1) -> [UInt8] {
        WebSocketFrame(reservedBits: bits, opcode: .text, payload: Array(text.utf8)).bytes
    }

    /// A text frame masked as a client's would be: a server must not mask (§5.1).
    public static func maskedServerFrame(text: String, maskingKey: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]) -> [UInt8] {
        WebSocketFrame(opcode: .text, maskingKey: maskingKey, payload: Array(text.utf8)).bytes
    }

    /// A single text frame whose payload is not UTF-8 (the client must close with 1007). The default
    /// payload is "κόσμε" followed by an encoded surrogate (ED A0 80) and "edited", Autobahn's case 6.3.1.
    public static func invalidUTF8Text(
        _ payload: [UInt8] = [
            0xCE, 0xBA, 0xE1, 0xBD, 0xB9, 0xCF, 0x83, 0xCE, 0xBC, 0xCE, 0xB5, 0xED, 0xA0, 0x80, 0x65, 0x64, 0x69, 0x74,
            0x65, 0x64,
        ]
    ) -> [UInt8] {
        WebSocketFrame(opcode: .text, payload: payload).bytes
    }

    /// The first `keptFragments` fragments of a message split into `fragmentSize`-byte pieces, none
    /// with FIN: a message cut in the middle. The transport writes these and then resets the
    /// connection (or goes silent), so the client holds half a message.
    public static func truncatedFragmentedMessage(
        opcode: WebSocketOpcode = .text, payload: [UInt8], fragmentSize: Int, keptFragments: Int = 1
    ) -> [UInt8] {
        var output: [UInt8] = []
        let frames = WebSocketFrameWriter.frames(opcode: opcode, payload: payload, fragmentSize: fragmentSize)
        for var frame in frames.prefix(keptFragments) {
            frame.fin = false
            frame.encode(into: &output)
        }
        return output
    }
}
