// A newer Debian's desktop for the tests: a chroot of that suite (trixie, sid) built with
// mmdebstrap from the mirror apt uses here and cached per machine by scripts/debian-chroot.sh,
// whose programs run in it as the session's user through scripts/in-chroot.sh: a mount namespace
// of their own where /proc, /sys, /dev and this machine's /tmp are mounted into the chroot. The
// tests' directories, runtime directories and sockets live under /tmp, at the same path on both
// sides, so the project's binaries built here talk to the chroot's compositor and buses.

import Foundation
import Glibc

/// A cached chroot of one Debian suite with the packages a test needs.
public struct DebianChroot: Sendable, CustomStringConvertible {
    /// The suite's name (`trixie`, `sid`).
    public let suite: String
    /// The chroot's directory (under /var/cache/window-banner/chroots).
    public let directory: String

    public var description: String { "Debian \(suite) (\(directory))" }

    /// The chroot of `suite` holding `packages`: built on first use on this machine (about a
    /// minute per GiB, from the mirror apt uses), then reused. Needs root and mmdebstrap
    /// (scripts/install-deps.sh installs it).
    public static func prepared(suite: String, packages: [String]) throws -> DebianChroot {
        let builder = try Subprocess(executable: "/bin/sh", arguments: [script("debian-chroot.sh"), suite] + packages)
        builder.closeStandardInput()
        guard builder.waitForExit(timeout: 1800) == 0 else {
            throw TestFailure("the \(suite) chroot could not be built: \(builder.standardError.split(separator: "\n").suffix(6).joined(separator: "\n"))")
        }
        let directory = builder.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        guard access(directory + "/.complete", F_OK) == 0 else { throw TestFailure("debian-chroot.sh named \(directory), which is not a chroot") }
        return DebianChroot(suite: suite, directory: directory)
    }

    /// The command line that runs `command` inside, as `user` (when running as root), with
    /// exactly `environment` (and the test run's marker, scripts/check-leftovers.sh).
    /// With `writableIn`, the chroot is seen through an overlay whose changes go to that directory
    /// (the cache stays as it was); `binding` directories of this machine are mounted inside at
    /// the same paths.
    public func command(
        _ command: [String], user: uid_t?, environment: [String: String], writableIn changes: String? = nil, binding: [String] = []
    ) -> [String] {
        var variables = environment
        if let marker = Subprocess.runMarker, let equals = marker.firstIndex(of: "=") {
            variables[String(marker[..<equals])] = String(marker[marker.index(after: equals)...])
        }
        var line = ["/bin/sh", Self.script("in-chroot.sh")]
        if let changes { line += ["--writable", changes] }
        for path in binding { line += ["--bind", path] }
        line.append(directory)
        if let user { line += ["/usr/bin/setpriv", "--reuid=\(user)", "--regid=\(user)", "--clear-groups", "--"] }
        line += ["/usr/bin/env", "-i"]
        line += variables.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        return line + command
    }

    /// The path of one of the checkout's scripts/.
    private static func script(_ name: String) -> String {
        checkout + "/scripts/" + name
    }

    /// The checkout these tests were built from.
    public static let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
}
