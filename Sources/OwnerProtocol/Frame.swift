// How bytes travel on the owner's socket: each message is one frame, a 4-byte big-endian length
// followed by that many bytes of UTF-8 JSON. The length is bounded so that a hostile or broken
// peer can never make either side buffer more than `Frame.maximumLength` bytes.
// Start reading at `FrameReader.append`.

/// One length-prefixed message on the owner socket.
public enum Frame {
    /// The largest body either side accepts (64 KiB: a title is at most a few KiB).
    public static let maximumLength = 64 * 1024

    /// `body` with its length prefix.
    public static func encode(_ body: [UInt8]) -> [UInt8] {
        let count = UInt32(body.count)
        return [UInt8(count >> 24), UInt8(count >> 16 & 0xFF), UInt8(count >> 8 & 0xFF), UInt8(count & 0xFF)] + body
    }
}

/// Why a byte stream is not a sequence of frames.
public enum FrameError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The length prefix is 0 or above `Frame.maximumLength`.
    case badLength(Int)

    public var description: String {
        switch self {
        case .badLength(let length):
            "frame length \(length) outside 1…\(Frame.maximumLength) bytes"
        }
    }
}

/// Cuts a byte stream, fed in pieces as they arrive, into frame bodies.
public struct FrameReader: Sendable {
    private var buffer: [UInt8] = []
    private var start = 0

    public init() {}

    /// Bytes received and not yet returned as a frame.
    public var bufferedCount: Int { buffer.count - start }

    /// Adds received bytes.
    public mutating func append(_ bytes: some Collection<UInt8>) {
        if start > 0, start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next complete frame body, `nil` if more bytes are needed. A bad length prefix throws
    /// at once, before its body arrives.
    public mutating func nextFrame() throws(FrameError) -> [UInt8]? {
        guard bufferedCount >= 4 else { return nil }
        let length = buffer[start..<start + 4].reduce(0) { $0 << 8 | Int($1) }
        guard length > 0, length <= Frame.maximumLength else { throw .badLength(length) }
        guard bufferedCount >= 4 + length else { return nil }
        let body = Array(buffer[start + 4..<start + 4 + length])
        start += 4 + length
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        }
        return body
    }
}
