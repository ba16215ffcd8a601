import OwnerIPC
import Testing

/// Every command line `show` starts an owner with is read back by the owner's own reader, the
/// one that skips the argument parser (a session's first banner waits for it); anything else is
/// left to the parser.
@Suite struct OwnerStartLineTests {
    @Test(arguments: [
        (nil, false, OwnerStartLine.ConfigFile.none),
        ("/home/u/.config/window-banner/config.toml", true, .file("/home/u/.config/window-banner/config.toml")),
        ("/home/u/.config/window-banner/config.toml", false, .standard),
    ] as [(String?, Bool, OwnerStartLine.ConfigFile)])
    func everyLineShowWritesIsReadWithoutTheParser(configPath: String?, exists: Bool, config: OwnerStartLine.ConfigFile) throws {
        for display in [":0", ":12.0", "wayland-1", "/run/user/1000/wayland-0"] {
            let line = OwnerStartLine(display: display, configPath: configPath) { _ in exists }
            #expect(line.config == config)
            #expect(Array(line.arguments.prefix(5)) == ["daemon", "--display", display, "--ready-fd", "3"])
            let read = try #require(OwnerStartLine(reading: line.arguments))
            #expect(read == line)
        }
    }

    @Test func otherCommandLinesAreLeftToTheParser() {
        let others: [[String]] = [
            ["daemon"],
            ["daemon", "--display", ":0"],
            ["daemon", "--display", ":0", "--ready-fd", "2"],
            ["daemon", "--display", ":0", "--ready-fd", "x"],
            ["daemon", "--display", "--ready-fd", "--ready-fd", "3"],
            ["daemon", "--ready-fd", "3", "--display", ":0"],
            ["daemon", "--display", ":0", "--ready-fd", "3", "--idle-exit", "5"],
            ["daemon", "--display", ":0", "--ready-fd", "3", "--config"],
            ["daemon", "--display", ":0", "--ready-fd", "3", "--config", "--no-config"],
            ["daemon", "--display", ":0", "--ready-fd", "3", "--no-config", "--no-config"],
            ["show", "--display", ":0", "--ready-fd", "3"],
        ]
        for arguments in others {
            #expect(OwnerStartLine(reading: arguments) == nil, "\(arguments)")
        }
    }
}
