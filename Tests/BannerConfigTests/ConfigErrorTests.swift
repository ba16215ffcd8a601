// Every mistake in a config file is one line naming the file, the line and the dotted key.

import BannerConfig
import ConfigTOML
import BannerCore
import Testing

/// The error parsing `text` as `config.toml` gives, or nil when it parses.
private func parseError(_ text: String) -> ConfigError? {
    do {
        _ = try BannerConfig.parse(text, file: "config.toml")
        return nil
    } catch {
        return error
    }
}

/// The error loading `path` gives, or nil when it loads.
private func loadError(_ path: String) -> ConfigError? {
    do {
        _ = try BannerConfig.read(path: path)
        return nil
    } catch {
        return error
    }
}

@Suite struct ConfigErrorTests {
    @Test func syntaxErrorGivesTheParsersLineAndColumn() throws {
        let error = try #require(parseError("""
            [defaults]
            height = 80
            background = "systemRed
            """))
        #expect(error.kind == .syntax)
        #expect(error.line == 3)
        #expect(error.column != nil)
        #expect(error.description.hasPrefix("config.toml:3:\(error.column ?? 0): "))
        #expect(!error.description.contains("\n"))
    }

    @Test func duplicateKeyIsASyntaxErrorAtItsSecondLine() throws {
        let error = try #require(parseError("[defaults]\nheight = 80\nheight = 90\n"))
        #expect(error.kind == .syntax)
        #expect(error.line == 3)
    }

    @Test func unknownTableIsAnErrorAtItsHeader() {
        let error = parseError("""
            [defaults]
            height = 80

            [styles.offline]
            title = "Offline"
            """)
        #expect(error?.kind == .unknownKey)
        #expect(error?.description == "config.toml:4: styles: unknown table (expected [defaults], [daemon], [monitor] or [style.NAME])")
    }

    @Test func topLevelAppearanceKeyIsAnError() {
        #expect(parseError("\nbackground = \"systemRed\"\n")?.description
            == "config.toml:2: background: unknown key (expected [defaults], [daemon], [monitor] or [style.NAME])")
    }

    @Test func unknownKeyInAStyleListsTheKnownKeys() {
        let error = parseError("""
            [style.offline]
            title = "Offline"
            colour = "systemRed"
            """)
        #expect(error?.kind == .unknownKey)
        #expect(error?.description == "config.toml:3: style.offline.colour: unknown key (expected one of: "
            + "background, close-button, compact, corner-radius, direction, font, fullscreen, height, icon, placement, politeness, private, reduce-motion, subtitle, subtitle-font, text-color, timeout, title, title-top-inset)")
    }

    @Test func timeoutIsNotADefaultsKey() {
        #expect(parseError("[defaults]\ntimeout = 3\n")?.description == "config.toml:2: defaults.timeout: unknown key "
            + "(expected one of: background, close-button, compact, corner-radius, direction, font, fullscreen, height, icon, placement, politeness, reduce-motion, subtitle, subtitle-font, text-color, title, title-top-inset)")
    }

    @Test func cornerRadiusMustBeANumberInRange() {
        #expect(parseError("[defaults]\ncorner-radius = \"12\"\n")?.description
            == "config.toml:2: defaults.corner-radius: expected a number, found a string")
        #expect(parseError("[style.round]\ncorner-radius = -4\n")?.description
            == "config.toml:2: style.round.corner-radius: bad corner radius '-4' (points, 0 to 1000; over half the banner's height draws as half)")
    }

    @Test func politenessIsAssertiveOrPolite() {
        #expect(parseError("[style.build]\npoliteness = \"loud\"\n")?.description
            == "config.toml:2: style.build.politeness: bad politeness 'loud' (assertive or polite)")
        #expect(parseError("[defaults]\npoliteness = true\n")?.description == "config.toml:2: defaults.politeness: expected a string, found a boolean")
        #expect(parseError("[defaults]\npoliteness = \"Polite\"\n") == nil)
    }

    @Test func iconMustBeAStringNamingSomething() {
        #expect(parseError("[defaults]\nicon = 3\n")?.description == "config.toml:2: defaults.icon: expected a string, found an integer")
        #expect(parseError("[defaults]\nicon = \"\"\n")?.description
            == "config.toml:2: defaults.icon: bad icon '' (a PNG file, an icon theme name, or none)")
    }

    @Test func closeButtonMustBeABoolean() {
        #expect(parseError("[defaults]\nclose-button = \"yes\"\n")?.description
            == "config.toml:2: defaults.close-button: expected true or false, found a string")
    }

    @Test func actionAndProgressBelongToOneMessageNotToAStyle() {
        #expect(parseError("[style.upload]\nprogress = 0.5\n")?.kind == .unknownKey)
        #expect(parseError("[defaults]\naction = \"Undo=git stash pop\"\n")?.kind == .unknownKey)
    }

    @Test func unknownDaemonKeyIsAnError() {
        #expect(parseError("[daemon]\nidle_exit = 5\n")?.description
            == "config.toml:2: daemon.idle_exit: unknown key (expected idle-exit)")
    }

    @Test func wrongValueTypesAreErrors() {
        #expect(parseError("[defaults]\nheight = \"tall\"\n")?.description
            == "config.toml:2: defaults.height: expected a number, found a string")
        #expect(parseError("[style.call]\n\nbackground = 5\n")?.description
            == "config.toml:3: style.call.background: expected a string, found an integer")
        #expect(parseError("[defaults]\ncompact = true\n")?.description
            == "config.toml:2: defaults.compact: expected a string, found a boolean")
        #expect(parseError("[style]\noffline = \"red\"\n")?.description
            == "config.toml:2: style.offline: expected a table, found a string")
        #expect(parseError("defaults = [1, 2]\n")?.description
            == "config.toml:1: defaults: expected a table, found an array")
        #expect(parseError("[[style]]\ntitle = \"x\"\n")?.description
            == "config.toml:1: style: expected a table, found an array")
        #expect(parseError("[defaults]\nheight = \"tall\"\n")?.kind == .wrongType)
    }

    @Test func badAppearanceValuesAreErrorsWithBannerCoresMessage() {
        let colour = parseError("""
            # A comment
            [style.offline]
            title = "Offline"
            background = "#zz"
            """)
        #expect(colour?.kind == .badValue)
        #expect(colour?.description == "config.toml:4: style.offline.background: \(BannerValueError.colour("#zz"))")
        #expect(parseError("[defaults]\nheight = -3\n")?.description
            == "config.toml:2: defaults.height: \(BannerValueError.height("-3"))")
        #expect(parseError("[defaults]\ntitle-top-inset = 2000.5\n")?.description
            == "config.toml:2: defaults.title-top-inset: \(BannerValueError.inset("2000.5"))")
        #expect(parseError("[defaults]\ncompact = \"sometimes\"\n")?.description
            == "config.toml:2: defaults.compact: \(BannerValueError.compactPolicy("sometimes"))")
        #expect(parseError("[defaults]\nplacement = \"middle\"\n")?.description
            == "config.toml:2: defaults.placement: bad placement 'middle' (below-panels or screen-edge)")
        #expect(parseError("[style.call]\nfullscreen = \"later\"\n")?.description
            == "config.toml:2: style.call.fullscreen: bad fullscreen policy 'later' (show or delay)")
        #expect(parseError("[style.call]\ndirection = \"up\"\n")?.description
            == "config.toml:2: style.call.direction: bad direction 'up' (auto, ltr or rtl)")
        #expect(parseError("[defaults]\nheight = nan\n")?.description
            == "config.toml:2: defaults.height: \(BannerValueError.height("nan"))")
    }

    @Test func badTimeoutsAreErrors() {
        #expect(parseError("[style.x]\ntimeout = 0\n")?.description
            == "config.toml:2: style.x.timeout: \(BannerValueError.duration("0"))")
        #expect(parseError("[style.x]\ntimeout = -1.5\n")?.description
            == "config.toml:2: style.x.timeout: \(BannerValueError.duration("-1.5"))")
        #expect(parseError("[style.x]\ntimeout = inf\n")?.description
            == "config.toml:2: style.x.timeout: \(BannerValueError.duration("inf"))")
        #expect(parseError("[style.x]\ntimeout = \"2s\"\n")?.description
            == "config.toml:2: style.x.timeout: expected a number, found a string")
    }

    @Test func badIdleExitsAreErrors() {
        #expect(parseError("[daemon]\nidle-exit = -1\n")?.description
            == "config.toml:2: daemon.idle-exit: bad idle-exit '-1' (seconds, 0 or more; 0 never exits)")
        #expect(parseError("[daemon]\nidle-exit = \"1m\"\n")?.description
            == "config.toml:2: daemon.idle-exit: expected a number, found a string")
    }

    @Test func firstMistakeInTheFileIsReported() {
        // Alphabetically `background` comes first; in the file `height` does.
        #expect(parseError("[defaults]\nheight = -3\nbackground = \"#zz\"\n")?.key == "defaults.height")
        #expect(parseError("[style.b]\nheight = -3\n[style.a]\nheight = -4\n")?.key == "style.b.height")
    }

    @Test func dottedKeysAreFoundOnTheirLines() {
        #expect(parseError("\n\nstyle.offline.background = \"#zz\"\n")?.description
            == "config.toml:3: style.offline.background: \(BannerValueError.colour("#zz"))")
        #expect(parseError("[style]\noffline.title = \"x\"\noffline . height = -3\n")?.description
            == "config.toml:3: style.offline.height: \(BannerValueError.height("-3"))")
    }

    @Test func quotedKeysAreFoundOnTheirLinesAndQuotedInTheMessage() {
        #expect(parseError("[style.\"my style\"]\ntitle = \"x\"\n\"background\" = \"#zz\"\n")?.description
            == "config.toml:3: style.\"my style\".background: \(BannerValueError.colour("#zz"))")
        #expect(parseError("[style.'caf\\u00e9']\n'height' = -3\n")?.description
            == "config.toml:2: style.\"caf\\\\u00e9\".height: \(BannerValueError.height("-3"))")
        #expect(parseError("[style.\"caf\\u00e9\"]\n\n\"he\\u0069ght\" = -3\n")?.description
            == "config.toml:3: style.\"café\".height: \(BannerValueError.height("-3"))")
    }

    @Test func inlineTableKeysAreFoundOnTheirLines() {
        #expect(parseError("[style]\n\ncall = { title = \"x\", background = \"#zz\" }\n")?.description
            == "config.toml:3: style.call.background: \(BannerValueError.colour("#zz"))")
    }

    @Test func keyLookalikesInsideStringsAndArraysDoNotMoveLines() {
        let error = parseError("""
            [style.a]
            title = \"\"\"
            [style.b]
            height = 5
            \"\"\"
            font = 'x' # height = 1
            [style.b]
            height = -3
            """)
        #expect(error?.description == "config.toml:8: style.b.height: \(BannerValueError.height("-3"))")
    }

    @Test func windowsLineEndingsCountLinesTheSame() {
        #expect(parseError("# comment\r\n[defaults]\r\nheight = -3\r\n")?.line == 3)
    }

    @Test func invalidUTF8IsAnErrorAtItsLineNotACrash() {
        var directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.write("config.toml", Array("[defaults]\ntitle = \"ab".utf8) + [0xFF] + Array("\"\n".utf8))
        let error = loadError(path)
        #expect(error?.kind == .syntax)
        #expect(error?.description == "\(path):2:12: not valid UTF-8")
    }

    @Test func nulByteIsAnErrorAtItsLine() {
        #expect(parseError("[defaults]\ntitle = \"a\0b\"\n")?.description == "config.toml:2:11: NUL byte")
    }

    @Test func directoryIsAnErrorNamingIt() {
        var directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.makeDirectory("config.toml")
        #expect(loadError(path)?.description == "\(path): cannot read: is a directory")
        #expect(loadError(path)?.kind == .unreadable)
    }

    @Test func fifoIsRefusedWithoutBlocking() {
        var directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.makeFIFO("config.toml")
        #expect(loadError(path)?.description == "\(path): cannot read: not a regular file")
    }

    @Test func fileOverOneMebibyteIsRefused() {
        var directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.write("config.toml", [UInt8](repeating: UInt8(ascii: "#"), count: BannerConfig.maximumFileSize + 1))
        #expect(loadError(path)?.description == "\(path): cannot read: larger than 1 MiB; not a config file")
    }

    @Test func errorsInALoadedFileNameItsPath() {
        var directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.write("config.toml", "[defaults]\nheight = -3\n")
        #expect(loadError(path)?.description == "\(path):2: defaults.height: \(BannerValueError.height("-3"))")
    }

    @Test func unknownStyleListsTheKnownNamesSorted() throws {
        do {
            _ = try BannerConfig.builtIn.resolve(style: "ofline")
            Issue.record("resolved an unknown style")
        } catch {
            #expect(error.isUnknownStyle)
            #expect(error.description == "unknown style 'ofline' (known: call, offline, online, portal, sharing)")
        }
        let config = try BannerConfig.parse("[style.meeting]\ntitle = \"In a meeting\"\n", file: "config.toml")
        do {
            _ = try config.resolve(style: "party")
            Issue.record("resolved an unknown style")
        } catch {
            #expect(error.isUnknownStyle)
            #expect(error.description == "config.toml: unknown style 'party' (known: call, meeting, offline, online, portal, sharing)")
        }
    }

    /// TOMLKit's bundled toml++ asserted on these in debug builds and misread them in release
    /// builds; Debian's toml++ refuses them with their line and column.
    @Test func aKeyThatCannotBeginIsASyntaxErrorWithItsColumn() {
        #expect(parseError("[%nknown]\nfont = \"never\"\n")?.description
            == "config.toml:1:2: Error while parsing key: expected bare key starting character or string delimiter, saw '%'")
        #expect(parseError("[defaults]\nheight = 40\n  .x = 1\n")?.description
            == "config.toml:3:3: Error while parsing root table: expected keys, tables, whitespace or comments, saw '.'")
        #expect(parseError("[style.é]\n")?.description
            == "config.toml:1:8: Error while parsing key: expected bare key starting character or string delimiter, saw 'é'")
    }
}
