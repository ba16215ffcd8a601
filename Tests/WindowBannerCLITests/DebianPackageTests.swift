// The Debian package `make deb` writes (dist/window-banner_VERSION_ARCH.deb), read back with
// Debian's own tools the way a fresh machine meets it: its control fields and file list
// (dpkg-deb), its programs run from an extracted copy (dpkg-deb -x) on a test display, and
// lintian's verdict. `make test` builds the package before the tests run; run alone, these
// tests need `make deb` first (they never build: the build directory is locked while tests run).

import Foundation
import Glibc
import ProcessTestSupport
import Testing
import X11TestSupport

extension WindowBannerCLITests {
    @Suite("Debian package")
    struct DebianPackageTests {
        typealias Scratch = IconShapeCLITests.Scratch

        static let programs = ["window-banner", "window-banner-full", "window-banner-config"]

        /// `executable arguments…` run to completion; its standard output, or a failure naming
        /// its exit status and standard error.
        static func output(_ executable: String, _ arguments: [String], timeout: Double = 60) throws -> String {
            let process = try Subprocess(executable: executable, arguments: arguments)
            let status = process.waitForExit(timeout: timeout)
            guard status == 0 else {
                throw TestFailure("`\(process.commandLine)` exited \(status.map(String.init) ?? "late"): \(process.standardError)")
            }
            return process.standardOutput
        }

        /// What `window-banner --version` of this checkout prints, and this machine's Debian architecture.
        static func versionAndArchitecture() throws -> (version: String, architecture: String) {
            let version = try output(windowBannerExecutable(), ["--version"]).trimmingCharacters(in: .whitespacesAndNewlines)
            let architecture = try output("/usr/bin/dpkg", ["--print-architecture"]).trimmingCharacters(in: .whitespacesAndNewlines)
            return (version, architecture)
        }

        /// dist/window-banner_VERSION_ARCH.deb of this checkout.
        static func package() throws -> String {
            let (version, architecture) = try versionAndArchitecture()
            let path = TestLocales.packageRoot + "/dist/window-banner_\(version)_\(architecture).deb"
            guard access(path, R_OK) == 0 else { throw TestFailure("no \(path): run `make deb` first (`make test` does)") }
            return path
        }

        /// The package's control fields (`dpkg-deb -f`), continuation lines joined.
        static func fields(_ package: String) throws -> [String: String] {
            var fields: [String: String] = [:]
            var last: String?
            for line in try output("/usr/bin/dpkg-deb", ["-f", package]).split(separator: "\n") {
                if line.hasPrefix(" "), let key = last {
                    fields[key, default: ""] += "\n" + line.dropFirst()
                } else if let colon = line.firstIndex(of: ":") {
                    let key = String(line[..<colon])
                    fields[key] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                    last = key
                }
            }
            return fields
        }

        /// One entry of `dpkg-deb -c`: mode string, owner/group, path without the leading `.`.
        struct Entry: Equatable {
            var mode: String
            var owner: String
            var path: String
        }

        static func contents(_ package: String) throws -> [Entry] {
            try output("/usr/bin/dpkg-deb", ["-c", package]).split(separator: "\n").compactMap { line in
                let columns = line.split(separator: " ", omittingEmptySubsequences: true)
                guard columns.count >= 6 else { return nil }
                var path = String(columns[5])
                if path.hasPrefix(".") { path.removeFirst() }
                if path.count > 1, path.hasSuffix("/") { path.removeLast() }
                return Entry(mode: String(columns[0]), owner: String(columns[1]), path: path)
            }
        }

        /// The package unpacked (`dpkg-deb -x`) into a fresh directory.
        static func extract(_ package: String) throws -> Scratch {
            let root = try Scratch()
            _ = try output("/usr/bin/dpkg-deb", ["-x", package, root.path])
            return root
        }

