// One HTTP/1.1 GET for `window-banner monitor --connectivity http`: does the internet answer,
// or does a captive portal answer in its place? Plain HTTP over a POSIX socket — a name lookup
// (getaddrinfo), a connect, a request, and the status line, the `Location` header and at most
// the first bytes of the body back — on a thread of its own, because getaddrinfo cannot be
// made to wait on a poll loop. The thread says it is done on a pipe the caller polls; the
// caller also keeps its own deadline, since a name lookup may outlast any timeout given here.
// Its socket calls stay in this file (Syscalls.swift is the rtnetlink side's layer).
// Deciding what an answer means is BannerCore's HTTPCheckRule; this file only fetches.
// Start reading at `HTTPCheck.init`.

import Glibc
import Synchronization

/// What one check got back.
public enum HTTPCheckAnswer: Sendable, Hashable {
    /// An HTTP response: its status code, its `Location` header, and the start of its body
    /// (read only when asked for, and only for a 2xx status).
    case response(status: Int, location: String?, body: [UInt8])
    /// No HTTP response: why, in a few words (`Connection refused`, `no answer within 3 s`).
    case failure(String)
}

/// One `GET` in flight. Poll ``fileDescriptor`` for reading; once it is readable, ``answer``
/// is set. Dropping the check abandons it: the thread finishes on its own and its answer goes
/// nowhere.
public final class HTTPCheck {
    /// What the request is for.
    public struct Request: Sendable, Hashable {
        /// A name or a literal address, looked up with getaddrinfo(3).
        public var host: String
        /// The TCP port.
        public var port: UInt16
        /// The path and query, starting with `/`.
        public var path: String
        /// The `Host` header's value.
        public var hostHeader: String
        /// Whether the body of a 2xx answer matters (an expected text to compare).
        public var wantsBody: Bool
        /// The most body bytes read.
        public var maximumBody: Int
        /// Seconds from the start to the last byte: each wait stops there.
        public var timeout: Double

        /// A request with these values.
        public init(host: String, port: UInt16, path: String, hostHeader: String, wantsBody: Bool, maximumBody: Int, timeout: Double) {
            self.host = host
            self.port = port
            self.path = path
            self.hostHeader = hostHeader
            self.wantsBody = wantsBody
            self.maximumBody = maximumBody
            self.timeout = timeout
        }
    }

    private let job: Job

    /// Starts the check on a thread of its own; throws when no eventfd or thread can be made.
    public init(_ request: Request) throws(PathMonitorError) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw PathMonitorError(operation: "pipe", code: errno) }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
        }
        job = Job(request: request, readEnd: ends[0], writeEnd: ends[1])
        let retained = Unmanaged.passRetained(job).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { raw in
            guard let raw else { return nil }
            let job = Unmanaged<Job>.fromOpaque(raw).takeRetainedValue()
            job.finish(with: HTTPExchange(job.request).run())
            return nil
        }, retained)
        guard result == 0 else {
            Unmanaged<Job>.fromOpaque(retained).release()
            throw PathMonitorError(operation: "pthread_create", code: result)
        }
        pthread_detach(thread)
    }

    /// Readable once the answer is in (a pipe's read end).
    public var fileDescriptor: Int32 { job.readEnd }

    /// The answer, once the thread is done; nil before.
    public var answer: HTTPCheckAnswer? { job.answer.withLock { $0 } }

    /// The state both threads share; the pipe closes when the last of them lets go (so the
    /// thread never writes to a pipe nobody reads).
    private final class Job: Sendable {
        let request: Request
        let readEnd: Int32
        let writeEnd: Int32
        let answer = Mutex<HTTPCheckAnswer?>(nil)

        init(request: Request, readEnd: Int32, writeEnd: Int32) {
            self.request = request
            self.readEnd = readEnd
            self.writeEnd = writeEnd
        }

        func finish(with result: HTTPCheckAnswer) {
            answer.withLock { $0 = result }
            var done: UInt8 = 1
            _ = write(writeEnd, &done, 1)
        }

        deinit {
            close(readEnd)
            close(writeEnd)
        }
    }
}

/// The blocking exchange, run on the check's thread: lookup, connect, send, read, each wait
/// bounded by the request's deadline.
private struct HTTPExchange {
    let request: HTTPCheck.Request
    let deadline: Double

    init(_ request: HTTPCheck.Request) {
        self.request = request
        deadline = Self.now() + request.timeout
    }

