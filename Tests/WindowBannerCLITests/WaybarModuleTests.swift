// The waybar module of Resources/examples in Debian's real waybar on headless sway: a bar made of
// that module alone, its colours from the example's CSS. With no banner the module is not drawn;
// `show --style offline` colours the module's block in the bar with the `offline` class's colour
// (grim's pixels), a title full of markup and quotes shows in the `call` colour without a markup
// error, and `dismiss` empties the bar again. When waybar quits, the follower it ran goes too.

import Foundation
import Glibc
import ProcessTestSupport
import Testing
import WaylandTestSupport
import X11TestSupport

extension WaylandCLITests {
    /// The bar's own background: no banner or module colour is near it.
    static let barColour: UInt32 = 0x00FF00
    static let barHeight = 30

    /// The columns of `shot` with `colour` (±4 a channel) in the rows waybar's bar covers (found
    /// by its background at the bar's left edge, wherever the banner's layer put it).
    static func barColumns(_ shot: WaylandTestSupport.Screenshot, matching colour: UInt32) -> [Int] {
        let rows = (0..<shot.height).filter { shot.pixel(1, $0) == barColour }
        func near(_ pixel: UInt32) -> Bool {
            [16, 8, 0].allSatisfy { abs(Int(pixel >> $0 & 0xFF) - Int(colour >> $0 & 0xFF)) <= 4 }
        }
        return (0..<shot.width).filter { x in rows.contains { near(shot.pixel(x, $0)) } }
    }

    /// The value of `color` in the example CSS's rule for `selector`.
    static func exampleColour(_ selector: String) throws -> UInt32 {
        let css = try String(contentsOfFile: WindowBannerCLITests.StatusFollowTests.examples + "/waybar-window-banner.css", encoding: .utf8)
        let rule = try #require(css.range(of: selector + " {"), "no rule for \(selector)")
        let declaration = try #require(css[rule.upperBound...].range(of: "background-color: #"))
        return try #require(UInt32(css[declaration.upperBound...].prefix(6), radix: 16))
    }

    /// Screenshots until `isWanted` holds for one (20 s at most); the last one.
    @discardableResult
    static func awaitScreenshot(_ sway: TestSway, _ what: String, _ isWanted: (WaylandTestSupport.Screenshot) -> Bool) throws -> WaylandTestSupport.Screenshot {
        let giveUp = monotonicSeconds() + 20
        var last = try sway.screenshot()
        while !isWanted(last) {
            guard monotonicSeconds() < giveUp else { throw TestFailure("no screenshot with \(what) within 20 s") }
            last = try sway.screenshot()
        }
        return last
    }

