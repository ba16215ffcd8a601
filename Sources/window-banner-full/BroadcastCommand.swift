// `window-banner broadcast set|clear|list`: an administrator's banner for every graphical session
// of a machine, now and at each later login (docs/fleet.md). Root writes the broadcast to the
// spool (BannerMonitor's BroadcastSpool); the monitor that starts with every session shows it
// and says, in the user's runtime directory, what became of it (BroadcastReport), which `list`
// and `set --json` read back per session, with the sessions logind lists that no monitor
// answers for. Root only: the spool is the system's. Start reading at `BroadcastSet.run()`.

import ArgumentParser
import BannerConfig
import BannerCore
import BannerMonitor
import BannerProcess
import Glibc
import LoginSessions
import OwnerIPC
import Reactor
import ShowArguments
import WindowBannerClient

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

struct BroadcastCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "broadcast",
        abstract: "As root: a banner for every graphical session of this machine, now and at each later login.",
        discussion: """
        set writes the broadcast to the system's spool; the monitor that starts with every \
        graphical session (window-banner-notices, docs/fleet.md) shows it to each targeted user, \
        and to each who logs in later, until it expires (--until, --for) or `clear` takes it \
        away. The same id with the same content changes nothing. A user who dismisses it does not \
        see it again until its words change. Exit codes: 0 success (also unchanged); 64 bad \
        value, or not root; 73 the spool cannot be written.
        """,
        subcommands: [BroadcastSet.self, BroadcastClear.self, BroadcastList.self]
    )

    /// Refuses anyone but root with 64 and one line saying who may.
    static func requireRoot(_ what: String) throws(CommandFailure) {
        guard geteuid() == 0 else {
            throw CommandFailure("broadcast \(what) needs root: only the administrator may write the system's broadcasts (run it with sudo)", code: ExitStatus.usage)
        }
    }

    /// The spool cannot be written (EX_CANTCREAT).
    static let spoolFailure: Int32 = 73

    static func printJSON<Value: Encodable>(_ value: Value) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        if let data = try? encoder.encode(value) { Terminal.output(String(decoding: data, as: UTF8.self)) }
    }
}

/// `--check` and `--json`, which `set` and `clear` share.
struct BroadcastOutput: ParsableArguments {
    @Flag(help: "Change nothing: say whether the command would change something.")
    var check = false

    @Flag(help: "One JSON object on stdout.")
    var json = false
}

