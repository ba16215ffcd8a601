// One GET for `window-banner monitor --connectivity http`: does the internet answer, or does a
// captive portal answer in its place? The exchange is libcurl's (CCurl, loaded on first use):
// name lookup, IPv4/IPv6, TLS for https:// check URLs, the user's proxy variables, chunked
// coding, timeouts — a parser the network can attack is one a distribution maintains, not ours.
// It runs on the caller's poll loop through curl's multi-socket interface: the check says
// which sockets it wants watched (``HTTPCheck/sockets``) and when it wants to be woken
// (``HTTPCheck/deadline``); the caller reports readiness and time, and reads ``HTTPCheck/answer``.
// What remains ours is HTTPAnswerReader: it counts the header lines curl hands over, notices the
// end of the final header block, keeps its `Location` and the start of the body, every amount
// bounded (and fuzzed: NetworkPathTests' HTTPAnswerFuzzTests).
// Deciding what an answer means is the network monitor's (BannerMonitor's HTTPCheckRule.report). Start reading at `HTTPCheck.init`.

import CCurl
import Glibc
import MonotonicClock
import Reactor

/// What one check got back.
public enum HTTPCheckAnswer: Sendable, Hashable {
    /// An HTTP response: its status code, its `Location` header (for a 3xx, as sent), and the
    /// start of its body (read only when asked for, for a 2xx).
    case response(status: Int, location: String?, body: [UInt8])
    /// No answer: why, in a few words (`Connection refused`, `no answer within 3 s`).
    case failure(String)
    /// An answer that broke HTTP or one of the check's limits: what it did.
    case rejected(String)
}

/// Why a check could not start.
public struct HTTPCheckError: Error, Sendable, CustomStringConvertible {
    /// What failed, in a few words.
    public let description: String
}

/// The limits of one check: what an answer may send before the check stops reading it.
public enum HTTPCheckLimits {
    /// The most header bytes (status lines, fields, interim 1xx answers and trailers together).
    public static let maximumHeaderBytes = 32 * 1024
    /// The longest single header line: libcurl's own limit (CURL_MAX_HTTP_HEADER).
    public static let maximumHeaderLine = Int(CURL_MAX_HTTP_HEADER)
    /// The largest body a `Content-Length` may announce (CURLOPT_MAXFILESIZE); the body itself
    /// is read only up to the request's `maximumBody`.
    public static let maximumAnnouncedBody = 1 << 20
    // No low-speed limit: a window shorter than the request's timeout would also cut a slow but
    // honest server short, and the timeout (at most 300 s) already bounds what a drip can cost.
    /// Redirects followed: none. The first redirect is the verdict (a portal signing in at its
    /// target), so a redirect loop cannot loop.
    public static let redirectsFollowed = 0
}

/// One `GET` in flight, driven by the caller's poll loop. After creating it (and after each
/// call below), watch every socket in ``sockets`` for its events and wake at ``deadline``;
/// report with ``socketReady(_:)`` and ``deadlineReached()``. Once ``answer`` is set the check
/// is over. Dropping the check abandons it (a name lookup still running finishes on its own
/// thread, inside libcurl).
public final class HTTPCheck {
    /// What the request is for.
    public struct Request: Sendable, Hashable {
        /// The absolute `http://` or `https://` URL.
        public var url: String
        /// Whether the body of a 2xx answer matters (an expected text to compare).
        public var wantsBody: Bool
        /// The most body bytes read.
        public var maximumBody: Int
        /// Seconds from the start (name lookup included) to the last byte.
        public var timeout: Double

        /// A request with these values.
        public init(url: String, wantsBody: Bool, maximumBody: Int, timeout: Double) {
            self.url = url
            self.wantsBody = wantsBody
            self.maximumBody = maximumBody
            self.timeout = timeout
        }
    }

    private let multi: UnsafeMutableRawPointer
    private let easy: UnsafeMutableRawPointer
    private let state: State

    /// Loads libcurl if needed; throws saying why it cannot be loaded (missing, or too old).
    public static func loadLibrary() throws(HTTPCheckError) {
        if let failure = ccurl_load() { throw HTTPCheckError(description: String(cString: failure)) }
    }

