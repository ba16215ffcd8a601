// The system's own notices in a graphical session (`window-banner monitor`, `--no-system` turns
// them off): a shutdown, reboot or halt that logind has scheduled (`shutdown -r 18:00`), and
// Debian's and Ubuntu's `/run/reboot-required` after an update. logind sends no change signal
// for its `ScheduledShutdown` (systemd #22244), so the file it writes while one is scheduled,
// `/run/systemd/shutdown/scheduled`, is watched with inotify (PathWatch), and the property read
// again over the bus whenever it appears, changes or goes. Each notice is a banner of its own id,
// in the session's language and time format, queued behind what is on screen.
// Start reading at `refresh()`.

import BannerConfig
import BannerCore
import BannerProcess
import BannerRuntime
import Glibc
import LoginSessions
import OwnerIPC
import OwnerProtocol
import Reactor
import SDBus

package final class SystemNoticeWatcher {
    /// The `--id` of the scheduled shutdown's banner.
    package static let shutdownID = "window-banner-shutdown"
    /// The `--id` of the "restart required" banner.
    package static let rebootRequiredID = "window-banner-reboot-required"
    /// The longest list of packages in the restart banner's subtitle, in characters.
    package static let maximumPackagesText = 160

    private let loop: EventLoop
    private let banners: any WatcherBanners
    private let root: String
    private let base: ShowRequest
    private let readShutdown: () -> Result<ScheduledShutdown?, BusError>
    private let log: (String) -> Void
    private var watch: PathWatch?
    private var shownShutdown: ScheduledShutdown?
    private var shownRebootRequired: String?
    private var handles: [String: any ShownBannerHandle] = [:]
    private var stopped = false

    /// Called after a notice was shown, changed or hidden.
    package var onBannerChanged: (() -> Void)?

    /// A watcher whose files are under `root` ("" for the system's), whose banners are
    /// `base` with their words (its locale says the language), and which asks logind with
    /// `readShutdown` (an error: logind could not be asked; `askLogind` asks the system's).
    package init(
        loop: EventLoop, banners: any WatcherBanners, root: String, base: ShowRequest,
        readShutdown: @escaping () -> Result<ScheduledShutdown?, BusError>, log: @escaping (String) -> Void
    ) {
        self.loop = loop
        self.banners = banners
        self.root = root
        self.base = base
        self.readShutdown = readShutdown
        self.log = log
    }

    /// logind's scheduled shutdown, asked on the system bus.
    package static func askLogind() -> Result<ScheduledShutdown?, BusError> {
        Result { () throws(BusError) in try LoginManager().scheduledShutdown() }
    }

    private var shutdownFile: String { root + "/run/systemd/shutdown/scheduled" }
    private var rebootRequiredFile: String { root + "/run/reboot-required" }

    /// Follows the files and shows what they say now.
    package func start() {
        watch = PathWatch(paths: [root + "/run/systemd/shutdown", rebootRequiredFile], loop: loop) { [unowned self] in refresh() }
        refresh()
    }

    /// Takes the notices away.
    package func stop() {
        guard !stopped else { return }
        stopped = true
        watch = nil
        if shownShutdown != nil { hide(Self.shutdownID) }
        if shownRebootRequired != nil { hide(Self.rebootRequiredID) }
        shownShutdown = nil
        shownRebootRequired = nil
    }

    /// Reads logind and the restart marker again and brings the banners in line.
    package func refresh() {
        guard !stopped else { return }
        var shutdown: ScheduledShutdown?
        if access(shutdownFile, F_OK) == 0 || shownShutdown != nil {
            switch readShutdown() {
            case .success(let scheduled): shutdown = scheduled.flatMap { $0.type.isEmpty || $0.type.hasPrefix("dry-") || $0.microseconds == 0 ? nil : $0 }
            case .failure(let why): log("cannot ask logind for the scheduled shutdown: \(why)")
            }
        }
        if shutdown != shownShutdown {
            shownShutdown = shutdown
            if let shutdown {
                show(Self.shutdownID, title: Self.shutdownTitle(shutdown, locale: base.locale ?? [:], now: time(nil)),
                     subtitle: shutdown.wallMessage.isEmpty ? nil : String(shutdown.wallMessage.prefix(300)), colour: "systemOrange")
                log("shutdown notice shown (\(shutdown.type) at \(shutdown.microseconds / 1_000_000))")
            } else {
                hide(Self.shutdownID)
                log("shutdown notice hidden")
            }
        }
        let packages = access(rebootRequiredFile, F_OK) == 0 ? Self.packages(root + "/run/reboot-required.pkgs") : nil
        if packages != shownRebootRequired {
            shownRebootRequired = packages
            if let packages {
                show(Self.rebootRequiredID, title: Translations.text(Self.rebootRequiredTitle, locale: base.locale ?? [:]),
                     subtitle: packages.isEmpty ? nil : packages, colour: "systemBlue")
                log("restart notice shown")
            } else {
                hide(Self.rebootRequiredID)
                log("restart notice hidden")
            }
        }
    }

    /// "Restart required to finish updating": the title of `/run/reboot-required`'s banner.
    package static let rebootRequiredTitle = BannerConfig.systemNoticeWords[2]

    /// The titles of a scheduled shutdown's banner, by logind's type, each with `%s` for the time.
    package static let shutdownTitles = [
        "reboot": BannerConfig.systemNoticeWords[0], "kexec": BannerConfig.systemNoticeWords[0],
        "poweroff": BannerConfig.systemNoticeWords[1], "halt": BannerConfig.systemNoticeWords[1],
    ]

    /// "Restarting at 18:00" in the language and time format of `locale`; the weekday comes
    /// first when the time is not within the next 24 hours.
    package static func shutdownTitle(_ shutdown: ScheduledShutdown, locale: [String: String], now: time_t) -> String {
        let template = Translations.text(shutdownTitles[shutdown.type] ?? BannerConfig.systemNoticeWords[1], locale: locale)
        let when = time_t(shutdown.microseconds / 1_000_000)
        let text = LocalTime.format(when, withWeekday: when - now >= 24 * 3600 || when < now, locale: locale)
        let pieces = template.split(separator: "%s", maxSplits: 1, omittingEmptySubsequences: false)
        guard pieces.count == 2 else { return template + " " + text }
        return pieces[0] + text + pieces[1]
    }

    /// The packages `reboot-required.pkgs` names, each once, joined with ", " and bounded;
    /// "" when the file is missing or empty.
    package static func packages(_ path: String) -> String {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return "" }
        defer { close(fd) }
        guard let bytes = try? SmallFile.read(fd, limit: 64 * 1024) else { return "" }
        var names: [String] = []
        for line in String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline) {
            let name = LocalTime.trimmed(String(line)).filter { $0.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7f } }
            if !name.isEmpty, !names.contains(name) { names.append(name) }
        }
        let joined = names.joined(separator: ", ")
        return joined.count > maximumPackagesText ? String(joined.prefix(maximumPackagesText - 1)) + "…" : joined
    }

    private func show(_ id: String, title: String, subtitle: String?, colour: String) {
        var request = base
        request.id = id
        request.settings.title = title
        request.settings.subtitle = subtitle
        if request.settings.background == nil { request.settings.background = colour }
        handles[id]?.close()
        do throws(CommandFailure) {
            handles[id] = try banners.show(request) { [unowned self] in ended(id, $0) }
        } catch {
            log("cannot show the \(id) banner: \(error.message)")
        }
        onBannerChanged?()
    }

    private func hide(_ id: String) {
        handles.removeValue(forKey: id)?.close()
        do throws(CommandFailure) {
            _ = try banners.dismiss(id: id)
        } catch {
            log("cannot hide the \(id) banner: \(error.message)")
        }
        onBannerChanged?()
    }

    /// The user's ✕ hides a notice until it changes (another time, other packages).
    private func ended(_ id: String, _ reason: BannerEndReason?) {
        handles[id] = nil
        log("\(id) banner ended (\(reason.map(\.rawValue) ?? "the owner exited"))")
    }
}

