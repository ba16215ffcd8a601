// netpath-probe: prints the path status NetworkPath computes, one line per distinct status
// (`satisfied eth0 ipv4`, `unsatisfied`), the current one first. It runs until its standard
// input ends, then prints `# overflows N` (or `# done` with --async) and exits 0 — so a test
// that dies takes its probe with it. The namespace tests run it inside `ip netns exec`.
//
//   netpath-probe [--async] [--receive-buffer BYTES] [--debounce SECONDS]
//
// --async uses `PathMonitor.statuses()` (its own thread); the default drives the monitor from a
// poll(2) loop through `fileDescriptor`/`handleReadable()`/`handleDeadline()`, as an X11 event
// loop would. Exit status 1 when the monitor fails, 64 on bad usage.

import Glibc
import MonotonicClock
import NetworkPath

/// Writes `line` and a newline to `descriptor` at once, unbuffered, so a reader sees each
/// status the moment it is decided.
func emit(_ line: String, to descriptor: Int32 = 1) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
}

let usage = "usage: netpath-probe [--async] [--receive-buffer BYTES] [--debounce SECONDS]"

func fail(_ message: String, status: Int32) -> Never {
    emit("netpath-probe: \(message)", to: 2)
    exit(status)
}

/// Blocks until standard input reaches its end (its content is ignored).
func waitForEndOfInput() {
    var byte: UInt8 = 0
    while true {
        let count = read(0, &byte, 1)
        if count == 0 || (count < 0 && errno != EINTR) { return }
    }
}

/// The poll(2) loop over the monitor's socket and standard input.
func runSynchronously(_ configuration: PathMonitor.Configuration) throws(PathMonitorError) {
    let monitor = try PathMonitor(configuration: configuration, clock: monotonicNow)
    emit(monitor.currentStatus.description)
    var input: [UInt8] = Array(repeating: 0, count: 256)
    while true {
        var fds = [
            pollfd(fd: monitor.fileDescriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: 0, events: Int16(POLLIN), revents: 0),
        ]
        guard poll(&fds, 2, monitor.pollTimeout) >= 0 || errno == EINTR else { fail("poll failed", status: 1) }
        if fds[1].revents != 0, read(0, &input, input.count) <= 0 { break }
        if fds[0].revents != 0, let status = try monitor.handleReadable() { emit(status.description) }
        if let status = try monitor.handleDeadline() { emit(status.description) }
    }
    emit("# overflows \(monitor.overflowCount)")
}

/// The async-sequence API, printed from a task while the main thread waits for end of input.
func runAsynchronously(_ configuration: PathMonitor.Configuration) throws(PathMonitorError) {
    let statuses = try PathMonitor.statuses(configuration: configuration)
    Task.detached {
        do {
            for try await status in statuses { emit(status.description) }
        } catch {
            fail("\(error)", status: 1)
        }
    }
    waitForEndOfInput()
    emit("# done")
}

var configuration = PathMonitor.Configuration()
var asynchronous = false
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--async":
        asynchronous = true
    case "--receive-buffer":
        guard let value = arguments.popFirst().flatMap({ Int($0) }), value > 0 else {
            fail("--receive-buffer needs a byte count", status: 64)
        }
        configuration.receiveBufferSize = value
    case "--debounce":
        guard let value = arguments.popFirst().flatMap({ Double($0) }), value >= 0 else {
            fail("--debounce needs seconds", status: 64)
        }
        configuration.debounceInterval = value
    default:
        fail("unknown argument \(argument)\n\(usage)", status: 64)
    }
}

do {
    if asynchronous {
        try runAsynchronously(configuration)
    } else {
        try runSynchronously(configuration)
    }
} catch {
    fail("\(error)", status: 1)
}