    /// Starts the check: nothing is sent before the first ``deadlineReached()`` (due at once).
    /// `clock` tells the time libcurl's timer counts from (the caller's loop's).
    public init(_ request: Request, clock: @escaping () -> MonotonicTime) throws(HTTPCheckError) {
        try Self.loadLibrary()
        guard let multi = ccurl_multi_init() else { throw HTTPCheckError(description: "curl_multi_init failed") }
        guard let easy = ccurl_easy_init() else {
            ccurl_multi_cleanup(multi)
            throw HTTPCheckError(description: "curl_easy_init failed")
        }
        self.multi = multi
        self.easy = easy
        state = State(request: request, clock: clock)
        let context = Unmanaged.passUnretained(state).toOpaque()
        var failed = false
        func set(_ option: CURLoption, _ value: Int) { failed = failed || ccurl_easy_setopt_long(easy, option, value) != CURLE_OK }
        func set(_ option: CURLoption, _ value: String) {
            failed = failed || value.withCString { ccurl_easy_setopt_pointer(easy, option, UnsafeMutableRawPointer(mutating: $0)) } != CURLE_OK
        }
        set(CURLOPT_URL, request.url)
        set(CURLOPT_PROTOCOLS_STR, "http,https")
        set(CURLOPT_FOLLOWLOCATION, 0)
        set(CURLOPT_MAXREDIRS, HTTPCheckLimits.redirectsFollowed)
        let milliseconds = max(1, Int((request.timeout * 1000).rounded(.up)))
        set(CURLOPT_TIMEOUT_MS, milliseconds)
        set(CURLOPT_CONNECTTIMEOUT_MS, milliseconds)
        failed = failed || ccurl_easy_setopt_offset(easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(HTTPCheckLimits.maximumAnnouncedBody)) != CURLE_OK
        // Each check sees the network as it is now: no connection or name kept from the last.
        set(CURLOPT_FRESH_CONNECT, 1)
        set(CURLOPT_FORBID_REUSE, 1)
        set(CURLOPT_DNS_CACHE_TIMEOUT, 0)
        // No signals (the monitor has its own handlers), and no waiting for a name lookup that
        // outlives the check: its thread is left to finish by itself.
        set(CURLOPT_NOSIGNAL, 1)
        set(CURLOPT_QUICK_EXIT, 1)
        // A proxy's own "200 Connection established" is not the check's answer.
        set(CURLOPT_SUPPRESS_CONNECT_HEADERS, 1)
        set(CURLOPT_USERAGENT, "window-banner")
        failed = failed || ccurl_easy_setopt_pointer(easy, CURLOPT_ERRORBUFFER, state.errorBuffer) != CURLE_OK
        // Header lines and body bytes come through one callback; its context says which.
        let take: curl_write_callback = { data, size, count, context in
            guard let data, let context else { return 0 }
            let bytes = UnsafeRawBufferPointer(start: data, count: size * count)
            return Unmanaged<Sink>.fromOpaque(context).takeUnretainedValue().take(bytes) ? size * count : 0
        }
        failed = failed || ccurl_easy_setopt_write_function(easy, CURLOPT_HEADERFUNCTION, take) != CURLE_OK
        failed = failed || ccurl_easy_setopt_pointer(easy, CURLOPT_HEADERDATA, Unmanaged.passUnretained(state.headers).toOpaque()) != CURLE_OK
        failed = failed || ccurl_easy_setopt_write_function(easy, CURLOPT_WRITEFUNCTION, take) != CURLE_OK
        failed = failed || ccurl_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, Unmanaged.passUnretained(state.body).toOpaque()) != CURLE_OK
        failed = failed || ccurl_multi_set_socket_function(multi, { _, socket, what, context, _ in
            guard let context else { return -1 }
            let state = Unmanaged<State>.fromOpaque(context).takeUnretainedValue()
            switch what {
            case CURL_POLL_IN: state.sockets[socket] = Int16(POLLIN)
            case CURL_POLL_OUT: state.sockets[socket] = Int16(POLLOUT)
            case CURL_POLL_INOUT: state.sockets[socket] = Int16(POLLIN | POLLOUT)
            default: state.sockets[socket] = nil
            }
            return 0
        }, context) != CURLM_OK
        failed = failed || ccurl_multi_set_timer_function(multi, { _, milliseconds, context in
            guard let context else { return -1 }
            let state = Unmanaged<State>.fromOpaque(context).takeUnretainedValue()
            state.deadline = milliseconds < 0 ? nil : state.clock() + Double(milliseconds) / 1000
            return 0
        }, context) != CURLM_OK
        guard !failed, ccurl_multi_add_handle(multi, easy) == CURLM_OK else {
            ccurl_easy_cleanup(easy)
            ccurl_multi_cleanup(multi)
            throw HTTPCheckError(description: "libcurl refused the check's settings (\(String(cString: ccurl_version())))")
        }
    }

    deinit {
        ccurl_multi_remove_handle(multi, easy)
        ccurl_easy_cleanup(easy)
        ccurl_multi_cleanup(multi)
    }

    /// The sockets to watch and, for each, the poll(2) events to watch for.
    public var sockets: [Int32: Int16] { state.sockets }

    /// When to call ``deadlineReached()``, on `CLOCK_MONOTONIC`; nil: no timer.
    public var deadline: MonotonicTime? { state.deadline }

    /// The answer, once the check is over; nil before.
    public var answer: HTTPCheckAnswer? { state.answer }

    /// Called once, from ``process(ready:)``, with the answer when the check is over: the
    /// check is a LoopSource a loop serves.
    public var onAnswer: ((HTTPCheckAnswer) -> Void)?

    /// `socket` (one of ``sockets``) is ready, or hung up.
    public func socketReady(_ socket: Int32) { act(on: socket) }

    /// The ``deadline`` came.
    public func deadlineReached() {
        state.deadline = nil
        act(on: CURL_SOCKET_TIMEOUT)
    }

    private func act(on socket: curl_socket_t) {
        guard state.answer == nil else { return }
        var running: Int32 = 0
        // No event mask: curl looks at the socket itself.
        let code = ccurl_multi_socket_action(multi, socket, 0, &running)
        if code != CURLM_OK {
            state.answer = .failure("libcurl failed (multi code \(code.rawValue))")
            return
        }
        var queued: Int32 = 0
        while let message = ccurl_multi_info_read(multi, &queued) {
            guard message.pointee.msg == CURLMSG_DONE else { continue }
            state.answer = finished(message.pointee.data.result)
        }
    }

    /// The answer, from what the reader kept and how curl ended the transfer.
    private func finished(_ code: CURLcode) -> HTTPCheckAnswer {
        var status = 0
        _ = ccurl_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
        var systemError = 0
        _ = ccurl_easy_getinfo_long(easy, CURLINFO_OS_ERRNO, &systemError)
        // libcurl reports a header line over its limit as out of memory, with no message.
        let message = code == CURLE_OUT_OF_MEMORY
            ? "a header line over \(HTTPCheckLimits.maximumHeaderLine / 1024) KiB (or out of memory)" : String(cString: state.errorBuffer)
        let ending = HTTPAnswerReader.Ending(
            succeeded: code == CURLE_OK,
            timedOut: code == CURLE_OPERATION_TIMEDOUT,
            brokeHTTP: Self.answerFaults.contains(code) || (code == CURLE_RECV_ERROR && systemError == 0),
            systemError: systemError == 0 ? nil : String(cString: strerror(Int32(systemError))),
            message: message.isEmpty ? String(cString: ccurl_easy_strerror(code)) : message)
        return state.reader.answer(status: status, ending: ending, timeout: state.request.timeout)
    }

    /// libcurl's errors that blame the answer rather than the network: bytes that are not HTTP
    /// (an HTTP/0.9 reply, a bad chunk), a header line over libcurl's limit (reported as out of
    /// memory), a body over CURLOPT_MAXFILESIZE, a body cut short.
    private static let answerFaults: [CURLcode] = [
        CURLE_UNSUPPORTED_PROTOCOL, CURLE_WEIRD_SERVER_REPLY, CURLE_OUT_OF_MEMORY, CURLE_FILESIZE_EXCEEDED,
        CURLE_BAD_CONTENT_ENCODING, CURLE_HTTP2, CURLE_HTTP2_STREAM, CURLE_PARTIAL_FILE, CURLE_TOO_MANY_REDIRECTS,
    ]

    /// What the callbacks share with the check: the reader, the sockets and timer curl asked
    /// for, curl's error message, and the answer.
    private final class State {
        let request: Request
        var reader: HTTPAnswerReader
        var sockets: [Int32: Int16] = [:]
        var deadline: MonotonicTime?
        var answer: HTTPCheckAnswer?
        let errorBuffer: UnsafeMutablePointer<CChar>
        let clock: () -> MonotonicTime

        /// Where libcurl's header lines and body bytes go.
        private(set) lazy var headers = Sink(state: self, isHeader: true)
        private(set) lazy var body = Sink(state: self, isHeader: false)

        init(request: Request, clock: @escaping () -> MonotonicTime) {
            self.request = request
            self.clock = clock
            reader = HTTPAnswerReader(maximumBody: request.wantsBody ? max(0, request.maximumBody) : 0)
            errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
            errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        }

        deinit { errorBuffer.deallocate() }
    }

    /// Header lines or body bytes from libcurl, handed to the state's reader.
    private final class Sink {
        unowned let state: State
        let isHeader: Bool

        init(state: State, isHeader: Bool) {
            self.state = state
            self.isHeader = isHeader
        }

        /// Whether the reader takes `bytes` (false ends the transfer).
        func take(_ bytes: UnsafeRawBufferPointer) -> Bool {
            isHeader ? state.reader.header(bytes) : state.reader.body(bytes)
        }
    }
}