/// `broadcast set`.
struct BroadcastSet: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Show a broadcast in every targeted session, now and at later logins (root).",
        discussion: """
        Prints `broadcast ID set` or `broadcast ID unchanged` (--json: one object with \
        "changed" and each session's state: shown, dismissed, waiting, failed, pending or \
        unreached, with a reason). --for counts from when these words were first set: running \
        the same command again changes nothing.
        """
    )

    @Option(parsing: .unconditional, help: ArgumentHelp("The broadcast's id: 1 to 64 letters, digits, '.', '_' or '-'. A user's own `show --id` never touches it.", valueName: "id"))
    var id: String

    @OptionGroup var appearance: AppearanceOptions

    @Option(parsing: .unconditional, help: ArgumentHelp("A built-in style (offline, online, call, portal); the flags go on top.", valueName: "name"))
    var style: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Monitor to show on: 'primary', 'all' or a monitor's name. Default: primary.", valueName: "name"))
    var monitor: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("When it ends: HH:MM (the next such time), YYYY-MM-DD HH:MM, an ISO 8601 time, or @SECONDS since 1970. Default: until cleared.", valueName: "time"))
    var until: String?

    @Option(name: .customLong("for"), parsing: .unconditional, help: ArgumentHelp("How long it lasts: seconds, or a number with s, m, h or d (90m, 2h).", valueName: "duration"))
    var duration: String?

    @Option(parsing: .unconditionalSingleValue, help: ArgumentHelp("Only these users (comma-separated, repeatable). Default: everyone.", valueName: "names"))
    var users: [String] = []

    @Option(parsing: .unconditionalSingleValue, help: ArgumentHelp("Only members of these groups (comma-separated, repeatable); with --users, a member of either. Default: everyone.", valueName: "names"))
    var groups: [String] = []

    @Flag(help: "Keep it across a reboot (/var/lib/window-banner; else /run, gone at the next boot).")
    var persist = false

    @OptionGroup var output: BroadcastOutput

    @Option(parsing: .unconditional, help: ArgumentHelp("Seconds to wait for the sessions to show it before reporting, 0 to 60 (0: what they said last). Default: 5.", valueName: "seconds"))
    var wait: String?

    func validate() throws {
        if until != nil, duration != nil { throw ValidationError("--until cannot be combined with --for") }
    }

    func run() throws {
        do throws(CommandFailure) {
            let broadcast = try makeBroadcast(now: Double(time(nil)))
            let waitSeconds = try BroadcastTime.seconds(wait ?? "5", flag: "--wait", range: 0...60)
            try BroadcastCommand.requireRoot("set")
            let spool = BroadcastSpool(environment: processEnvironment())
            var wanted = broadcast
            let before = spool.broadcast(id: broadcast.id)
            if duration != nil, let before, !before.hasExpired(at: Double(time(nil))) {
                var same = before
                same.until = wanted.until
                if same == wanted { wanted.until = before.until }
            }
            let changed = before != wanted
            if changed, !output.check {
                do throws(SmallFile.WriteError) {
                    try spool.write(wanted)
                } catch {
                    throw CommandFailure("\(error)", code: BroadcastCommand.spoolFailure)
                }
            }
            let sessions = BroadcastSessions(spool: spool, waiting: output.check ? 0 : waitSeconds) { sessions in
                !sessions.states(of: wanted).contains { $0.state == "pending" }
            }.states(of: wanted)
            if output.json {
                BroadcastCommand.printJSON(SetResult(id: wanted.id, changed: changed, check: output.check, before: before, after: wanted, sessions: sessions))
            } else {
                Terminal.output("broadcast \(wanted.id) \(changed ? (output.check ? "would be set" : "set") : "unchanged")")
                for session in sessions { Terminal.output("  " + session.line) }
            }
        } catch {
            throw error.exit
        }
    }

    private struct SetResult: Encodable {
        var id: String
        var changed: Bool
        var check: Bool
        var before: Broadcast?
        var after: Broadcast
        var sessions: [BroadcastSessions.State]
    }

    /// The broadcast the flags describe, every value checked.
    private func makeBroadcast(now: Double) throws(CommandFailure) -> Broadcast {
        guard Broadcast.isValidID(id) else {
            throw CommandFailure("bad --id '\(id.printable)' (1 to 64 letters, digits, '.', '_' or '-', not starting with '.')", code: ExitStatus.usage)
        }
        let settings = appearance.settings
        do throws(BannerValueError) {
            try settings.validate()
        } catch {
            throw CommandFailure("\(error)", code: ExitStatus.usage)
        }
        if appearance.action.contains(where: { (try? ActionSetting(parsing: $0))?.command.isEmpty == false }) {
            throw CommandFailure("bad --action '\(appearance.action.joined(separator: " ").printable)': a broadcast's buttons run no command (LABEL alone dismisses it)", code: ExitStatus.usage)
        }
        if let style, BannerConfig.builtIn.styles[style] == nil {
            throw CommandFailure("unknown style '\(style.printable)' (a broadcast takes the built-in styles: \(BannerConfig.builtIn.styles.keys.sorted().joined(separator: ", ")))", code: ExitStatus.usage)
        }
        if let monitor, monitor.isEmpty || monitor.count > 64 {
            throw CommandFailure("bad --monitor '\(monitor.printable)' (primary, all or a monitor's name)", code: ExitStatus.usage)
        }
        let end: Double?
        if let until {
            end = try BroadcastTime.until(until, now: now)
        } else if let duration {
            end = now + (try BroadcastTime.seconds(duration, flag: "--for", range: 1...(366 * 86400)))
        } else {
            end = nil
        }
        let userNames = try Self.names(users, flag: "--users")
        let groupNames = try Self.names(groups, flag: "--groups")
        return Broadcast(
            id: id, settings: settings, style: style, monitor: monitor ?? "primary", until: end,
            users: userNames.isEmpty ? nil : userNames, groups: groupNames.isEmpty ? nil : groupNames, persist: persist)
    }

    /// Comma-separated names, each a user or group name's characters.
    private static func names(_ lists: [String], flag: String) throws(CommandFailure) -> [String] {
        var names: [String] = []
        for list in lists {
            for name in list.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
                guard (1...64).contains(name.utf8.count), !name.hasPrefix("-"),
                      name.utf8.allSatisfy({ isalnum(Int32($0)) != 0 || [UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "$")].contains($0) })
                else { throw CommandFailure("bad \(flag) '\(list.printable)' (comma-separated names)", code: ExitStatus.usage) }
                if !names.contains(name) { names.append(name) }
            }
        }
        guard names.count <= 1000 else { throw CommandFailure("bad \(flag): \(names.count) names, at most 1000", code: ExitStatus.usage) }
        return names.sorted()
    }
}