    func run() -> HTTPCheckAnswer {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let lookup = getaddrinfo(request.host, String(request.port), &hints, &list)
        guard lookup == 0 else { return .failure("cannot find \(request.host): \(String(cString: gai_strerror(lookup)))") }
        defer { freeaddrinfo(list) }
        var lastFailure = "no address for \(request.host)"
        var entry = list
        while let address = entry?.pointee, Self.now() < deadline {
            entry = address.ai_next
            switch connect(address) {
            case .success(let socket):
                defer { close(socket) }
                return exchange(on: socket)
            case .failure(let reason):
                lastFailure = reason
            }
        }
        return .failure(lastFailure)
    }

    private enum Connection {
        case success(Int32)
        case failure(String)
    }

    /// A non-blocking connect to `address`, waited for until the deadline.
    private func connect(_ address: addrinfo) -> Connection {
        let type = address.ai_socktype | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        let socket = Glibc.socket(address.ai_family, type, address.ai_protocol)
        guard socket >= 0 else { return .failure(Self.systemMessage(errno)) }
        if Glibc.connect(socket, address.ai_addr, address.ai_addrlen) != 0 {
            guard errno == EINPROGRESS else {
                let code = errno
                close(socket)
                return .failure(Self.systemMessage(code))
            }
            guard wait(socket, for: Int16(POLLOUT)) else {
                close(socket)
                return .failure(timeoutMessage)
            }
            var code: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(socket, SOL_SOCKET, SO_ERROR, &code, &length)
            guard code == 0 else {
                close(socket)
                return .failure(Self.systemMessage(code))
            }
        }
        return .success(socket)
    }

    private func exchange(on socket: Int32) -> HTTPCheckAnswer {
        let text = "GET \(request.path) HTTP/1.1\r\nHost: \(request.hostHeader)\r\nUser-Agent: window-banner\r\n"
            + "Accept: */*\r\nConnection: close\r\n\r\n"
        var bytes = Array(text.utf8)
        while !bytes.isEmpty {
            let sent = send(socket, bytes, bytes.count, Int32(MSG_NOSIGNAL))
            if sent > 0 {
                bytes.removeFirst(sent)
            } else if sent < 0, errno == EAGAIN || errno == EINTR {
                guard wait(socket, for: Int16(POLLOUT)) else { return .failure(timeoutMessage) }
            } else {
                return .failure(Self.systemMessage(errno))
            }
        }
        var parser = HTTPResponseParser(wantsBody: request.wantsBody, maximumBody: request.maximumBody)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(socket, &buffer, buffer.count, 0)
            if count > 0 {
                parser.append(buffer[..<count])
            } else if count == 0 {
                parser.finish()
            } else if errno == EAGAIN || errno == EINTR {
                if !wait(socket, for: Int16(POLLIN)) { parser.finish(timedOut: true) }
            } else {
                parser.finish(error: Self.systemMessage(errno))
            }
            if let outcome = parser.outcome {
                switch outcome {
                case .response(let status, let location, let body): return .response(status: status, location: location, body: body)
                case .malformed: return .failure("not an HTTP answer")
                case .incomplete(let error, let timedOut):
                    return .failure(timedOut ? timeoutMessage : error ?? "connection closed before an answer")
                }
            }
        }
    }

    private var timeoutMessage: String { "no answer within \(Self.seconds(request.timeout)) s" }

    /// poll(2) for `events` on `socket` until the deadline; false when it passed first.
    private func wait(_ socket: Int32, for events: Int16) -> Bool {
        while true {
            let remaining = deadline - Self.now()
            guard remaining > 0 else { return false }
            var entry = pollfd(fd: socket, events: events, revents: 0)
            let result = poll(&entry, 1, Int32((remaining * 1000).rounded(.up)))
            if result > 0 { return true }
            if result < 0, errno == EINTR { continue }
            if result == 0 { return false }
            return true
        }
    }

    private static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    private static func systemMessage(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// `3`, `2.5`: seconds as the user wrote them.
    private static func seconds(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e9 ? String(Int(value)) : String(value)
    }
}

/// An HTTP/1.x response read as it arrives: the status line, the headers that matter here
/// (`Location`, `Content-Length`, `Transfer-Encoding: chunked`) and at most `maximumBody`
/// bytes of a 2xx body when the body is wanted. Pure: fed bytes, it says when it knows enough.
struct HTTPResponseParser {
    /// What came of the bytes.
    enum Outcome: Hashable {
        /// A complete enough response.
        case response(status: Int, location: String?, body: [UInt8])
        /// Bytes that are not an HTTP response.
        case malformed
        /// The stream ended (or failed, or timed out) before the status line and headers.
        case incomplete(error: String?, timedOut: Bool)
    }