/// What the check keeps of an answer as libcurl hands it over: each header line (counted; the
/// status line of each block read for its code, so the empty line that ends the final block
/// is known) and the start of the body. Every amount is bounded, and it says when to stop:
/// at the end of the headers when the body does not matter, after `maximumBody` body bytes
/// when it does, at once when the headers outgrow ``HTTPCheckLimits/maximumHeaderBytes``.
/// Pure, so any bytes can be fed to it (NetworkPathTests' fuzz test does).
public struct HTTPAnswerReader: Sendable {
    /// Body bytes wanted from a 2xx answer; 0: none, stop at the end of the headers.
    public let maximumBody: Int
    /// Header bytes seen so far.
    public private(set) var headerBytes = 0
    /// The status of the block being read (or of the final one); 0 before a status line.
    public private(set) var status = 0
    /// The `Location` header of the block being read (or of the final one), as sent.
    public private(set) var location: String?
    /// Whether the final (non-1xx) header block ended.
    public private(set) var headersComplete = false
    /// The start of the body.
    public private(set) var body: [UInt8] = []
    /// The limit the answer broke, when it broke one.
    public private(set) var brokenLimit: String?
    /// Whether the reader stopped the transfer because it had what it needs.
    public private(set) var hasEnough = false

    /// A reader keeping at most `maximumBody` body bytes of a 2xx answer.
    public init(maximumBody: Int) {
        self.maximumBody = max(0, maximumBody)
    }

