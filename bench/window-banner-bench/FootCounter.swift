// A maximized foot's re-layouts, as its own program counts them: the relayouts a user's terminal
// pays for a banner, in sections 9 (sway) and 11 (GNOME Shell).

/// The file foot's program writes, and waiting on it.
struct FootCounter {
    /// The count file: the resizes so far, and the pty's size in pixels.
    let path: String
    let supervisor: Supervisor

    /// A program for foot to run: it takes each SIGWINCH (foot resizes its pty whenever the
    /// compositor gives its window a new size) with sigwait, not in a handler, so a count is never
    /// written while the last one is half written, and writes the count so far and the size in
    /// pixels, replacing the file whole so a reader never sees half of it.
    static let script = """
        import fcntl, os, signal, struct, sys, termios
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGWINCH})
        def record(count):
            rows, columns, width, height = struct.unpack('HHHH', fcntl.ioctl(0, termios.TIOCGWINSZ, b'\\0' * 8))
            with open(sys.argv[1] + '.new', 'w') as file:
                file.write(f'{count} {width} {height}\\n')
            os.rename(sys.argv[1] + '.new', sys.argv[1])
        count = 0
        record(count)
        while True:
            signal.sigwait({signal.SIGWINCH})
            count += 1
            record(count)

        """

    /// foot's resizes so far and its pty's height in pixels, or nil before its program started.
    func size() -> (resizes: Int, height: Int)? {
        guard let fields = readFile(path)?.split(whereSeparator: { $0 == " " || $0 == "\n" }), fields.count == 3,
              let count = Int(fields[0]), let height = Int(fields[2]) else { return nil }
        return (count, height)
    }

    /// Waits until foot has been given no new size for half a second (the compositor may re-lay
    /// it out a while after the change that caused it); its resizes so far.
    @discardableResult
    func settle() throws -> (resizes: Int, height: Int) {
        var seen = size()
        for _ in 0..<20 {
            supervisor.observe(seconds: 0.5)
            let now = size()
            if let now, now.resizes == seen?.resizes { return now }
            seen = now
        }
        throw BenchFailure("foot kept being resized for 10 s")
    }
}