        /// The shared libraries an ELF file asks the loader for (`readelf -d`'s NEEDED entries).
        static func neededLibraries(_ path: String) throws -> [String] {
            try output("/usr/bin/readelf", ["-d", path]).split(separator: "\n").compactMap { line in
                guard line.contains("(NEEDED)"), let open = line.lastIndex(of: "["), let close = line.lastIndex(of: "]") else { return nil }
                return String(line[line.index(after: open)..<close])
            }
        }

        @Test func controlFieldsNameThePackageAndEveryLibraryItsProgramsLink() throws {
            let deb = try Self.package()
            let fields = try Self.fields(deb)
            let (version, architecture) = try Self.versionAndArchitecture()
            #expect(fields["Package"] == "window-banner")
            #expect(fields["Version"] == version)
            #expect(fields["Architecture"] == architecture)
            #expect(fields["Installed-Size"].flatMap(Int.init).map { $0 > 0 } == true)
            let depends = try #require(fields["Depends"])
            let dependedOn = Set(depends.split(separator: ",").compactMap { $0.split(separator: " ").first.map(String.init) })
            // Computed (dpkg-shlibdeps): versions from the libraries' symbols files.
            #expect(depends.contains("libc6 (>= "), "\(depends)")

            let root = try Self.extract(deb)
            var linked: Set<String> = []
            for program in Self.programs {
                linked.formUnion(try Self.neededLibraries(root.path + "/usr/bin/" + program))
            }
            // The client is fully static; the other two link the X, text and image libraries.
            #expect(try Self.neededLibraries(root.path + "/usr/bin/window-banner").isEmpty)
            #expect(linked.isSuperset(of: ["libX11.so.6", "libXft.so.2", "libharfbuzz.so.0", "libpng16.so.16", "libc.so.6"]), "\(linked.sorted())")
            // libcurl is loaded by `monitor --connectivity http` alone (dlopen), never linked:
            // named by hand, with the version that has CURLOPT_QUICK_EXIT.
            #expect(!linked.contains("libcurl.so.4"), "\(linked.sorted())")
            #expect(depends.contains("libcurl4 (>= 7.87.0)"), "\(depends)")
            // So are sd-bus and pixman, on their first call (an X11 owner never maps them).
            #expect(linked.isDisjoint(with: ["libsystemd.so.0", "libpixman-1.so.0"]), "\(linked.sorted())")
            #expect(depends.contains("libsystemd0 (>= 241)"), "\(depends)")
            #expect(depends.contains("libpixman-1-0 (>= 0.30.0)"), "\(depends)")
            // libpipewire, for `monitor --calls` alone, is loaded too and recommended.
            #expect(!linked.contains("libpipewire-0.3.so.0"), "\(linked.sorted())")
            #expect(fields["Recommends"]?.contains("libpipewire-0.3-0") == true, "\(fields["Recommends"] ?? "")")
            // So is GIO, for GSettings on Wayland without a portal.
            #expect(!linked.contains("libgio-2.0.so.0"), "\(linked.sorted())")
            #expect(fields["Recommends"]?.contains("libglib2.0-0 (>= 2.40)") == true, "\(fields["Recommends"] ?? "")")
            // Each library comes from a package that Depends names.
            for library in linked.sorted() {
                let owners = try Self.output("/usr/bin/dpkg-query", ["-S", "*/" + library]).split(separator: "\n").compactMap { line in
                    line.split(separator: ":").first.map(String.init)
                }
                #expect(!dependedOn.isDisjoint(with: owners), "\(library) (from \(owners)) is not in Depends: \(depends)")
            }
        }