    /// One header line, with its line ending; false: stop the transfer.
    public mutating func header(_ line: UnsafeRawBufferPointer) -> Bool {
        headerBytes += line.count
        guard headerBytes <= HTTPCheckLimits.maximumHeaderBytes else {
            brokenLimit = "headers over \(HTTPCheckLimits.maximumHeaderBytes / 1024) KiB"
            return false
        }
        // Trailers after a chunked body: counted, nothing else.
        guard !headersComplete else { return true }
        if line.starts(with: "HTTP/".utf8) {
            status = Self.statusCode(line)
            location = nil
            return true
        }
        if let value = Self.value(of: "location:", in: line) {
            location = value
            return true
        }
        let isEmpty = line.allSatisfy { $0 == 13 || $0 == 10 }
        // The end of an interim (1xx) block: the real answer follows.
        guard isEmpty, status >= 200 else { return true }
        headersComplete = true
        // The body matters only for a 2xx answer with an expected text.
        if maximumBody == 0 || !(200...299).contains(status) {
            hasEnough = true
            return false
        }
        return true
    }

    /// Body bytes; false: stop the transfer (enough read).
    public mutating func body(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let room = maximumBody - body.count
        body += bytes.prefix(max(0, room))
        if body.count >= maximumBody {
            hasEnough = true
            return false
        }
        return true
    }