/// `broadcast clear`.
struct BroadcastClear: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clear",
        abstract: "Take a broadcast away from every session (root).",
        discussion: "Prints `broadcast ID cleared` for each, or `nothing to clear` (--json: \"changed\" and the ids)."
    )

    @Option(parsing: .unconditional, help: ArgumentHelp("The broadcast to take away.", valueName: "id"))
    var id: String?

    @Flag(help: "Every broadcast.")
    var all = false

    @OptionGroup var output: BroadcastOutput

    func validate() throws {
        if (id == nil) == !all { throw ValidationError("give --id ID or --all") }
    }

    func run() throws {
        do throws(CommandFailure) {
            if let id, !Broadcast.isValidID(id) {
                throw CommandFailure("bad --id '\(id.printable)' (1 to 64 letters, digits, '.', '_' or '-', not starting with '.')", code: ExitStatus.usage)
            }
            try BroadcastCommand.requireRoot("clear")
            let spool = BroadcastSpool(environment: processEnvironment())
            let present = all ? spool.read().broadcasts.map(\.id) : id.flatMap { spool.broadcast(id: $0) == nil ? nil : [$0] } ?? []
            if !output.check { for id in present { spool.remove(id: id) } }
            if output.json {
                BroadcastCommand.printJSON(ClearResult(changed: !present.isEmpty, check: output.check, cleared: present))
            } else if present.isEmpty {
                Terminal.output("nothing to clear")
            } else {
                for id in present { Terminal.output("broadcast \(id) \(output.check ? "would be cleared" : "cleared")") }
            }
        } catch {
            throw error.exit
        }
    }

    private struct ClearResult: Encodable {
        var changed: Bool
        var check: Bool
        var cleared: [String]
    }
}

/// `broadcast list`.
struct BroadcastList: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "The broadcasts, and what became of each in every session (root).",
        discussion: """
        One line per broadcast (id, end, who, title), then one per session: USER DISPLAY STATE \
        [(reason)]. States: shown (on screen or queued), dismissed (by the user), waiting (behind \
        16 others), failed (why), pending (the session's monitor has not shown it yet), unreached \
        (no monitor runs in that session).
        """
    )

    @Flag(help: "One JSON object on stdout.")
    var json = false

    func run() throws {
        do throws(CommandFailure) {
            try BroadcastCommand.requireRoot("list")
            let spool = BroadcastSpool(environment: processEnvironment())
            let contents = spool.read()
            for problem in contents.problems { Terminal.warning(problem) }
            let sessions = BroadcastSessions(spool: spool, waiting: 1)
            let listed = contents.broadcasts.map { Listed(broadcast: $0, revision: $0.wordsRevision, sessions: sessions.states(of: $0)) }
            if json {
                BroadcastCommand.printJSON(["broadcasts": listed])
                return
            }
            if listed.isEmpty { Terminal.output("no broadcasts") }
            for entry in listed {
                let broadcast = entry.broadcast
                let end = broadcast.until.map { "until " + BroadcastTime.text($0) } ?? "until cleared"
                let who = ((broadcast.users ?? []) + (broadcast.groups ?? []).map { "@" + $0 }).joined(separator: ",")
                Terminal.output("\(broadcast.id)  \(end)  \(who.isEmpty ? "everyone" : who)  \(broadcast.settings.title ?? "")")
                for session in entry.sessions { Terminal.output("  " + session.line) }
            }
        } catch {
            throw error.exit
        }
    }

    private struct Listed: Encodable {
        var broadcast: Broadcast
        var revision: String
        var sessions: [BroadcastSessions.State]
    }
}