        @Test func everyPartIsWhereDebianLooksForIt() throws {
            let entries = try Self.contents(try Self.package())
            let paths = Set(entries.map(\.path))
            var expected = [
                "/usr/bin/window-banner", "/usr/bin/window-banner-full", "/usr/bin/window-banner-config",
                "/usr/share/man/man1/window-banner.1.gz", "/usr/share/man/man1/window-banner-full.1.gz",
                "/usr/share/man/man1/window-banner-config.1.gz",
                "/usr/share/bash-completion/completions/window-banner",
                "/usr/share/zsh/vendor-completions/_window-banner",
                "/usr/share/fish/vendor_completions.d/window-banner.fish",
                "/usr/lib/systemd/user/window-banner.service", "/usr/lib/systemd/user/window-banner-monitor.service",
                "/usr/lib/systemd/user/window-banner-notices.service",
                // The notices start with every session (issue 52): enabled for every user, and
                // autostarted where no graphical-session.target is.
                "/usr/lib/systemd/user/graphical-session.target.wants/window-banner-notices.service",
                "/etc/xdg/autostart/window-banner-notices.desktop",
                "/usr/lib/NetworkManager/dispatcher.d/90-window-banner",
                "/usr/share/window-banner/icons/window-banner-offline.png", "/usr/share/window-banner/icons/window-banner-online.png",
                "/usr/share/doc/window-banner/config.example.toml", "/usr/share/doc/window-banner/copyright",
                "/usr/share/doc/window-banner/changelog.gz",
                // The GNOME Shell extension, system-wide, in the variant for Debian's shell (43).
                "/usr/share/gnome-shell/extensions/window-banner@window-banner/extension.js",
                "/usr/share/gnome-shell/extensions/window-banner@window-banner/metadata.json",
            ]
            expected += TestLocales.locales.keys.map { "/usr/share/locale/\($0)/LC_MESSAGES/window-banner.mo" }
            #expect(paths.isSuperset(of: expected), "missing: \(Set(expected).subtracting(paths).sorted())")
            // The program's name until issue 33 still runs it, for units and scripts that call it.
            for old in ["/usr/bin/window-banner-x11", "/usr/share/man/man1/window-banner-x11.1.gz"] {
                #expect(entries.first { $0.path == old }?.mode.hasPrefix("l") == true, "\(old)")
            }
            // Everything under /usr but the autostart entry, owned by root, writable by root alone.
            let autostart = ["/etc", "/etc/xdg", "/etc/xdg/autostart", "/etc/xdg/autostart/window-banner-notices.desktop"]
            for entry in entries where entry.path != "/" {
                #expect(entry.path == "/usr" || entry.path.hasPrefix("/usr/") || autostart.contains(entry.path), "\(entry.path)")
                #expect(entry.owner == "root/root", "\(entry.path)")
                // (A symbolic link's own mode is always rwxrwxrwx.)
                let mode = Array(entry.mode)
                #expect(mode[0] == "l" || (mode[5] != "w" && mode[8] != "w"), "\(entry.path) \(entry.mode)")
            }
            // The programs and NetworkManager's script run; nothing else does.
            let executables = Set(entries.filter { $0.mode.hasPrefix("-") && $0.mode.contains("x") }.map(\.path))
            #expect(executables == ["/usr/bin/window-banner", "/usr/bin/window-banner-full", "/usr/bin/window-banner-config",
                                    "/usr/lib/NetworkManager/dispatcher.d/90-window-banner"])
            // The enabled unit is a link to the packaged one; the autostart entry is a conffile.
            #expect(entries.first { $0.path.hasSuffix("graphical-session.target.wants/window-banner-notices.service") }?.mode.hasPrefix("l") == true)
            let conffiles = try Self.output("/usr/bin/dpkg-deb", ["--info", try Self.package(), "conffiles"])
            #expect(conffiles == "/etc/xdg/autostart/window-banner-notices.desktop\n", "\(conffiles)")
        }

        @Test func theExtensionIsTheVariantDebiansShellLoads() throws {
            let root = try Self.extract(try Self.package())
            let directory = root.path + "/usr/share/gnome-shell/extensions/window-banner@window-banner"
            let metadata = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/metadata.json"))) as? [String: Any]
            #expect(metadata?["uuid"] as? String == "window-banner@window-banner")
            #expect((metadata?["shell-version"] as? [String])?.contains("43") == true)
            let script = try String(contentsOfFile: directory + "/extension.js", encoding: .utf8)
            #expect(script.contains("function init()") && !script.contains("import "))
        }

        @Test func theUnitsRunTheInstalledPrograms() throws {
            let root = try Self.extract(try Self.package())
            for unit in ["window-banner.service", "window-banner-monitor.service", "window-banner-notices.service"] {
                let text = try String(contentsOfFile: root.path + "/usr/lib/systemd/user/" + unit, encoding: .utf8)
                let execStart = text.split(separator: "\n").filter { $0.hasPrefix("ExecStart=") }
                #expect(execStart.count == 1 && execStart[0].hasPrefix("ExecStart=/usr/bin/window-banner "), "\(unit): \(execStart)")
                #expect(!text.contains("@BINDIR@"), "\(unit)")
            }
            let autostart = try String(contentsOfFile: root.path + "/etc/xdg/autostart/window-banner-notices.desktop", encoding: .utf8)
            #expect(autostart.split(separator: "\n").contains("Exec=/usr/bin/window-banner monitor --no-network"), "\(autostart)")
        }

        @Test func extractedProgramsShowTheBannerWithTheirOwnIconTranslationAndConfigReader() throws {
            let owner = try TranslationCLITests.makeOwner()
            let root = try Self.extract(try Self.package())
            let binary = root.path + "/usr/bin/window-banner"
            let german = ["LANG": TestLocales.lang("de")]
            try owner.writeConfig("[style.packaged]\ntitle = \"From the package\"\nbackground = \"#1c1c1e\"\n")

            // Any warning (an icon not found, a config not read) would be on stderr.
            let shown = try TranslationCLITests.run(owner, ["show", "--style", "offline", "--compact", "never"], locale: german, executable: binary)
            #expect(shown.status == 0)
            #expect(shown.error == "")
            #expect(owner.fixture.waitForBanner(height: 80))
            // The owner is the extracted window-banner-full, beside the window-banner that started it.
            let owners = owner.ownerProcesses()
            #expect(owners.count == 1)
            let executables = owners.map { pid -> String in
                var buffer = [CChar](repeating: 0, count: 4096)
                let count = readlink("/proc/\(pid)/exe", &buffer, buffer.count - 1)
                return count > 0 ? String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
            }
            #expect(executables == [root.path + "/usr/bin/window-banner-full"])
            var target = [CChar](repeating: 0, count: 256)
            let length = readlink(root.path + "/usr/bin/window-banner-x11", &target, target.count - 1)
            #expect(length > 0 && String(decoding: target[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self) == "window-banner-full")

            // The translation comes from the extracted usr/share/locale.
            let status = try TranslationCLITests.run(owner, ["status", "--json"], locale: german, executable: binary)
            #expect(status.status == 0)
            let title = try JSONDecoder().decode(StatusJSON.self, from: Data(status.output.utf8)).title
            #expect(title == TestLocales.titles["de"]?.offline)
            // The config file's own style, read by the extracted window-banner-config.
            let packaged = try TranslationCLITests.run(owner, ["show", "--style", "packaged", "--compact", "never"], locale: german, executable: binary)
            #expect(packaged.status == 0)
            #expect(packaged.error == "")
            #expect(try owner.status().title == "From the package")

            let quit = try TranslationCLITests.run(owner, ["dismiss", "--all", "--quit"], locale: [:], executable: binary)
            #expect(quit.status == 0)
            #expect(owners.allSatisfy { owner.waitForExit(of: $0) })
            #expect(owner.fixture.waitForRestoredDesktop())
        }

        @Test func lintianFindsNoErrors() throws {
            let deb = try Self.package()
            let lintian = try Subprocess(executable: "/usr/bin/lintian", arguments: ["--fail-on", "error", deb])
            let status = lintian.waitForExit(timeout: 300)
            // One line per tag: "E: window-banner: tag [where]", W: warning, I: information…
            let tags: [String] = lintian.standardOutput.split(separator: "\n").map(String.init).filter { $0.dropFirst().hasPrefix(": ") }
            #expect(status == 0, "lintian exited \(status.map(String.init) ?? "late"): \(lintian.standardOutput)\(lintian.standardError)")
            #expect(tags.filter { $0.hasPrefix("E:") }.isEmpty, "\(tags)")
        }
    }
}
