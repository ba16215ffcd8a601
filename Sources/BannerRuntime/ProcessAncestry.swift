// Which processes' windows a click on the call banner may raise: the capturing processes
// themselves, then their parents, nearest first. The process that records is often not the one
// with the window: a browser records in a child process, a terminal runs the recorder it shows.
// Read from /proc; a process that is gone, or a line that is not as expected, ends its chain.

import Glibc

public enum ProcessAncestry {
    /// The most generations looked at above each process.
    public static let generations = 4

    /// `pids`, then their parents, then grandparents…, each once, nearest generation first and
    /// in `pids`' order within one; never init (1), this process or one of its own ancestors
    /// (the owner's session leader is no calling app).
    public static func nearestFirst(_ pids: [Int32]) -> [Int32] {
        var excluded: Set<Int32> = [0, 1]
        var own: Int32? = getpid()
        while let pid = own, excluded.insert(pid).inserted { own = parent(of: pid) }
        var seen = excluded
        var ordered: [Int32] = []
        var generation = pids.filter { $0 > 0 }
        for _ in 0...generations {
            var next: [Int32] = []
            for pid in generation where seen.insert(pid).inserted {
                ordered.append(pid)
                if let parent = parent(of: pid) { next.append(parent) }
            }
            generation = next
        }
        return ordered
    }

    /// The parent of `pid` as /proc/PID/stat says (the field after the state, which follows the
    /// command name's closing parenthesis — the name itself may hold any character); nil when
    /// it is gone or unreadable.
    public static func parent(of pid: Int32) -> Int32? {
        guard pid > 0, let stat = read("/proc/\(pid)/stat"), let close = stat.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        let fields = stat[(close + 1)...].split(separator: UInt8(ascii: " "))
        guard fields.count > 2, let parent = Int32(String(decoding: fields[1], as: UTF8.self)), parent > 0 else { return nil }
        return parent
    }

    private static func read(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        return Array(buffer[..<count])
    }
}
