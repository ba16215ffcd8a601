// Files and directories the monitor's notices follow with inotify — the broadcast spools,
// `/run/systemd/shutdown/scheduled`, `/run/reboot-required` — which may not exist yet: each
// path's nearest existing directory is watched (the path itself when it is a directory), and
// watched again deeper as the missing ones appear. Any change under them runs `onChange` once,
// a moment later, however many events a burst brings (a spool of 10,000 files written at once
// is read once). Nothing is polled. Start reading at `init`.

import BannerRuntime
import Glibc

package final class PathWatch {
    private let loop: EventLoop
    private let paths: [String]
    private let fd: Int32
    private var token: EventLoop.Token?
    /// The watch descriptor for each directory watched.
    private var watched: [String: Int32] = [:]
    private let settle: LoopTimer
    private let onChange: () -> Void

    /// How long a burst of events is let settle before `onChange` runs.
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
        while read(fd, &buffer, buffer.count) > 0 {}
        settle.set(after: Self.settleDelay) { [unowned self] in
            rewatch()
            onChange()
        }
    }
}
