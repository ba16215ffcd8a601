// Where a session's first banner spends its time, for whoever measures it: with
// WINDOW_BANNER_TRACE_STARTUP=1 in its environment, `show` and the owner it starts write one
// line per step to their standard error (the owner's is its log) — `show` as it returns, the
// owner once its first frame is out — each with CLOCK_MONOTONIC in milliseconds, the clock
// `make bench` starts its commands by. Without it, a mark costs one branch.

import Glibc
import Synchronization

public enum StartupTrace {
    private static let enabled = getenv("WINDOW_BANNER_TRACE_STARTUP").map { String(cString: $0) == "1" } ?? false
    private static let marks = Mutex<(steps: [(String, Double)], written: Bool)>(([], false))

    /// Notes that `step` happens now (any thread); `step` is not even made when not tracing.
    public static func mark(_ step: @autoclosure () -> String) {
        guard enabled else { return }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let milliseconds = Double(now.tv_sec) * 1000 + Double(now.tv_nsec) / 1_000_000
        let name = step()
        marks.withLock { $0.steps.append((name, milliseconds)) }
    }

    /// Writes the steps noted so far to standard error, once per process.
    public static func report() {
        guard enabled else { return }
        let lines = marks.withLock { state -> String? in
            guard !state.written else { return nil }
            state.written = true
            return state.steps.map { "window-banner: startup \(String(format3: $0.1)) \($0.0)\n" }.joined()
        }
        guard let lines else { return }
        let bytes = Array(lines.utf8)
        _ = bytes.withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
    }
}

private extension String {
    init(format3 value: Double) {
        let thousandths = Int((value * 1000).rounded())
        let fraction = String(thousandths % 1000)
        self = "\(thousandths / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
