// KDE Plasma 6 on Wayland, as Debian 13 and Debian unstable ship it: KWin and plasmashell with
// its panel, from chroots of those suites (scripts/debian-chroot.sh's @kde, cached). With the
// panel at the bottom (Plasma's default) and moved to the top, the banner takes exactly its
// height from a maximized foot, under the panel, and gives it back.
// Oracle: KWin's own scripting API — its maximize area and the windows' frame geometries.

import Foundation
import Glibc
import ProcessTestSupport
import Testing
import WaylandTestSupport
import X11TestSupport

@Suite("KDE Plasma 6", .serialized, .needsRoot("running a newer Debian's KDE Plasma from a chroot"))
struct PlasmaTests {
    struct Setup: Sendable, CustomTestStringConvertible {
        let suite: String
        let panelAtTop: Bool
        var testDescription: String {
            "Plasma from Debian \(suite == "trixie" ? "13" : "unstable"), its panel at the \(panelAtTop ? "top" : "bottom")"
        }
    }

    static let setups = ["trixie", "sid"].flatMap { suite in [false, true].map { Setup(suite: suite, panelAtTop: $0) } }
    static let show = ["show", "--title", "Call in progress", "--background", "#cc3311", "--height", "40", "--compact", "never"]

    /// Plasma, a maximized foot, and a script's environment there.
    final class Session {
        let plasma: TestPlasma
        let foot: ResizeCountingTerminal
        let runtimeDirectory: String
        let environment: [String: String]
        /// KWin's maximize area and foot's frame before any banner.
        let area: SwayRect
        let frame: SwayRect

        init(_ setup: Setup) throws {
            plasma = try TestPlasma(from: try DebianChroot.prepared(suite: setup.suite, packages: ["@kde"]), panelAtTop: setup.panelAtTop)
            foot = try plasma.startMaximizedFoot()
            // The panel may still be settling its size as Plasma starts: the area and foot's
            // frame are taken once foot fills the area and the area has held for half a second.
            let deadline = monotonicSeconds() + 60
            var settled: (area: SwayRect, frame: SwayRect)?
            var previous: SwayRect?
            while settled == nil {
                let area = try plasma.maximizeArea()
                if let frame = try plasma.frameGeometry(appID: "foot"), area == previous, frame.y == area.y, frame.height == area.height {
                    settled = (area, frame)
                    break
                }
                guard monotonicSeconds() < deadline else {
                    throw TestFailure("foot never settled into KWin's maximize area \(area)\n\(plasma.logs)")
                }
                previous = area
                poll(nil, 0, 500)
            }
            guard let settled else { throw TestFailure("unreachable") }
            area = settled.area
            frame = settled.frame
            var template = Array("/tmp/wb-plasma-XXXXXX".utf8CString)
            guard let made = mkdtemp(&template) else { throw TestFailure("mkdtemp failed") }
            runtimeDirectory = String(cString: made)
            environment = [
                "PATH": "/usr/bin:/bin", "HOME": runtimeDirectory, "XDG_RUNTIME_DIR": runtimeDirectory,
                "XDG_CONFIG_HOME": runtimeDirectory + "/config", "XDG_STATE_HOME": runtimeDirectory + "/state",
                "WAYLAND_DISPLAY": plasma.socketPath,
            ]
        }

        deinit {
            _ = try? run(["dismiss", "--all", "--quit"])
            _ = try? Subprocess.run("/bin/rm", ["-rf", runtimeDirectory])
        }

        func run(_ arguments: [String]) throws -> (status: Int32?, error: String) {
            let process = try Subprocess(executable: windowBannerExecutable(), arguments: arguments, environment: environment)
            process.closeStandardInput()
            return (process.waitForExit(timeout: 20), process.standardError)
        }

        /// Waits until foot's frame (KWin's view) is one `isWanted` accepts.
        static func await(_ plasma: TestPlasma, timeout: Double = 30, _ isWanted: (SwayRect) -> Bool) throws -> SwayRect {
            let deadline = monotonicSeconds() + timeout
            var last: SwayRect?
            repeat {
                last = try plasma.frameGeometry(appID: "foot")
                if let last, isWanted(last) { return last }
                poll(nil, 0, 100)
            } while monotonicSeconds() < deadline
            throw TestFailure("foot's frame is \(last.map(String.init(describing:)) ?? "nowhere") after \(timeout) s\n\(plasma.logs)")
        }
    }

    @Test(arguments: Self.setups) func theBannerTakesExactlyItsHeightUnderThePanelAndGivesItBack(setup: Setup) throws {
        let session = try Session(setup)
        let before = session.area
        #expect(try session.run(Self.show).status == 0)
        let reserved = SwayRect(x: before.x, y: before.y + 40, width: before.width, height: before.height - 40)
        #expect(try session.plasma.awaitMaximizeArea { $0 == reserved } == reserved)
        let moved = try Session.await(session.plasma) { $0.y == reserved.y }
        #expect(moved == SwayRect(x: session.frame.x, y: reserved.y, width: session.frame.width, height: session.frame.height - 40))
        #expect(try session.run(["dismiss"]).status == 0)
        #expect(try session.plasma.awaitMaximizeArea { $0 == before } == before)
        #expect(try Session.await(session.plasma) { $0 == session.frame } == session.frame)
    }
}
