import BannerCore
import OwnerProtocol
import Testing

@Suite struct HandoverTests {
    @Test func aBannerIsDescribedAsTheShowArgumentsThatBringItBack() {
        let request = ShowRequest(
            settings: AppearanceSettings(
                title: "-5 °C outside", background: "systemRed", closeButton: "true", action: "Join=true",
                secondaryAction: "Decline", reduceMotion: "false"),
            style: "call", configPath: nil, timeout: 30, monitor: "all", id: "call", wait: true,
            onClick: ["xdg-open", "https://example.org"], directory: "/home/me", strictContrast: true, once: "welcome",
            locale: ["LANG": "de_DE.UTF-8"], keepalive: 1)
        let described = Handover.describe(request, environment: ["HOME": "/home/me", "LANG": "C"], display: ":3", mode: .transient(12.5), enqueue: true)
        #expect(described.arguments == [
            "--title", "-5 °C outside", "--background", "systemRed", "--close-button", "--action", "Join=true",
            "--action", "Decline", "--no-reduce-motion",
            "--style", "call", "--timeout", "12.5", "--monitor", "all", "--display", ":3", "--id", "call",
            "--enqueue", "--no-config", "--on-click", "--", "xdg-open", "https://example.org",
        ])
        // The locale the banner was shown in wins over the environment's.
        #expect(described.environment == ["HOME": "/home/me", "LANG": "de_DE.UTF-8"])
        #expect(described.directory == "/home/me")
    }

    @Test func aStickyBannerWithAConfigFileStaysStickyAndReadsItAgain() {
        let request = ShowRequest(settings: AppearanceSettings(title: "Call"), configPath: "/home/me/.config/window-banner/config.toml")
        let described = Handover.describe(request, environment: nil, display: ":0", mode: .sticky, enqueue: false)
        #expect(described.arguments == ["--title", "Call", "--sticky", "--monitor", "primary", "--display", ":0"])
        #expect(described.environment.isEmpty)
    }
}
