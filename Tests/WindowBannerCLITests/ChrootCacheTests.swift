// scripts/debian-chroot.sh keeps its cache from growing without end: a chroot no test has
// asked for in two days goes when any chroot is asked for, one asked for recently or being
// looked up at that moment stays. The cache is a temporary directory here, and mmdebstrap is a
// stand-in that only makes the directory it is given: what is tested is the cache, not Debian.

import Foundation
import Glibc
import ProcessTestSupport
import Testing

@Suite("The chroot cache", .needsProgram("/usr/bin/flock", package: "util-linux"))
struct ChrootCacheTests {
    static let script = String(#filePath.split(separator: "/", omittingEmptySubsequences: false).dropLast(3).joined(separator: "/"))
        + "/scripts/debian-chroot.sh"

    /// A new directory under /tmp, removed with everything in it when `body` ends.
    private func withDirectory(_ body: (String) throws -> Void) throws {
        var template = Array("/tmp/window-banner-chroots-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw TestFailure("mkdtemp failed") }
        let path = String(cString: made)
        defer { _ = try? Subprocess.run("/bin/rm", ["-rf", path]) }
        try body(path)
    }

    private func write(_ text: String, to path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8)) else { throw TestFailure("cannot write \(path)") }
    }

    @Test func chrootsUnusedForTwoDaysGoAndTheOthersStay() throws {
        try withDirectory { root in try check(cache: root + "/chroots", fakes: root) }
    }

    private func check(cache: String, fakes: String) throws {
        // mmdebstrap OPTIONS… SUITE TARGET MIRROR: the stand-in makes TARGET.
        try write("#!/bin/sh\nwhile [ $# -gt 2 ]; do shift; done\nmkdir -p \"$1\"\n", to: fakes + "/mmdebstrap")
        chmod(fakes + "/mmdebstrap", 0o755)
        try Subprocess.run("/bin/mkdir", ["-p", cache])
        for name in ["trixie-000000000old", "sid-00000000recent", "sid-0000000000busy"] {
            try Subprocess.run("/bin/mkdir", ["-p", cache + "/" + name + "/etc"])
            try write("", to: cache + "/" + name + "/.complete")
            try write("", to: cache + "/" + name + ".lock")
        }
        for name in ["trixie-000000000old", "sid-0000000000busy"] {
            try Subprocess.run("/usr/bin/touch", ["-d", "3 days ago", cache + "/" + name + ".lock"])
        }
        // Another caller is looking the busy one up: it holds its lock.
        let holder = try Subprocess(executable: "/usr/bin/flock", arguments: [cache + "/sid-0000000000busy.lock", "sleep", "600"], environment: [:])
        defer {
            holder.killGroup()
            _ = holder.waitForExit(timeout: 5)
        }
        try awaitHeld(cache + "/sid-0000000000busy.lock")

        let asked = try Subprocess(
            executable: "/bin/sh", arguments: [Self.script, "trixie", "hello"],
            environment: ["PATH": fakes + ":/usr/bin:/bin:/usr/sbin:/sbin", "WINDOW_BANNER_CHROOTS": cache])
        asked.closeStandardInput()
        #expect(asked.waitForExit(timeout: 60) == 0, "\(asked.standardError)")
        let built = asked.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(built.hasPrefix(cache + "/trixie-") && access(built + "/.complete", F_OK) == 0, "\(built)")
        #expect(access(cache + "/trixie-000000000old", F_OK) != 0, "the chroot unused for three days is still there")
        #expect(asked.standardError.contains("removing \(cache)/trixie-000000000old, unused for two days"), "\(asked.standardError)")
        #expect(access(cache + "/sid-00000000recent/.complete", F_OK) == 0, "the chroot used today went")
        #expect(access(cache + "/sid-0000000000busy/.complete", F_OK) == 0, "the chroot being looked up went")
    }

    /// Waits until another process holds the lock on `path` (flock -n fails).
    private func awaitHeld(_ path: String) throws {
        let deadline = monotonicSeconds() + 10
        while monotonicSeconds() < deadline {
            let probe = try Subprocess(executable: "/usr/bin/flock", arguments: ["-n", path, "true"], environment: [:])
            if probe.waitForExit(timeout: 5) != 0 { return }
            poll(nil, 0, 20)
        }
        throw TestFailure("the stand-in caller never took \(path)'s lock")
    }
}