/// What became of a broadcast in each graphical session: the monitors' reports, asked afresh
/// with a ping (BroadcastSpool.ping), and the sessions logind lists that no monitor reports for.
struct BroadcastSessions {
    struct State: Encodable {
        var user: String
        var uid: UInt32
        var display: String?
        var session: String?
        var state: String
        var reason: String?

        var line: String { "\(user) \(display ?? session ?? "?") \(state)\(reason.map { " (\($0))" } ?? "")" }
    }

    /// One user with graphical sessions or reports.
    private struct User {
        var uid: UInt32
        var name: String
        var groups: [String]
        var runtime: String
        var reports: [BroadcastReport]
        var sessions: [LoginSession]
    }

    private var users: [User] = []
    private let nonce: String?
    /// How long a monitor that has not answered the ping was waited for.
    private let waited: Double

    /// The sessions now, after pinging their monitors and waiting up to `waiting` seconds until
    /// each running monitor has answered and `isDone` holds; with no wait (`set --check`, which
    /// writes nothing), as they said last.
    init(spool: BroadcastSpool, waiting: Double, until isDone: (BroadcastSessions) -> Bool = { _ in true }) {
        nonce = waiting > 0 ? try? spool.ping() : nil
        waited = waiting
        let deadline = PollWait.deadline(in: waited)
        users = Self.read()
        while !PollWait.hasPassed(deadline), !(answered && isDone(self)) {
            var pause = timespec(tv_sec: 0, tv_nsec: 50_000_000)
            nanosleep(&pause, nil)
            users = Self.read()
        }
    }

    /// Whether every running monitor answered the ping.
    private var answered: Bool { nonce == nil || users.allSatisfy { $0.reports.allSatisfy { $0.answered == nonce } } }

    private static func read() -> [User] {
        var manager: LoginManager?
        var sessions: [LoginSession] = []
        if let connected = try? LoginManager(), let listed = try? connected.sessions() {
            manager = connected
            sessions = listed.filter(\.isGraphical)
        }
        var uids = Set(sessions.map(\.uid))
        if let directory = opendir("/run/user") {
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if let uid = UInt32(name) { uids.insert(uid) }
            }
            closedir(directory)
        }
        return uids.sorted().compactMap { uid in
            guard let entry = getpwuid(uid) else { return nil }
            let runtime = (try? manager?.runtimeDirectory(uid: uid)) ?? "/run/user/\(uid)"
            return User(
                uid: uid, name: String(cString: entry.pointee.pw_name), groups: UserGroups.names(of: entry.pointee), runtime: runtime,
                reports: BroadcastReport.read(runtimeDirectory: runtime), sessions: sessions.filter { $0.uid == uid })
        }
    }

    /// Each targeted session's state of `broadcast`.
    func states(of broadcast: Broadcast) -> [State] {
        var states: [State] = []
        for user in users where broadcast.isFor(user: user.name, groups: user.groups) {
            var unmatched = user.sessions
            for report in user.reports {
                let index = unmatched.firstIndex { $0.id == report.session } ?? unmatched.firstIndex { !$0.display.isEmpty && $0.display == report.display }
                    ?? unmatched.firstIndex { $0.display.isEmpty }
                let session = index.map { unmatched.remove(at: $0) }
                var state = State(user: user.name, uid: user.uid, display: report.display, session: report.session ?? session?.id, state: "pending", reason: nil)
                if let seen = report.broadcasts[broadcast.id], seen.revision == broadcast.wordsRevision || seen.state == "dismissed" {
                    state.state = seen.state
                    state.reason = seen.reason
                } else if broadcast.hasExpired(at: Double(time(nil))) {
                    state.state = "expired"
                }
                if state.state == "shown", report.locked == true {
                    state.state = "hidden"
                    state.reason = "the screen is locked: it shows once unlocked"
                }
                if let nonce, report.answered != nonce {
                    state.reason = (state.reason.map { $0 + "; " } ?? "") + "the session's monitor did not answer within \(BannerFont.format(waited)) s: as it said last"
                }
                states.append(state)
            }
            for session in unmatched {
                let bus = access(user.runtime + "/bus", F_OK) == 0
                states.append(State(
                    user: user.name, uid: user.uid, display: session.display.isEmpty ? nil : session.display, session: session.id, state: "unreached",
                    reason: bus ? "no monitor runs in this session" : "no monitor runs in this session, which has no session bus"))
            }
        }
        return states
    }
}