    /// How libcurl ended the transfer.
    public struct Ending: Sendable, Hashable {
        /// The transfer completed (CURLE_OK).
        public var succeeded: Bool
        /// The check's timeout ended it.
        public var timedOut: Bool
        /// libcurl refused the answer as broken HTTP or over one of its limits.
        public var brokeHTTP: Bool
        /// The system's message for the socket's last error (`Connection refused`), if any.
        public var systemError: String?
        /// libcurl's message.
        public var message: String

        /// An ending with these values.
        public init(succeeded: Bool, timedOut: Bool, brokeHTTP: Bool, systemError: String?, message: String) {
            self.succeeded = succeeded
            self.timedOut = timedOut
            self.brokeHTTP = brokeHTTP
            self.systemError = systemError
            self.message = message
        }
    }

    /// The answer: a response once the final headers ended and the transfer completed (or was
    /// stopped here with enough); no answer when nothing came back; a rejected answer when
    /// something came back that broke HTTP or a limit. `status` is libcurl's reading of the
    /// status line.
    public func answer(status curlStatus: Int, ending: Ending, timeout: Double) -> HTTPCheckAnswer {
        if let brokenLimit { return .rejected(brokenLimit) }
        let code = (200...599).contains(curlStatus) ? curlStatus : status
        if headersComplete, ending.succeeded || hasEnough, (200...599).contains(code) {
            return .response(status: code, location: (300...399).contains(code) ? location : nil, body: body)
        }
        // Nothing came back: the network's fault, not the answer's.
        if headerBytes == 0, !ending.brokeHTTP {
            if ending.timedOut { return .failure("no answer within \(Self.seconds(timeout)) s") }
            return .failure(Self.oneLine(ending.systemError ?? ending.message))
        }
        if ending.timedOut { return .rejected("answer not complete within \(Self.seconds(timeout)) s") }
        if let systemError = ending.systemError { return .rejected("answer cut short: \(Self.oneLine(systemError))") }
        return .rejected(Self.oneLine(ending.message))
    }

    /// The value of the header `name` (lower case, with its colon) when `line` is that header:
    /// without the spaces around it and the line ending.
    private static func value(of name: String, in line: UnsafeRawBufferPointer) -> String? {
        let name = Array(name.utf8)
        guard line.count >= name.count, zip(line, name).allSatisfy({ $0 | 0x20 == $1 || $0 == $1 }) else { return nil }
        let isSpace: (UInt8) -> Bool = { $0 == 32 || $0 == 9 || $0 == 13 || $0 == 10 }
        let value = line.dropFirst(name.count).drop(while: isSpace).reversed().drop(while: isSpace).reversed()
        return String(decoding: value, as: UTF8.self)
    }

    /// The three digits after `HTTP/x `; 0 when they are not there.
    private static func statusCode(_ line: UnsafeRawBufferPointer) -> Int {
        guard let space = line.firstIndex(of: 32) else { return 0 }
        let digits = line[(space + 1)...].prefix(3)
        guard digits.count == 3, digits.allSatisfy({ (48...57).contains($0) }) else { return 0 }
        return digits.reduce(0) { $0 * 10 + Int($1 - 48) }
    }

    /// A message as one short line: control characters as spaces, at most 200 characters.
    static func oneLine(_ text: String) -> String {
        let cleaned = String(text.unicodeScalars.prefix(200).map { $0.value < 0x20 || $0.value == 0x7F ? " " : Character($0) })
        return cleaned.trimmingTrailingSpaces
    }

    /// `3`, `2.5`: seconds as the user wrote them.
    static func seconds(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e9 ? String(Int(value)) : String(value)
    }
}

private extension String {
    var trimmingTrailingSpaces: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}

extension HTTPCheck: LoopSource {
    /// The sockets libcurl wants watched now, each for what it wants.
    public var descriptors: [PollDescriptor] { sockets.map { PollDescriptor(fd: $0.key, events: $0.value) } }

    /// Lets libcurl act on the ready sockets, or on its timer; gives the answer to
    /// ``onAnswer`` once there is one.
    public func process(ready: [PollDescriptor]) throws {
        guard answer == nil else { return }
        if ready.isEmpty {
            deadlineReached()
        } else {
            for descriptor in ready { socketReady(descriptor.fd) }
        }
        if let answer { onAnswer?(answer) }
    }
}
