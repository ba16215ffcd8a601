// docs/desktops.md's table of tested desktops, held to the run: each row names a desktop a suite
// runs (the newest compositors', Plasma's and GNOME's suites name theirs in code) at the version that
// suite runs, read from Debian's own package database — this machine's for Debian 12, the
// chroot's for Debian 13 and unstable (where a newer version than the page's passes: unstable
// moves). So the page cannot claim a desktop or a version no test ran.

import Foundation
import Glibc
import ProcessTestSupport
import Testing
import WaylandTestSupport

@Suite("docs/desktops.md: the tested desktops", .serialized)
struct DesktopMatrixTests {
    struct Row: Hashable, CustomStringConvertible {
        let desktop: String
        let version: String
        let debian: String
        var description: String { "\(desktop) \(version) (Debian \(debian))" }
    }

    /// The Debian package of each desktop the table names.
    static let packages = [
        "sway": "sway", "labwc": "labwc", "KDE Plasma (KWin)": "kwin-wayland", "GNOME Shell": "gnome-shell", "Openbox": "openbox", "Fluxbox": "fluxbox",
        "IceWM": "icewm", "JWM": "jwm", "PekWM": "pekwm", "i3": "i3-wm", "awesome": "awesome", "bspwm": "bspwm",
        "herbstluftwm": "herbstluftwm", "xfwm4 (Xfce)": "xfwm4", "marco (MATE)": "marco", "mutter": "mutter", "muffin (Cinnamon)": "muffin",
        "Cinnamon": "cinnamon", "KDE Plasma on X11 (kwin_x11)": "kwin-x11", "xfce4-panel on labwc": "xfce4-panel",
        "lxqt-panel on labwc": "lxqt-panel", "wayfire": "wayfire",
    ]

    /// The row each X11 desktop suite's desktop has.
    static func row(_ kind: X11DesktopsTests.Desktop.Kind) -> String {
        switch kind {
        case .cinnamon: "Cinnamon"
        case .xfce: "xfwm4 (Xfce)"
        case .mate: "marco (MATE)"
        case .plasma: "KDE Plasma on X11 (kwin_x11)"
        }
    }

    /// The chroot's package set a newer Debian's `package` comes from.
    static func chrootPackages(of package: String, suite: String) -> [String] {
        switch package {
        case "gnome-shell": ["@gnome"]
        case "kwin-wayland": ["@kde"]
        case "cinnamon", "xfwm4", "marco", "kwin-x11": ["@x11desktops"]
        case "xfce4-panel", "lxqt-panel", "wayfire": LabwcPanelsTests.Setup(panel: .lxqt, suite: suite, atTop: true).packages
        default: ["@wlroots"]
        }
    }
    static let suites = ["13": "trixie", "unstable": "sid"]

    static func rows() throws -> [Row] {
        let page = try String(contentsOfFile: DebianChroot.checkout + "/docs/desktops.md", encoding: .utf8)
        guard let start = page.range(of: "| Desktop | Version | Debian |") else { throw TestFailure("docs/desktops.md has no table of tested desktops") }
        return page[start.upperBound...].split(separator: "\n").dropFirst(2).prefix { $0.hasPrefix("|") }.map { line in
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            return Row(desktop: cells[0], version: cells[1], debian: cells[2])
        }
    }

    /// The upstream part of a Debian version: no epoch, no Debian revision, no `+ds`/`+b1`.
    static func upstream(_ version: String) -> String {
        let noEpoch = version.split(separator: ":", maxSplits: 1).last.map(String.init) ?? version
        return String(noEpoch.prefix { $0 != "-" && $0 != "+" && $0 != "~" })
    }

    /// Whether dotted version `a` is at least `b`.
    static func isAtLeast(_ a: String, _ b: String) -> Bool {
        let left = a.split(separator: ".").map { Int($0) ?? 0 }, right = b.split(separator: ".").map { Int($0) ?? 0 }
        for index in 0..<max(left.count, right.count) {
            let l = index < left.count ? left[index] : 0, r = index < right.count ? right[index] : 0
            if l != r { return l > r }
        }
        return true
    }

    @Test func everyRowIsADesktopASuiteRuns() throws {
        let rows = try Self.rows()
        #expect(rows.count == Set(rows).count, "a row twice")
        for row in rows {
            #expect(Self.packages[row.desktop] != nil, "\(row): no suite runs this desktop")
            #expect(row.debian == "12" || Self.suites[row.debian] != nil, "\(row): no Debian \(row.debian) here")
        }
        // The suites that run newer Debians' desktops, as they name them.
        var newer = Set(NewestCompositorsTests.desktops.map { "\($0.compositor) \($0.suite)" })
        for setup in PlasmaTests.setups { newer.insert("KDE Plasma (KWin) \(setup.suite)") }
        for release in GnomeShellExtensionTests.releases {
            if case .debian(let suite) = release { newer.insert("GNOME Shell \(suite)") }
        }
        for desktop in X11DesktopsTests.desktops { newer.insert("\(Self.row(desktop.kind)) trixie") }
        for setup in LabwcPanelsTests.setups { newer.insert("\(setup.panel.rawValue) on labwc \(setup.suite)") }
        newer.insert("wayfire sid")
        let claimed = Set(rows.compactMap { row in Self.suites[row.debian].map { "\(row.desktop) \($0)" } })
        #expect(claimed == newer, "the page's Debian 13 and unstable rows are not what the suites run")
    }

    @Test(.needsRoot("reading the chroots' package databases")) func everyVersionIsTheOneTheSuiteRan() throws {
        for row in try Self.rows() {
            let package = try #require(Self.packages[row.desktop])
            let installed: String
            if let suite = Self.suites[row.debian] {
                let chroot = try DebianChroot.prepared(suite: suite, packages: Self.chrootPackages(of: package, suite: suite))
                installed = try Self.version(of: package, in: chroot.directory)
            } else {
                installed = try Self.version(of: package, in: "/")
            }
            if row.debian == "unstable" {
                #expect(Self.isAtLeast(Self.upstream(installed), row.version), "\(row): the suite ran \(installed)")
            } else {
                #expect(Self.upstream(installed) == row.version, "\(row): the suite ran \(installed)")
            }
        }
    }

    /// `dpkg-query`'s version of `package` in the system rooted at `root`.
    static func version(of package: String, in root: String) throws -> String {
        let query = try Subprocess(executable: "/usr/bin/dpkg-query", arguments: ["--admindir=\(root)/var/lib/dpkg", "-W", "-f=${Version}", package])
        query.closeStandardInput()
        guard query.waitForExit(timeout: 20) == 0, !query.standardOutput.isEmpty else {
            throw TestFailure("\(package) is not installed in \(root): \(query.standardError)")
        }
        return query.standardOutput
    }
}