/// `--until` and `--for` as written.
enum BroadcastTime {
    /// Seconds, or a number with s, m, h or d, within `range`.
    static func seconds(_ text: String, flag: String, range: ClosedRange<Double>) throws(CommandFailure) -> Double {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86400]
        var number = Substring(text)
        var unit = 1.0
        if let last = text.last, let factor = units[last] {
            number = number.dropLast()
            unit = factor
        }
        guard let value = Double(number), value.isFinite, range.contains(value * unit) else {
            throw CommandFailure("bad \(flag) '\(text.printable)' (seconds, or a number with s, m, h or d; \(BannerFont.format(range.lowerBound)) s to \(BannerFont.format(range.upperBound)) s)", code: ExitStatus.usage)
        }
        return value * unit
    }

    /// `--until`: HH:MM (the next such time), YYYY-MM-DD HH:MM[:SS] or with a T, or @SECONDS;
    /// local time. In the past: refused.
    static func until(_ text: String, now: Double) throws(CommandFailure) -> Double {
        let bad = CommandFailure("bad --until '\(text.printable)' (HH:MM, YYYY-MM-DD HH:MM, an ISO 8601 time or @SECONDS, in the future)", code: ExitStatus.usage)
        if text.hasPrefix("@") {
            guard let seconds = Double(text.dropFirst()), seconds.isFinite, seconds > now else { throw bad }
            return seconds
        }
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "T" })
        var moment = time_t(now)
        var fields = tm()
        localtime_r(&moment, &fields)
        func numbers(_ part: Substring, separator: Character) -> [Int32]? {
            let pieces = part.split(separator: separator, omittingEmptySubsequences: false)
            let values = pieces.compactMap { Int32($0) }
            return values.count == pieces.count ? values : nil
        }
        let clock: Substring
        switch parts.count {
        case 1: clock = parts[0]
        case 2:
            guard let date = numbers(parts[0], separator: "-"), date.count == 3, (1...12).contains(date[1]), (1...31).contains(date[2]) else { throw bad }
            fields.tm_year = date[0] - 1900
            fields.tm_mon = date[1] - 1
            fields.tm_mday = date[2]
            clock = parts[1]
        default: throw bad
        }
        guard let hms = numbers(clock, separator: ":"), (2...3).contains(hms.count), (0...23).contains(hms[0]), (0...59).contains(hms[1]),
              hms.count == 2 || (0...60).contains(hms[2]) else { throw bad }
        fields.tm_hour = hms[0]
        fields.tm_min = hms[1]
        fields.tm_sec = hms.count == 3 ? hms[2] : 0
        fields.tm_isdst = -1
        var end = Double(mktime(&fields))
        if parts.count == 1, end <= now {
            fields.tm_mday += 1
            fields.tm_isdst = -1
            end = Double(mktime(&fields))
        }
        guard end > now else { throw bad }
        return end
    }

    /// `seconds` since 1970 as local `YYYY-MM-DD HH:MM`.
    static func text(_ seconds: Double) -> String {
        var moment = time_t(seconds)
        var fields = tm()
        localtime_r(&moment, &fields)
        var buffer = [CChar](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%d %H:%M", &fields)
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
