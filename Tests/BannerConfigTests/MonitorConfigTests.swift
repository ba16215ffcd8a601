// `[monitor]`: the connectivity keys of `window-banner monitor`, each checked when the file is
// read and named with its line when wrong.

import BannerConfig
import BannerCore
import ConfigTOML
import Testing

@Suite struct MonitorConfigTests {
    @Test func everyKeyIsRead() throws {
        let config = try BannerConfig.parse("""
            [monitor]
            connectivity = "http"
            check-url = "http://10.1.0.1:8080/check"
            check-expect = "NetworkManager is online"
            check-interval = 60
            check-timeout = 2.5
            """, file: "config.toml")
        #expect(config.monitor == MonitorSettings(
            connectivity: .http, checkURL: "http://10.1.0.1:8080/check", checkExpect: "NetworkManager is online",
            checkInterval: 60, checkTimeout: 2.5))
    }

    @Test func noTableIsNoSettings() throws {
        #expect(try BannerConfig.parse("[daemon]\nidle-exit = 5\n", file: "config.toml").monitor == nil)
        #expect(BannerConfig.builtIn.monitor == nil)
    }

    @Test(arguments: [
        ("connectivity = \"sometimes\"", "config.toml:2: monitor.connectivity: bad connectivity source 'sometimes' (auto, networkmanager, http or routes)"),
        ("check-url = \"gopher://portal/\"", "config.toml:2: monitor.check-url: bad check URL 'gopher://portal/' (http:// or https://HOST[:PORT][/PATH])"),
        ("check-interval = 0", "config.toml:2: monitor.check-interval: bad check interval '0' (seconds, 1 to 604800)"),
        ("check-timeout = 1e10", "config.toml:2: monitor.check-timeout: bad check timeout '10000000000.0' (seconds, 0.1 to 300)"),
        ("check-timeout = 301", "config.toml:2: monitor.check-timeout: bad check timeout '301' (seconds, 0.1 to 300)"),
        ("check-timeout = \"soon\"", "config.toml:2: monitor.check-timeout: expected a number, found a string"),
        ("interval = 5", "config.toml:2: monitor.interval: unknown key (expected one of: calls, calls-hide-delay, calls-ignore, check-expect, check-interval, check-timeout, check-url, connectivity, sharing, sharing-ignore)"),
    ])
    func aBadKeyIsNamedWithItsLine(line: String, message: String) {
        var error: ConfigError?
        do {
            _ = try BannerConfig.parse("[monitor]\n\(line)\n", file: "config.toml")
        } catch let thrown {
            error = thrown
        }
        #expect(error?.description == message)
    }

    @Test func theExampleFileHasThePortalStyle() throws {
        let config = try BannerConfig.read(path: ConfigLayerTests.examplePath)
        #expect(config.styles["portal"] == BannerConfig.builtIn.styles["portal"])
    }
}