/// A time in the user's time format (LC_TIME), without seconds.
enum LocalTime {
    /// `when` as the locale of `locale`'s LC_TIME writes a time of day ("18:00", "6:00 PM"),
    /// after the abbreviated weekday with `withWeekday`.
    static func format(_ when: time_t, withWeekday: Bool, locale: [String: String]) -> String {
        let name = ["LC_ALL", "LC_TIME", "LANG"].lazy.compactMap { locale[$0] }.first { !$0.isEmpty } ?? "C"
        let handle = newlocale(LC_TIME_MASK, name, nil) ?? newlocale(LC_TIME_MASK, "C", nil)
        defer { if let handle { freelocale(handle) } }
        var pattern = handle.map { String(cString: nl_langinfo_l(nl_item(T_FMT), $0)) } ?? "%H:%M"
        for (from, to) in [("%r", "%I:%M %p"), ("%T", "%H:%M"), (":%S", ""), (".%S", ""), ("%S", "")] {
            pattern = pattern.split(separator: from, omittingEmptySubsequences: false).joined(separator: to)
        }
        if trimmed(pattern).isEmpty { pattern = "%H:%M" }
        if withWeekday { pattern = "%a " + pattern }
        var moment = when
        var parts = tm()
        localtime_r(&moment, &parts)
        var buffer = [CChar](repeating: 0, count: 128)
        let count = handle.map { strftime_l(&buffer, buffer.count, pattern, &parts, $0) } ?? strftime(&buffer, buffer.count, pattern, &parts)
        return trimmed(String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    /// `text` without white space at either end.
    static func trimmed(_ text: String) -> String {
        String(text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
