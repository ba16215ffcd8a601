// A newcomer on Debian 13, the current stable, with Debian's own Swift: a chroot of trixie that
// held only make and git until the checkout's `scripts/install-deps.sh --build` ran in it (the
// chroot is built that way by scripts/debian-chroot.sh's @newcomer and cached; the script's text
// is part of the key). In an overlay of it (the cache stays as it was) this checkout's files
// then go through what the README and docs/install.md tell a newcomer: install-deps again (it
// must find nothing missing, Swift included), `make deb`, `make demo` without a display, and
// `apt install ./dist/…deb`, after which the installed `window-banner` runs a banner on an X
// server. Oracles: the exit statuses, Debian's own dpkg-deb and apt, the screenshots' PNG headers.

import Foundation
import Glibc
import ProcessTestSupport
import Testing

@Suite("A newcomer on Debian 13 with Debian's Swift", .serialized, .needsRoot("building in a Debian 13 chroot"))
struct DebianNewcomerTests {
    /// What runs inside, as root, from the copy of the checkout ($1), writing logs to $2.
    static let steps = #"""
        set -u
        cd "$1"
        step() { echo "== $1"; }
        step install-deps
        more=$(scripts/install-deps.sh --build 2>&1) || { echo "install-deps failed: $more"; exit 10; }
        [ -z "$more" ] || { echo "install-deps had more to do: $more"; exit 10; }
        step swift
        swift --version 2>&1 | head -n 1
        step deb
        make deb >"$2/deb.log" 2>&1 || { tail -n 40 "$2/deb.log"; exit 11; }
        step demo
        make demo >"$2/demo.log" 2>&1 || { tail -n 40 "$2/demo.log"; exit 12; }
        step depends
        package=$(ls dist/window-banner_*_amd64.deb)
        dpkg-deb -f "$package" Depends
        step apt
        apt-get install -y -q "./$package" >"$2/apt.log" 2>&1 || { tail -n 20 "$2/apt.log"; exit 13; }
        step installed
        window-banner --version
        Xvfb -displayfd 3 -nolisten tcp 3>"$2/display" 2>/dev/null &
        server=$!
        while [ ! -s "$2/display" ] && kill -0 "$server" 2>/dev/null; do sleep 0.05; done
        DISPLAY=:$(cat "$2/display") XDG_RUNTIME_DIR="$2" window-banner run --title "Installed" -- true
        echo "run: $?"
        kill "$server"
        wait "$server" 2>/dev/null
        step done
        """#

    @Test func installDepsThenMakeDebAndDemoThenTheInstalledPackageRuns() throws {
        let chroot = try DebianChroot.prepared(suite: "trixie", packages: ["@newcomer"])
        var template = Array("/tmp/window-banner-newcomer-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw TestFailure("mkdtemp failed") }
        let directory = String(cString: made)
        defer { _ = try? Subprocess.run("/bin/rm", ["-rf", directory]) }
        let source = directory + "/source", logs = directory + "/logs"
        mkdir(logs, 0o700)
        try Self.copyCheckout(to: source)
        try Self.write(Self.steps, to: directory + "/steps.sh")

        // This machine's git configuration comes along (a mirror of GitHub named by its URL
        // rewrites, as CI machines have), with the local directories it points to.
        var environment = ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "HOME": "/root", "LANG": "C.UTF-8"]
        var binds: [String] = []
        if let config = try? String(contentsOfFile: "/etc/gitconfig", encoding: .utf8) {
            try Self.write(config, to: directory + "/gitconfig")
            environment["GIT_CONFIG_GLOBAL"] = directory + "/gitconfig"
            binds = Self.localRewrites(in: config)
        }
        let inside = chroot.command(["/bin/bash", directory + "/steps.sh", source, logs], user: nil, environment: environment,
                                    writableIn: directory + "/overlay", binding: binds)
        let run = try Subprocess(executable: inside[0], arguments: Array(inside.dropFirst()), environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"])
        run.closeStandardInput()
        let status = run.waitForExit(timeout: 2400)
        let output = run.standardOutput
        #expect(status == 0, "the newcomer's steps ended with \(status.map(String.init) ?? "a timeout"):\n\(output)\n\(run.standardError.suffix(2000))")
        let sections = Self.sections(of: output)
        #expect(sections["install-deps"] == "", "install-deps --build had more to install in the chroot it built")
        #expect(sections["swift"]?.hasPrefix("Swift version 6.0") == true, "Debian 13's swiftlang is 6.0.x: \(sections["swift"] ?? "")")
        // Debian 13's names (the 64-bit time_t transition renamed libpng's package): the
        // dependencies were computed there, not copied from a Debian 12 build.
        #expect(sections["depends"]?.contains("libpng16-16t64") == true, "Depends: \(sections["depends"] ?? "")")
        #expect(sections["installed"]?.split(separator: "\n").first == "0.2.0")
        #expect(sections["installed"]?.contains("run: 0") == true, "\(sections["installed"] ?? "")")
        for name in ["sequence", "languages", "panel", "rich"] {
            let header = FileManager.default.contents(atPath: "\(source)/screenshots/\(name).png")?.prefix(8)
            #expect(header == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), "make demo made no screenshots/\(name).png")
        }
    }

    /// Each `== NAME` line's following lines, trimmed.
    static func sections(of output: String) -> [String: String] {
        var sections: [String: String] = [:]
        var name: String?
        let lines: [Substring] = output.split(separator: "\n", omittingEmptySubsequences: false) + ["== end"]
        var body: [Substring] = []
        for line in lines {
            if line.hasPrefix("== ") {
                if let name { sections[name] = body.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines) }
                name = String(line.dropFirst(3))
                body = []
            } else {
                body.append(line)
            }
        }
        return sections
    }

    /// The files git knows in this checkout (tracked and new, not ignored: no .build), copied.
    static func copyCheckout(to destination: String) throws {
        let copy = try Subprocess(executable: "/bin/sh", arguments: [
            "-c", #"mkdir -p "$2" && cd "$1" && git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$2""#,
            "sh", DebianChroot.checkout, destination,
        ])
        copy.closeStandardInput()
        guard copy.waitForExit(timeout: 120) == 0 else { throw TestFailure("copying the checkout failed: \(copy.standardError)") }
    }

    static func write(_ text: String, to path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8)) else { throw TestFailure("cannot write \(path)") }
    }

    /// The local directories a git configuration's `[url "DIR"]` rewrites point to.
    static func localRewrites(in config: String) -> [String] {
        config.split(separator: "\n").compactMap { line -> String? in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("[url \"/"), let end = trimmed.dropFirst(6).firstIndex(of: "\"") else { return nil }
            let path = String(trimmed[trimmed.index(trimmed.startIndex, offsetBy: 6)..<end])
            return path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path
        }
    }
}