    let wantsBody: Bool
    let maximumBody: Int
    /// The largest header block accepted.
    static let maximumHead = 16 * 1024
    private var bytes: [UInt8] = []
    private var head: (status: Int, location: String?, length: Int?, chunked: Bool, bodyStart: Int)?
    private(set) var outcome: Outcome?

    init(wantsBody: Bool, maximumBody: Int) {
        self.wantsBody = wantsBody
        self.maximumBody = maximumBody
    }

    mutating func append(_ chunk: ArraySlice<UInt8>) {
        guard outcome == nil else { return }
        bytes += chunk
        if head == nil { parseHead() }
        guard outcome == nil, let head else { return }
        let needsBody = wantsBody && (200...299).contains(head.status) && head.status != 204
        guard needsBody else {
            outcome = .response(status: head.status, location: head.location, body: [])
            return
        }
        let body = decodedBody()
        if body.count >= maximumBody || head.length.map({ body.count >= $0 }) == true || (head.chunked && chunkedBodyEnded()) {
            outcome = .response(status: head.status, location: head.location, body: Array(body.prefix(maximumBody)))
        }
    }

    /// The stream ended: what was read is all there is.
    mutating func finish(error: String? = nil, timedOut: Bool = false) {
        guard outcome == nil else { return }
        guard let head else {
            outcome = .incomplete(error: error, timedOut: timedOut)
            return
        }
        outcome = .response(status: head.status, location: head.location, body: Array(decodedBody().prefix(maximumBody)))
    }

    private mutating func parseHead() {
        let end = bytes.indices.dropLast(3).first { bytes[$0] == 13 && bytes[$0 + 1] == 10 && bytes[$0 + 2] == 13 && bytes[$0 + 3] == 10 }
        guard let end else {
            if bytes.count > Self.maximumHead || !looksLikeHTTP { outcome = .malformed }
            return
        }
        let lines = String(decoding: bytes[..<end], as: UTF8.self).split(separator: "\r\n", omittingEmptySubsequences: false)
        let statusParts = lines.first?.split(separator: " ", maxSplits: 2) ?? []
        guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1."), let status = Int(statusParts[1]), (100...599).contains(status) else {
            outcome = .malformed
            return
        }
        if (100...199).contains(status) {
            // An interim answer (100 Continue): the real one follows.
            bytes.removeFirst(end + 4)
            parseHead()
            return
        }
        var location: String?
        var length: Int?
        var chunked = false
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingSpaces
            switch name {
            case "location": location = value
            case "content-length": length = Int(value)
            case "transfer-encoding": chunked = value.lowercased().contains("chunked")
            default: break
            }
        }
        head = (status, location, length, chunked, end + 4)
    }

    /// Whether the bytes so far can still become a status line.
    private var looksLikeHTTP: Bool {
        let prefix = Array("HTTP/1.".utf8)
        return bytes.prefix(prefix.count).elementsEqual(prefix.prefix(min(bytes.count, prefix.count)))
    }

    /// The body read so far, chunked transfer coding removed.
    private func decodedBody() -> [UInt8] {
        guard let head else { return [] }
        let raw = bytes[head.bodyStart...]
        guard head.chunked else { return Array(raw) }
        return dechunked(raw).body
    }

    private func chunkedBodyEnded() -> Bool {
        guard let head else { return false }
        return dechunked(bytes[head.bodyStart...]).ended
    }

    /// The chunks' data as far as it has arrived, and whether the last (empty) chunk came.
    private func dechunked(_ raw: ArraySlice<UInt8>) -> (body: [UInt8], ended: Bool) {
        var body: [UInt8] = []
        var index = raw.startIndex
        while index < raw.endIndex {
            guard let lineEnd = raw[index...].firstIndex(of: 10) else { break }
            let sizeText = String(decoding: raw[index..<lineEnd], as: UTF8.self).prefix { $0.isHexDigit }
            guard let size = Int(sizeText, radix: 16) else { return (body, true) }
            if size == 0 { return (body, true) }
            let start = lineEnd + 1
            let end = min(start + size, raw.endIndex)
            body += raw[start..<end]
            guard start + size + 2 <= raw.endIndex else { break }
            index = start + size + 2
        }
        return (body, false)
    }
}

private extension Substring {
    /// Without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