    /// The `window-banner status --follow --waybar` processes started with `runtimeDirectory`.
    static func followers(in runtimeDirectory: String) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> pid_t? in
            guard let pid = pid_t(entry),
                  let command = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline"),
                  let environment = FileManager.default.contents(atPath: "/proc/\(entry)/environ") else { return nil }
            let arguments = command.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            let variables = environment.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            return arguments.last == "--waybar" && variables.contains("XDG_RUNTIME_DIR=" + runtimeDirectory) ? pid : nil
        }
    }

    /// Waits up to 10 s until `count` followers run with `runtimeDirectory`; whether they do.
    static func awaitFollowers(_ count: Int, in runtimeDirectory: String) -> Bool {
        let giveUp = monotonicSeconds() + 10
        while followers(in: runtimeDirectory).count != count {
            guard monotonicSeconds() < giveUp else { return false }
            var none = pollfd()
            _ = poll(&none, 0, 20)
        }
        return true
    }

    @Test(.needsProgram("/usr/bin/waybar", package: "waybar"), .needsProgram("/usr/bin/grim", package: "grim"))
    func theWaybarModuleColoursTheBarWithTheBannersStyle() throws {
        let session = try Session()
        let examples = WindowBannerCLITests.StatusFollowTests.examples
        // Set up as docs/status-bars.md says: both example files copied next to waybar's own
        // config, which includes the module and makes it the bar's only one, and a style.css
        // that imports the colours. waybar runs the module's exec line with the built
        // `window-banner` first on PATH, in the session of the commands below (waybar connects
        // to sway's socket by path, as the owner does).
        let home = session.runtimeDirectory + "/home"
        let directory = home + "/.config/waybar"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for file in ["waybar-window-banner.jsonc", "waybar-window-banner.css"] {
            try FileManager.default.copyItem(atPath: examples + "/" + file, toPath: directory + "/" + file)
        }
        try TestSway.write("""
            {"include": ["~/.config/waybar/waybar-window-banner.jsonc"], "modules-center": ["custom/window-banner"],
             "layer": "top", "position": "top", "height": \(Self.barHeight)}
            """, to: directory + "/config")
        try TestSway.write("""
            @import url("waybar-window-banner.css");
            * { font-family: DejaVu Sans; font-size: 12px; }
            window#waybar { background: #00FF00; }
            """, to: directory + "/style.css")
        var environment = session.environment
        environment["HOME"] = home
        environment["XDG_CONFIG_HOME"] = home + "/.config"
        let binaries = String(windowBannerExecutable().dropLast("/window-banner".count))
        environment["PATH"] = binaries + ":/usr/bin:/bin"
        let waybar = try Subprocess(executable: "/usr/bin/waybar", arguments: [], environment: environment)
        defer {
            waybar.killGroup()
            for pid in Self.followers(in: session.runtimeDirectory) { kill(pid, SIGKILL) }
        }
        try session.sway.awaitWindowRect(appID: "foot", timeout: 20) { $0.y == Self.barHeight }
        let offline = try Self.exampleColour("#custom-window-banner.offline")
        let call = try Self.exampleColour("#custom-window-banner.call")
        #expect(Self.barColumns(try session.sway.screenshot(), matching: offline).isEmpty, "the module shows something before any banner")
        #expect(Self.awaitFollowers(1, in: session.runtimeDirectory), "waybar did not run the module once")

        // The offline banner: the module's block in the bar's middle, in the offline colour,
        // wide enough for its title; the banner's own red is another colour.
        #expect(try session.run(["show", "--style", "offline"]).status == 0)
        let shown = try Self.awaitScreenshot(session.sway, "the module in the offline colour") { Self.barColumns($0, matching: offline).count > 60 }
        let block = Self.barColumns(shown, matching: offline)
        #expect((block.min() ?? 0) > 400 && (block.max() ?? 1280) < 880, "the block is not centred: \(block.min() ?? -1)…\(block.max() ?? -1)")
        #expect(Self.barColumns(shown, matching: 0xFFFFFF).contains { block.contains($0) }, "no title in the block")

        // A title of markup and quotes: waybar reads the line and Pango the text, and the
        // block takes the call colour.
        let hostile = #"<b>Anna</b> & "Tom" \ 'calling'"#
        #expect(try session.run(["show", "--style", "call", "--title", hostile]).status == 0)
        try Self.awaitScreenshot(session.sway, "the module in the call colour") {
            Self.barColumns($0, matching: call).count > 60 && Self.barColumns($0, matching: offline).isEmpty
        }

        #expect(try session.run(["dismiss"]).status == 0)
        try Self.awaitScreenshot(session.sway, "the module gone") {
            Self.barColumns($0, matching: call).isEmpty && Self.barColumns($0, matching: offline).isEmpty
        }
        #expect(waybar.waitForExit(timeout: 0.1) == nil, "waybar ended: \(waybar.standardError)")

        // waybar quits: its module's follower ends with it.
        waybar.signal(SIGTERM)
        #expect(waybar.waitForExit(timeout: 10) != nil)
        #expect(Self.awaitFollowers(0, in: session.runtimeDirectory), "the follower outlived waybar")
        #expect(!waybar.standardError.contains("markup"), "waybar: \(waybar.standardError)")
    }
}
