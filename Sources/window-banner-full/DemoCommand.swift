// `window-banner demo`: the original's headline moment on your desktop — "No Internet
// Connection" slides in, turns into "Back Online" with an in-place cross-fade, and leaves after
// the original's 2 s hide delay. It prints each stage as it is reached so a script can follow.
// The titles are the built-in offline and online styles', in this process's language.

import ArgumentParser
import BannerConfig
import BannerCore
import BannerProcess
import BannerX11
import Glibc
import OwnerIPC
import ShowArguments
import WindowBannerClient

struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Show the offline → back online sequence (prints each stage on stdout).",
        discussion: "Stages printed: offline, mid-fade (halfway through the cross-fade), online, dismissed."
    )

    @Option(help: ArgumentHelp("Compact style: auto (landscape monitors), always, never. Default: auto.", valueName: "auto|always|never"))
    var compact: String?

    @Option(help: ArgumentHelp("Seconds each stage stays on screen. Default: 3.", valueName: "seconds"))
    var hold: String?

    @Option(name: .customLong("slow-motion"), help: ArgumentHelp("Play every animation this many times slower (for a closer look or a screenshot). Default: 1.", valueName: "factor"))
    var slowMotion: String?

    @Option(help: ArgumentHelp("X display to use. Default: $DISPLAY.", valueName: "display"))
    var display: String?

    func run() throws {
        let policy: CompactPolicy
        let holdSeconds: Double
        var factor = 1.0
        do {
            policy = try AppearanceOptions.compactPolicy(compact)
            holdSeconds = try hold.map { text throws(BannerValueError) in try seconds(text) } ?? 3
            if let slowMotion { factor = try seconds(slowMotion) }
        } catch {
            throw fail("\(error)", code: ExitStatus.usage)
        }
        guard factor >= 1, factor <= 100 else {
            throw fail("bad slow-motion factor '\(slowMotion ?? "")' (1 to 100)", code: ExitStatus.usage)
        }
        let standard = BannerTiming.standard
        let timing = BannerTiming(slideDuration: standard.slideDuration * factor, crossFadeDuration: standard.crossFadeDuration * factor)
        let banners = try openBannerDisplay(display, timing: timing)
        defer { banners.close() }
        let host = banners.primaryHost
        host.compactPolicy = policy

        // The original README's two configurations.
        try host.presentTopBanner { config in
            config.title(Self.title(ofStyle: "offline")).backgroundColor(.systemRed).textColor(.white).layoutDirection(Self.layout)
        }
        banners.runUntilIdle(timeout: 5 * factor)
        stage("offline")
        banners.loop.run(timeout: holdSeconds)

        var halfway = false
        host.onFrame = { frame in
            guard !halfway, frame.fadeProgress >= 0.5, frame.fadeProgress < 1 else { return }
            halfway = true
            stage("mid-fade")
        }
        try host.presentTopBanner { config in
            config.title(Self.title(ofStyle: "online")).backgroundColor(.systemTeal).textColor(.white).layoutDirection(Self.layout)
        }
        banners.runUntilIdle(timeout: 5 * factor)
        host.onFrame = nil
        stage("online")
        banners.loop.run(timeout: holdSeconds)

        host.dismissTopBanner()
        banners.runUntilIdle(timeout: 5 * factor)
        stage("dismissed")
    }

    /// Mirrored for a right-to-left language.
    static var layout: LayoutDirection { LayoutDirection(locale: UserLocale(environment: processEnvironment())) }

    /// The title of built-in style `name` in this process's language.
    static func title(ofStyle name: String) -> String {
        let locale = UserLocale.variables(in: processEnvironment())
        let style = try? BannerConfig.builtIn.resolve(style: name) { Translations.text($0, locale: locale) }
        return style?.appearance.title ?? ""
    }

        private func stage(_ name: String) {
        Terminal.output(name)
    }
}
