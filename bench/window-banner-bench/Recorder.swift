// What the X server saw, as it saw it: the stream of bench/xrecord-probe (X RECORD), parsed into
// `Record`s with the server's timestamps, and the windows it tells about (who created them,
// their parents, override-redirect, WM_CLASS / WM_NAME), so a tool's window and everything drawn
// into it can be picked out. `mark()` ties the driver's clock to the server's: the probe sets a
// property on the root, and the recorded request carries the server's time.

import Glibc

/// One element of the probe's stream.
struct Record {
    enum Kind: String {
        case start, gone, create, map, mapsubwindows, unmap, destroy, configure, attrs, pixmap, picture
        case prop, draw, shape, mapnotify, unmapnotify, req, mark
    }

    /// Server time, milliseconds (CLOCK_MONOTONIC truncated on Xvfb).
    var time: Int
    var kind: Kind
    /// The resource base of the client that sent the request (or received the event).
    var client: UInt32
    /// The window, drawable or picture it is about; 0 for none.
    var target: UInt32
    /// The rest of the line: see bench/xrecord-probe.c for each kind.
    var arguments: [Substring]

    /// True for requests a client made (not events, not connection changes).
    var isRequest: Bool {
        switch kind {
        case .start, .gone, .mapnotify, .unmapnotify: false
        default: true
        }
    }
}

/// What the stream told about one window.
struct WindowInfo {
    var parent: UInt32
    var overrideRedirect: Bool
    var creator: UInt32
    /// Its height when created.
    var height: Int
    var wmClass = ""
    var wmName = ""
}

/// Picks a tool's window out of the windows mapped on the root.
struct WindowMatch: Sendable {
    let description: String
    let test: @Sendable (WindowInfo) -> Bool

    /// An override-redirect window on the root whose WM_CLASS (instance) is `instance`.
    static func overrideRedirect(instance: String) -> WindowMatch {
        WindowMatch(description: "override-redirect, WM_CLASS \(instance)") {
            $0.overrideRedirect && $0.wmClass.hasPrefix(instance + "_")
        }
    }

    /// An override-redirect window on the root named `name` (WM_NAME).
    static func overrideRedirect(name: String) -> WindowMatch {
        WindowMatch(description: "override-redirect, WM_NAME \(name)") { $0.overrideRedirect && $0.wmName == name }
    }
}

/// The driver's clock against the server's at one marker.
struct Marker {
    /// The server's time of the marker request (ms, truncated).
    let serverTime: Int
    /// CLOCK_MONOTONIC (ms) just before and after the marker's round trip.
    let before: Double
    let after: Double
}

final class Recorder {
    private let supervisor: Supervisor
    private let probe: Child
    /// Records since the last `mark()`.
    private(set) var records: [Record] = []
    private(set) var windows: [UInt32: WindowInfo] = [:]
    private var pictures: [UInt32: UInt32] = [:]
    private(set) var root: UInt32 = 0
    private(set) var atoms: [String: UInt32] = [:]
    private var ready = false
    private var nextMark = 0
    private var marked: [Int: (before: Double, after: Double)] = [:]
    private var markTimes: [Int: Int] = [:]
    /// Markers whose server time fell inside the driver's round trip, and all markers.
    private(set) var consistentMarkers = 0
    private(set) var markers = 0

    init(supervisor: Supervisor, executable: String, environment: [String: String]) throws {
        self.supervisor = supervisor
        probe = try supervisor.spawn([executable], environment: environment, name: "xrecord-probe", stdin: .pipe, stdout: .pipe, stderr: .inherit)
        probe.onLine = { [unowned self] line in take(line) }
        guard supervisor.wait(seconds: 10, until: { ready || !probe.isRunning }), ready else {
            throw BenchFailure("the X RECORD probe did not start")
        }
    }

    /// Sets a marker and waits until the server has recorded it; forgets earlier records.
    @discardableResult
    func mark() throws -> Marker {
        nextMark += 1
        let number = nextMark
        send("mark \(number)")
        guard supervisor.wait(seconds: 5, until: { marked[number] != nil && markTimes[number] != nil }),
              let times = marked.removeValue(forKey: number), let server = markTimes.removeValue(forKey: number) else {
            throw BenchFailure("the probe's marker \(number) never came back")
        }
        if let index = records.lastIndex(where: { $0.kind == .mark && $0.target == UInt32(number) }) {
            records.removeFirst(index + 1)
        }
        markers += 1
        // Xvfb stamps with CLOCK_MONOTONIC truncated to milliseconds: the marker's time must
        // fall inside our round trip.
        if server >= Int(times.before.rounded(.down)), server <= Int(times.after.rounded(.down)) { consistentMarkers += 1 }
        return Marker(serverTime: server, before: times.before, after: times.after)
    }

