// Finding the user's desktop for a command that names no display: a cron job, a systemd timer,
// an ssh command, a root service. The cheap half lives here, in the static client: an owner
// already running for this user has its socket in the runtime directory (OwnerPaths), and one
// live socket is the answer, found with a directory listing and a connect. Everything else —
// no owner, several, `--session`, `--user`, `--all-users` — is window-banner-full's, which asks
// logind over D-Bus (SessionRouting.swift there): that needs sd-bus, and libsystemd must stay
// out of this binary (it is linked statically and starts in about 2 ms).

import Glibc

package enum SessionSearch {
    /// The options that choose sessions rather than a display; every command that talks to an
    /// owner takes them (ConnectionOptions).
    package static let valueOptions: Set<String> = ["--user", "--session"]
    package static let flagOptions: Set<String> = ["--all-users"]

    /// What the client does about the display before running `arguments` (the command's own,
    /// after its name).
    package enum Decision: Equatable {
        /// A display is named, or was found and exported as DISPLAY: run the command here.
        case run
        /// Only window-banner-full can tell: hand the command line over.
        case askLogind
    }

    package static func decide(_ arguments: [String]) -> Decision {
        let scan = scan(arguments)
        if scan.choosesSessions { return .askLogind }
        if scan.display != nil || hasDisplayVariable { return .run }
        let owners = liveOwnerDisplays()
        guard owners.count == 1, let display = owners.first else { return .askLogind }
        export(display)
        return .run
    }

    /// Sets `display` as the variable its kind is named by: WAYLAND_DISPLAY for a compositor's
    /// socket, DISPLAY for an X display.
    package static func export(_ display: String) {
        setenv(OwnerPaths.isWayland(display) ? "WAYLAND_DISPLAY" : "DISPLAY", display, 1)
    }

    /// True when DISPLAY or WAYLAND_DISPLAY names a display: the caller is in its session.
    package static var hasDisplayVariable: Bool {
        ["DISPLAY", "WAYLAND_DISPLAY"].contains { environment($0).map { !$0.isEmpty } ?? false }
    }

    /// What the arguments say about where to go, read before any parser runs (up to `--`,
    /// after which everything is the command of `--on-click`).
    package struct Scan: Equatable {
        package var display: String?
        package var user: String?
        package var session: String?
        package var allUsers = false

        /// True when the command names sessions, which only logind knows.
        package var choosesSessions: Bool { user != nil || session != nil || allUsers }
    }

    package static func scan(_ arguments: [String]) -> Scan {
        var scan = Scan()
        var index = arguments.startIndex
        while index < arguments.endIndex, arguments[index] != "--" {
            let argument = arguments[index]
            var value: String?
            var name = argument
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                value = String(argument[argument.index(after: equals)...])
            } else if valueOptions.contains(argument) || argument == "--display", index + 1 < arguments.endIndex {
                index += 1
                value = arguments[index]
            }
            switch name {
            case "--display": scan.display = value
            case "--user": scan.user = value
            case "--session": scan.session = value
            case "--all-users": scan.allUsers = true
            default: break
            }
            index += 1
        }
        return scan
    }

    /// `arguments` without the session options (`--user`, `--session`, `--all-users`): the
    /// command line each chosen session runs.
    package static func withoutSessionOptions(_ arguments: [String]) -> [String] {
        var kept: [String] = []
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            if argument == "--" {
                kept += arguments[index...]
                break
            }
            let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
            if flagOptions.contains(argument) || (valueOptions.contains(name) && argument.contains("=")) {
                index += 1
            } else if valueOptions.contains(argument) {
                index += 2
            } else {
                kept.append(argument)
                index += 1
            }
        }
        return kept
    }

    /// The displays whose owner answers on its socket in this user's directory: connected to and
    /// closed at once (the owner takes a connection without a request as a peer that left).
    package static func liveOwnerDisplays() -> [String] {
        let directory = OwnerPaths.directoryPath
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var displays: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name.hasPrefix("display"), name.hasSuffix(".sock") else { continue }
            let display = String(name.dropFirst("display".count).dropLast(".sock".count))
            // A socket path's slashes are underscores in the file's name: that display cannot
            // be named again from it.
            guard !display.isEmpty, !display.hasPrefix("_"), case .success(let fd) = UnixSocket.connect(to: directory + "/" + name, timeout: 1) else { continue }
            close(fd)
            displays.append(display)
        }
        return displays.sorted()
    }
}
