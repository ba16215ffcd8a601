// Admin broadcasts (`window-banner broadcast`, docs/fleet.md): root writes each one as a JSON
// file in a root-owned spool, and the monitor in every graphical session (BroadcastWatcher)
// shows the ones meant for its user, now and at each later login, until they expire or go.
// Two spools: `/run/window-banner/broadcasts` (gone at the next boot) and, with `--persist`,
// `/var/lib/window-banner/broadcasts`. The reader trusts nothing it did not check: the
// directory and each file must belong to root and be writable by root alone, a file is read
// without following a link and only up to `maximumFileSize`, its name must be its id, and at
// most `maximumBroadcasts` are read; anything else is skipped with one line naming it.
// Beside the spool, what each session says of them (`BroadcastReport`, in the user's runtime
// directory) and what the user dismissed (`DismissedBroadcasts`, in their state directory).
// `WINDOW_BANNER_ROOT` puts every one of these system paths under another directory (tests,
// chroots). Start reading at `BroadcastSpool.read()`.

import BannerCore
import Glibc
import OwnerIPC

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One admin broadcast, as `broadcast set` writes it.
package struct Broadcast: Codable, Sendable, Equatable {
    /// The file format written; a reader skips a file of another.
    package static let formatVersion = 1

    package var version: Int
    /// `--id`: the file's name, and what `clear --id` names.
    package var id: String
    /// The appearance flags as written (`--title`, `--background`…), over `style`.
    package var settings: AppearanceSettings
    /// `--style NAME`: a style of the user's config file or a built-in one.
    package var style: String?
    /// `--monitor`: `primary`, `all` or a monitor's name.
    package var monitor: String
    /// `--until`/`--for`: when it ends, in seconds since 1970 (nil: until cleared).
    package var until: Double?
    /// `--users`: the users it is for (nil: everyone).
    package var users: [String]?
    /// `--groups`: the groups it is for (nil: everyone); with `users`, a member of either.
    package var groups: [String]?
    /// `--persist`: kept in the spool under /var/lib, so it survives a reboot.
    package var persist: Bool

    package init(
        id: String, settings: AppearanceSettings, style: String? = nil, monitor: String = "primary", until: Double? = nil,
        users: [String]? = nil, groups: [String]? = nil, persist: Bool = false
    ) {
        version = Self.formatVersion
        self.id = id
        self.settings = settings
        self.style = style
        self.monitor = monitor
        self.until = until
        self.users = users
        self.groups = groups
        self.persist = persist
    }

    /// The owner's `--id` of the banner: its own namespace, which no script's `show --id`
    /// takes (`isReservedID`).
    package var bannerID: String { Self.bannerIDPrefix + id }

    /// What every broadcast's banner id starts with.
    package static let bannerIDPrefix = "broadcast:"

    /// Whether a script's `--id` falls in the broadcasts' namespace.
    package static func isReservedID(_ id: String) -> Bool { id.hasPrefix(bannerIDPrefix) }

    /// A hash of its words (title and subtitle): a user who dismissed the broadcast sees it
    /// again once the admin changes them, not when only its colour changes.
    package var wordsRevision: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in (settings.title ?? "").utf8 + [0] + (settings.subtitle ?? "").utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// Whether it has ended by `now` (seconds since 1970).
    package func hasExpired(at now: Double) -> Bool { until.map { $0 <= now } ?? false }

    /// Whether it is for the user `name`, who belongs to `groupNames`.
    package func isFor(user name: String, groups groupNames: [String]) -> Bool {
        guard users != nil || groups != nil else { return true }
        return users?.contains(name) == true || groups.map { !Set($0).isDisjoint(with: groupNames) } == true
    }

    /// An id `broadcast` takes: 1 to 64 letters, digits, `.`, `_` or `-`, not starting with a dot.
    package static func isValidID(_ id: String) -> Bool {
        (1...64).contains(id.utf8.count) && !id.hasPrefix(".")
            && id.utf8.allSatisfy { $0 < 0x80 && (isalnum(Int32($0)) != 0 || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-")) }
    }
}

/// The two spools, read with every check a file written by someone else needs.
package struct BroadcastSpool: Sendable {
    /// A spool file larger than this is not a broadcast.
    package static let maximumFileSize = 64 * 1024
    /// The most broadcasts read (and `set` writes); the rest are skipped with one line.
    package static let maximumBroadcasts = 10_000

    /// `/run/window-banner/broadcasts` (under `root`).
    package let volatileDirectory: String
    /// `/var/lib/window-banner/broadcasts` (under `root`): `--persist`.
    package let persistentDirectory: String

    /// The spools under `root` ("" for the system's own).
    package init(root: String) {
        volatileDirectory = root + "/run/window-banner/broadcasts"
        persistentDirectory = root + "/var/lib/window-banner/broadcasts"
    }

    /// The spools under `WINDOW_BANNER_ROOT`, else the system's.
    package init(environment: [String: String]) {
        self.init(root: Self.root(environment))
    }

    /// `WINDOW_BANNER_ROOT` without a trailing slash, "" when unset.
    package static func root(_ environment: [String: String]) -> String {
        var root = environment["WINDOW_BANNER_ROOT"] ?? ""
        while root.hasSuffix("/") { root.removeLast() }
        return root
    }

    /// What the spools hold, and one line for each entry skipped and why.
    package struct Contents: Sendable {
        package var broadcasts: [Broadcast] = []
        package var problems: [String] = []
    }

    /// Every well-formed broadcast of both spools, by id (a persistent one wins over a volatile
    /// one of the same id), at most `maximumBroadcasts`.
    package func read() -> Contents {
        var contents = Contents()
        var seen = Set<String>()
        for directory in [persistentDirectory, volatileDirectory] {
            readDirectory(directory, into: &contents, seen: &seen)
        }
        contents.broadcasts.sort { $0.id < $1.id }
        return contents
    }

    /// The broadcast `id`, if a spool holds a well-formed one.
    package func broadcast(id: String) -> Broadcast? {
        for directory in [persistentDirectory, volatileDirectory] {
            if case .success(let broadcast) = Self.readFile(directory + "/" + id + ".json", id: id) { return broadcast }
        }
        return nil
    }

    private func readDirectory(_ path: String, into contents: inout Contents, seen: inout Set<String>) {
        if let problem = Self.untrusted(path, directory: true) {
            if problem != .missing { contents.problems.append("ignoring the spool \(path): \(problem.text)") }
            return
        }
        guard let directory = opendir(path) else { return }
        defer { closedir(directory) }
        var names: [String] = []
        var skipped = 0
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name.hasSuffix(".json"), !name.hasPrefix(".") else { continue }
            // Bounded before they are sorted: a spool of a million files costs a count, not memory.
            guard names.count < Self.maximumBroadcasts else { skipped += 1; continue }
            names.append(name)
        }
        if skipped > 0 { contents.problems.append("ignoring \(skipped) broadcasts in \(path): more than \(Self.maximumBroadcasts)") }
        for name in names.sorted() {
            let id = String(name.dropLast(5))
            guard !seen.contains(id) else { continue }
            guard contents.broadcasts.count < Self.maximumBroadcasts else {
                contents.problems.append("ignoring broadcasts after \(Self.maximumBroadcasts)")
                return
            }
            switch Self.readFile(path + "/" + name, id: id) {
            case .success(let broadcast):
                seen.insert(id)
                contents.broadcasts.append(broadcast)
            case .failure(let problem):
                contents.problems.append("ignoring the broadcast \(path)/\(name.printable): \(problem.text)")
            }
        }
    }

    /// Why a spool entry is not read.
    package enum Problem: Error, Equatable {
        case missing
        case notRoots(uid_t)
        case writableByOthers
        case notAFile
        case tooLarge(Int)
        case badID
        case unreadable(String)
        case malformed(String)

        package var text: String {
            switch self {
            case .missing: "it does not exist"
            case .notRoots(let uid): "owned by uid \(uid), not root"
            case .writableByOthers: "writable by others than root"
            case .notAFile: "not a regular file"
            case .tooLarge(let size): "\(size) bytes, more than \(BroadcastSpool.maximumFileSize)"
            case .badID: "its name is not a broadcast id"
            case .unreadable(let why): "cannot read it: \(why)"
            case .malformed(let why): "not a broadcast: \(why)"
            }
        }
    }

    /// Whether `path` is root's and no one else's to write; nil when it is.
    private static func untrusted(_ path: String, directory: Bool) -> Problem? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return errno == ENOENT ? .missing : .unreadable(String(cString: strerror(errno))) }
        guard info.st_mode & S_IFMT == (directory ? S_IFDIR : S_IFREG) else { return .notAFile }
        guard info.st_uid == 0 else { return .notRoots(info.st_uid) }
        guard info.st_mode & (S_IWGRP | S_IWOTH) == 0 else { return .writableByOthers }
        return nil
    }

    /// One spool file, every check made on the descriptor read (no link followed).
    package static func readFile(_ path: String, id: String) -> Result<Broadcast, Problem> {
        guard Broadcast.isValidID(id) else { return .failure(.badID) }
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            return .failure(errno == ENOENT ? .missing : errno == ELOOP ? .notAFile : .unreadable(String(cString: strerror(errno))))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(.unreadable(String(cString: strerror(errno)))) }
        guard info.st_mode & S_IFMT == S_IFREG else { return .failure(.notAFile) }
        guard info.st_uid == 0 else { return .failure(.notRoots(info.st_uid)) }
        guard info.st_mode & (S_IWGRP | S_IWOTH) == 0 else { return .failure(.writableByOthers) }
        guard info.st_size <= maximumFileSize else { return .failure(.tooLarge(Int(info.st_size))) }
        let bytes: [UInt8]
        do throws(SmallFile.ReadError) {
            bytes = try SmallFile.read(fd, limit: maximumFileSize)
        } catch {
            switch error {
            case .tooLarge: return .failure(.tooLarge(maximumFileSize + 1))
            case .failed(let why): return .failure(.unreadable(why))
            }
        }
        let broadcast: Broadcast
        do {
            broadcast = try JSONDecoder().decode(Broadcast.self, from: Data(bytes))
        } catch {
            return .failure(.malformed("unreadable JSON"))
        }
        guard broadcast.version == Broadcast.formatVersion else { return .failure(.malformed("format \(broadcast.version)")) }
        guard broadcast.id == id else { return .failure(.malformed("its id is '\(broadcast.id.printable)'")) }
        do throws(BannerValueError) {
            try broadcast.settings.validate()
        } catch {
            return .failure(.malformed("\(error)"))
        }
        return .success(broadcast)
    }

    /// Writes `broadcast` to its spool (made 0755, root's), replacing the file atomically, and
    /// removes it from the other spool; as root only.
    package func write(_ broadcast: Broadcast) throws(SmallFile.WriteError) {
        let directory = broadcast.persist ? persistentDirectory : volatileDirectory
        try Self.makeDirectory(directory)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(broadcast) else { throw SmallFile.WriteError("cannot encode the broadcast '\(broadcast.id)'") }
        let path = directory + "/" + broadcast.id + ".json"
        try SmallFile.write(Array(data), to: path, mode: 0o644)
        _ = unlink((broadcast.persist ? volatileDirectory : persistentDirectory) + "/" + broadcast.id + ".json")
    }

    /// The name of the ping file in the volatile spool: not a broadcast (it starts with a dot).
    package static let pingName = ".ping"

    /// Asks every session's monitor to report afresh: writes a new ping, which each one's inotify
    /// watch sees and whose nonce its next report carries (`BroadcastReport.answered`).
    package func ping() throws(SmallFile.WriteError) -> String {
        try Self.makeDirectory(volatileDirectory)
        let text = String(UInt64.random(in: 1...UInt64.max), radix: 16)
        try SmallFile.write(Array(text.utf8), to: volatileDirectory + "/" + Self.pingName, mode: 0o644)
        return text
    }

    /// The ping root wrote last, if the file is root's alone.
    package func lastPing() -> String? {
        let fd = open(volatileDirectory + "/" + Self.pingName, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == 0, info.st_mode & (S_IWGRP | S_IWOTH) == 0,
              let bytes = try? SmallFile.read(fd, limit: 32) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Removes the broadcast `id` from both spools: true when one was there.
    @discardableResult
    package func remove(id: String) -> Bool {
        var removed = false
        for directory in [persistentDirectory, volatileDirectory] where unlink(directory + "/" + id + ".json") == 0 { removed = true }
        return removed
    }

    /// `path` and the directories above it, 0755; an existing one must already be root's alone.
    package static func makeDirectory(_ path: String) throws(SmallFile.WriteError) {
        var prefix = ""
        for part in path.split(separator: "/") {
            prefix += "/" + part
            if mkdir(prefix, 0o755) != 0, errno != EEXIST {
                throw SmallFile.WriteError("cannot make \(prefix): \(String(cString: strerror(errno)))")
            }
        }
        if let problem = untrusted(path, directory: true) { throw SmallFile.WriteError("the spool \(path) is unsafe: \(problem.text)") }
    }
}

/// What one session's monitor says of the broadcasts meant for it, in
/// `$XDG_RUNTIME_DIR/window-banner/broadcasts/SESSION.json`, rewritten at each change; root's
/// `broadcast list` and `set` read it.
package struct BroadcastReport: Codable, Sendable, Equatable {
    /// A broadcast's fate in this session.
    package struct Entry: Codable, Sendable, Equatable {
        /// `shown` (on screen or queued behind another banner), `dismissed` (by the user, until
        /// its words change) or `failed` (with `reason`).
        package var state: String
        /// The words it was shown or dismissed with (`Broadcast.wordsRevision`).
        package var revision: String
        package var reason: String?

        package init(state: String, revision: String, reason: String? = nil) {
            self.state = state
            self.revision = revision
            self.reason = reason
        }
    }

    /// The monitor's process.
    package var pid: Int32
    /// The display it shows on (`:0`, `wayland-1`).
    package var display: String
    /// logind's session id, where the monitor knows it (`XDG_SESSION_ID`).
    package var session: String?
    /// The user's name.
    package var user: String
    /// Whether a locker hides the banners, as the display's owner says (nil: it cannot tell).
    package var locked: Bool?
    /// The last ping of root's (`BroadcastSpool.ping()`) this report answers.
    package var answered: String?
    /// By broadcast id.
    package var broadcasts: [String: Entry]

    package init(pid: Int32, display: String, session: String?, user: String, broadcasts: [String: Entry] = [:]) {
        self.pid = pid
        self.display = display
        self.session = session
        self.user = user
        self.broadcasts = broadcasts
    }

    /// The largest report read: a session's own file, so bounded like anything a user wrote.
    package static let maximumFileSize = 2 << 20

    /// The directory of the user's reports under `runtimeDirectory`.
    package static func directory(runtimeDirectory: String) -> String { runtimeDirectory + "/window-banner/broadcasts" }

    /// The file name for `display` (`:0` → `x11-0.json`, `wayland-1` → `wayland-wayland-1.json`).
    package static func fileName(display: String) -> String {
        let safe = String(display.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." ? $0 : "_" })
        return safe + ".json"
    }

    /// Every report under `runtimeDirectory` whose monitor still runs, read with a bound.
    package static func read(runtimeDirectory: String) -> [BroadcastReport] {
        let path = directory(runtimeDirectory: runtimeDirectory)
        guard let handle = opendir(path) else { return [] }
        defer { closedir(handle) }
        var reports: [BroadcastReport] = []
        while let entry = readdir(handle), reports.count < 64 {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name.hasSuffix(".json") else { continue }
            let fd = open(path + "/" + name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            guard fd >= 0 else { continue }
            defer { close(fd) }
            var info = stat()
            guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size <= maximumFileSize,
                  let bytes = try? SmallFile.read(fd, limit: maximumFileSize),
                  let report = try? JSONDecoder().decode(BroadcastReport.self, from: Data(bytes)),
                  report.pid > 0, kill(report.pid, 0) == 0 || errno == EPERM else { continue }
            reports.append(report)
        }
        return reports.sorted { $0.display < $1.display }
    }

    /// Writes this report for its display under `runtimeDirectory` (its directory made 0700).
    package func write(runtimeDirectory: String) throws(SmallFile.WriteError) {
        let path = Self.directory(runtimeDirectory: runtimeDirectory)
        for directory in [runtimeDirectory + "/window-banner", path] where mkdir(directory, 0o700) != 0 && errno != EEXIST {
            throw SmallFile.WriteError("cannot make \(directory): \(String(cString: strerror(errno)))")
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(self) else { throw SmallFile.WriteError("cannot encode the report") }
        try SmallFile.write(Array(data), to: path + "/" + Self.fileName(display: display), mode: 0o600)
    }

    /// Removes this display's report (the monitor is stopping).
    package func remove(runtimeDirectory: String) {
        _ = unlink(Self.directory(runtimeDirectory: runtimeDirectory) + "/" + Self.fileName(display: display))
    }
}

/// The broadcasts a user dismissed, with the words they dismissed: in
/// `$XDG_STATE_HOME/window-banner/dismissed-broadcasts.json`, so a dismissal holds across
/// logins and on every display of theirs, until the admin changes the words.
package struct DismissedBroadcasts: Sendable {
    /// The most remembered; ids no spool holds any more are forgotten first.
    package static let maximumEntries = BroadcastSpool.maximumBroadcasts

    /// The file's name in the user's state directory.
    package static let fileName = "dismissed-broadcasts.json"

    private let path: String?
    /// Revision by id.
    package private(set) var revisions: [String: String] = [:]

    /// The file under `stateDirectory` (nil: remember in memory only), read now.
    package init(stateDirectory: String?) {
        path = stateDirectory.map { $0 + "/" + Self.fileName }
        revisions = Self.load(path)
    }

    private static func load(_ path: String?) -> [String: String] {
        guard let path else { return [:] }
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return [:] }
        defer { close(fd) }
        guard let bytes = try? SmallFile.read(fd, limit: 4 << 20),
              let read = try? JSONDecoder().decode([String: String].self, from: Data(bytes)) else { return [:] }
        return Dictionary(uniqueKeysWithValues: read.filter { Broadcast.isValidID($0.key) }.prefix(maximumEntries).map { ($0.key, $0.value) })
    }

    /// Reads the file again: the user may have dismissed a broadcast in another session.
    package mutating func reload() {
        revisions = Self.load(path)
    }

    /// Whether the user dismissed `broadcast` with its current words (as last read).
    package func contains(_ broadcast: Broadcast) -> Bool {
        revisions[broadcast.id] == broadcast.wordsRevision
    }

    /// Remembers that the user dismissed `broadcast`; forgets ids not in `known`.
    package mutating func remember(_ broadcast: Broadcast, known: Set<String>) {
        revisions = Self.load(path).filter { known.contains($0.key) }
        revisions[broadcast.id] = broadcast.wordsRevision
        guard let path else { return }
        let directory = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        if mkdir(directory, 0o700) != 0, errno != EEXIST { return }
        guard let data = try? JSONEncoder().encode(revisions) else { return }
        try? SmallFile.write(Array(data), to: path, mode: 0o600)
    }
}