    /// Stops (or resumes) the stream but for markers: long loops need no record of every request.
    func mute(_ muted: Bool) { send(muted ? "mute" : "unmute") }

    /// A server time on the driver's clock: the middle of the millisecond it names.
    func monotonic(_ serverTime: Int) -> Double { Double(serverTime) + 0.5 }

    /// Waits for the first record from index `start` on that satisfies `test`; its index, or
    /// nil after `timeout` seconds.
    func waitForRecord(from start: Int = 0, timeout: Double, where test: (Record) -> Bool) -> Int? {
        var next = start
        var found: Int?
        supervisor.wait(seconds: timeout) {
            while next < records.count {
                if test(records[next]) {
                    found = next
                    return true
                }
                next += 1
            }
            return false
        }
        return found
    }

    /// The first index from `start` whose record satisfies `test`, among those already here.
    func firstIndex(from start: Int, where test: (Record) -> Bool) -> Int? {
        guard start < records.count else { return nil }
        return records[start...].firstIndex(where: test)
    }

    /// The windows created inside `window`, directly.
    func children(of window: UInt32) -> [UInt32] {
        windows.filter { $0.value.parent == window }.map(\.key)
    }

    /// True when `window` is `top` or inside it.
    func isInside(_ window: UInt32, _ top: UInt32) -> Bool {
        var current = window
        for _ in 0..<16 {
            if current == top { return true }
            guard let parent = windows[current]?.parent, parent != 0, parent != root else { return false }
            current = parent
        }
        return false
    }

    /// The drawable a `draw` record paints: its target, or a RENDER picture's drawable.
    func drawable(of record: Record) -> UInt32 {
        pictures[record.target] ?? record.target
    }

    /// Ends the probe.
    func stop() {
        send("quit")
        if supervisor.waitForExit(probe, timeout: 2) == nil { supervisor.stop(probe) }
    }

    private func send(_ command: String) {
        guard let fd = probe.input else { return }
        let bytes = Array((command + "\n").utf8)
        _ = bytes.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count) }
    }

    private func take(_ line: String) {
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count >= 3, let time = Int(fields[0]) else { return }
        switch fields[1] {
        case "ready": ready = true
        case "root": root = UInt32(fields[3], radix: 16) ?? 0
        case "atom": if fields.count >= 5 { atoms[String(fields[3])] = UInt32(fields[4]) }
        case "marked":
            if fields.count >= 6, let number = Int(fields[3]), let before = Double(fields[4]), let after = Double(fields[5]) {
                marked[number] = (before / 1_000_000, after / 1_000_000)
            }
        default:
            guard let kind = Record.Kind(rawValue: String(fields[1])), let client = UInt32(fields[2], radix: 16) else { return }
            let rest = Array(fields.dropFirst(3))
            let target = kind == .mark || kind == .req ? UInt32(rest.first ?? "") ?? 0 : UInt32(rest.first ?? "", radix: 16) ?? 0
            let record = Record(time: time, kind: kind, client: client, target: target, arguments: Array(rest.dropFirst()))
            learn(from: record)
            if kind == .mark { markTimes[Int(target)] = time }
            records.append(record)
        }
    }

    /// Keeps the window and picture tables current. A destroyed window keeps its entry, so a
    /// record about it can still be read; an id created again starts a new entry.
    private func learn(from record: Record) {
        let arguments = record.arguments
        switch record.kind {
        case .create where arguments.count >= 4:
            windows[record.target] = WindowInfo(
                parent: UInt32(arguments[0], radix: 16) ?? 0, overrideRedirect: arguments[1] == "1", creator: record.client,
                height: Int(arguments[3]) ?? 0)
        case .prop where arguments.count >= 2:
            // Predefined atoms: WM_NAME 39, WM_CLASS 67.
            if arguments[0] == "67" { windows[record.target]?.wmClass = String(arguments[1]) }
            if arguments[0] == "39" { windows[record.target]?.wmName = String(arguments[1]) }
        case .picture where !arguments.isEmpty:
            pictures[record.target] = UInt32(arguments[0], radix: 16)
        default:
            break
        }
    }
}

extension Record {
    /// For a `configure` record: the value of one of x, y, width, height (bits 0...3 of the mask).
    func configured(_ bit: Int) -> Int? {
        guard kind == .configure, let mask = arguments.first.flatMap({ Int($0, radix: 16) }), mask & (1 << bit) != 0 else { return nil }
        let index = (mask & ((1 << bit) - 1)).nonzeroBitCount + 1
        return index < arguments.count ? Int(arguments[index]) : nil
    }

    /// For an `attrs` record: the background pixmap it sets, if any.
    var backgroundPixmap: UInt32? {
        guard kind == .attrs, let value = arguments.first.flatMap({ UInt32($0, radix: 16) }), value > 1 else { return nil }
        return value
    }
}
