// The benchmark's eyes on a wlroots compositor (sections 9 and 11's sway): bench/screencopy-probe.c
// running on the compositor's socket, read line by line into the frames it saw.

/// One frame the compositor composed that changed the top of its output, as the probe saw it.
struct ScreenFrame {
    /// The compositor's timestamp of the frame (CLOCK_MONOTONIC, ms).
    var presented: Double
    /// Rows from the top of the output in the banner's colour.
    var rows: Int
}

/// The probe watching for `colour` at the top of the output, started and awaited; ended with
/// the other children of whoever started it (`child`).
final class ScreencopyProbe {
    let child: Child
    /// Every frame seen so far, in order.
    private(set) var frames: [ScreenFrame] = []
    private var ready = false

    /// `probe` (the built bench/screencopy-probe) on the compositor `environment` names, looking
    /// at the top 160 rows for `colour` (RRGGBB); returns once it has asked for its first copy.
    init(supervisor: Supervisor, probe: String, colour: String, environment: [String: String], name: String) throws {
        child = try supervisor.spawn([probe, colour, "160"], environment: environment, name: name, stdout: .pipe, stderr: .inherit)
        child.onLine = { [unowned self] line in take(line) }
        guard supervisor.wait(seconds: 10, until: { ready || !child.isRunning }), ready else {
            supervisor.stop(child)
            throw BenchFailure("\(name) did not start")
        }
    }

    private func take(_ line: String) {
        let fields = line.split(separator: " ")
        if fields.first == "ready" { ready = true }
        guard fields.count == 4, fields[0] == "frame", let presented = Double(fields[1]), let rows = Int(fields[3]) else { return }
        frames.append(ScreenFrame(presented: presented / 1_000_000, rows: rows))
    }
}
