// `window-banner demo`: the original's headline moment on your desktop — "No Internet
// Connection" slides in, turns into "Back Online" with an in-place cross-fade, and leaves after
// the original's 2 s hide delay. It prints each stage as it is reached so a script can follow.

import ArgumentParser
import BannerCore
import BannerX11
import Glibc

struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Show the offline → back online sequence (prints each stage on stdout).",
        discussion: "Stages printed: offline, online, dismissed."
    )

    @Option(help: ArgumentHelp("Compact style: auto (landscape monitors), always, never. Default: auto.", valueName: "auto|always|never"))
    var compact: String?

    @Option(help: ArgumentHelp("Seconds each stage stays on screen. Default: 3.", valueName: "seconds"))
    var hold: String?

    @Option(help: ArgumentHelp("X display to use. Default: $DISPLAY.", valueName: "display"))
    var display: String?

    func run() throws {
        let policy: CompactPolicy
        let holdSeconds: Double
        do {
            policy = try AppearanceOptions.compactPolicy(compact)
            holdSeconds = try hold.map { text throws(BannerValueError) in try seconds(text) } ?? 3
        } catch {
            throw fail("\(error)", code: ExitStatus.usage)
        }
        let banners = try openBannerDisplay(display)
        defer { banners.close() }
        let host = banners.primaryHost
        host.compactPolicy = policy

        // The original README's two configurations.
        try host.presentTopBanner { config in
            config.title("No Internet Connection").backgroundColor(.systemRed).textColor(.white)
        }
        banners.runUntilIdle()
        stage("offline")
        banners.loop.run(timeout: holdSeconds)

        try host.presentTopBanner { config in
            config.title("Back Online").backgroundColor(.systemTeal).textColor(.white)
        }
        banners.runUntilIdle()
        stage("online")
        banners.loop.run(timeout: holdSeconds)

        host.dismissTopBanner()
        banners.runUntilIdle()
        stage("dismissed")
    }

    private func stage(_ name: String) {
        let bytes = Array((name + "\n").utf8)
        bytes.withUnsafeBufferPointer { _ = write(1, $0.baseAddress, $0.count) }
    }
}
