// Files and directories the monitor's notices follow with inotify — the broadcast spools,
// `/run/systemd/shutdown/scheduled`, `/run/reboot-required` — which may not exist yet: each
// path's nearest existing directory is watched (the path itself when it is a directory), and
// watched again deeper as the missing ones appear. The first change runs `onChange` at once; the
// changes of the next moment run it once more at its end, however many events a burst brings
// (a spool of 10,000 files written at once is read twice, not 10,000 times). A hidden file being
// written (SmallFile's temporary, before its rename) is no change yet. Nothing is polled.
// Start reading at `init`.

import BannerRuntime
import Glibc
import Reactor

package final class PathWatch {
    private let loop: EventLoop
    private let paths: [String]
    private let fd: Int32
    private var token: EventLoop.Token?
    /// The watch descriptor for each directory watched.
    private var watched: [String: Int32] = [:]
    private let settle: LoopTimer
    /// A change came while settling: `onChange` runs again when the moment is over.
    private var changedWhileSettling = false
    private let onChange: () -> Void

    /// How long after a change further changes are gathered into one `onChange`.
    package static let settleDelay = 0.05

    /// Watches `paths` on `loop`; nil when inotify cannot be had (the reason in `failure`).
    package init?(paths: [String], loop: EventLoop, onChange: @escaping () -> Void) {
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        self.loop = loop
        self.paths = paths
        self.onChange = onChange
        settle = LoopTimer(on: loop)
        token = loop.watch(fd: fd) { [unowned self] in eventsArrived() }
        rewatch()
    }

    deinit {
        if let token { loop.cancel(token) }
        close(fd)
    }

    /// The directory watched for `path`: itself when it is a directory, else its nearest
    /// existing ancestor.
    private static func nearestDirectory(_ path: String) -> String {
        var candidate = path
        while !candidate.isEmpty {
            var info = stat()
            if stat(candidate, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { return candidate }
            guard let slash = candidate.lastIndex(of: "/") else { break }
            candidate = String(candidate[..<slash])
        }
        return "/"
    }

    private func rewatch() {
        let wanted = Set(paths.map(Self.nearestDirectory))
        for (directory, descriptor) in watched where !wanted.contains(directory) {
            inotify_rm_watch(fd, descriptor)
            watched[directory] = nil
        }
        let mask = UInt32(IN_CREATE | IN_DELETE | IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE_SELF | IN_MOVE_SELF | IN_ATTRIB)
        for directory in wanted where watched[directory] == nil {
            let descriptor = inotify_add_watch(fd, directory, mask)
            if descriptor >= 0 { watched[directory] = descriptor }
        }
    }

    private func eventsArrived() {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        var relevant = false
        while true {
            let count = read(fd, &buffer, buffer.count)
            guard count > 0 else { break }
            relevant = relevant || Self.containsChange(buffer[0..<count])
        }
        guard relevant else { return }
        guard !settle.isPending else {
            changedWhileSettling = true
            return
        }
        changed()
    }

    private func changed() {
        rewatch()
        onChange()
        settle.set(after: Self.settleDelay) { [unowned self] in
            guard changedWhileSettling else { return }
            changedWhileSettling = false
            changed()
        }
    }

    /// Whether inotify's `events` hold a change: anything but a hidden file being made or
    /// written (its rename into place, IN_MOVED_TO, is the change).
    private static func containsChange(_ events: ArraySlice<UInt8>) -> Bool {
        var offset = events.startIndex
        let header = MemoryLayout<inotify_event>.size
        while offset + header <= events.endIndex {
            let (mask, length) = events[offset..<(offset + header)].withUnsafeBytes { raw in
                (raw.loadUnaligned(fromByteOffset: MemoryLayout<inotify_event>.offset(of: \.mask) ?? 4, as: UInt32.self),
                 Int(raw.loadUnaligned(fromByteOffset: MemoryLayout<inotify_event>.offset(of: \.len) ?? 12, as: UInt32.self)))
            }
            let nameStart = offset + header
            let hidden = length > 0 && nameStart < events.endIndex && events[nameStart] == UInt8(ascii: ".")
            if !hidden || mask & UInt32(IN_MOVED_TO) != 0 { return true }
            offset = nameStart + length
        }
        return false
    }
}
