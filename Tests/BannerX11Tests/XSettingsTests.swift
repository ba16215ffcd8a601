// The desktop's XSETTINGS on a real server, with Debian's xsettingsd as the manager: a test
// rewrites its config file and sends it SIGHUP, as a desktop's settings daemon publishes a
// change the user made, and the banner follows live. The parser is fuzzed too: the property
// is another client's bytes.

import BannerCore
@testable import BannerX11
import BannerRuntime
import CX11
import Glibc
import ProcessTestSupport
import Testing
import X11TestSupport

extension BannerX11Tests {
    @Suite("XSETTINGS")
    struct XSettingsTests {
        @Test func doublingTheDesktopsDPIWhileABannerShowsDoublesItsHeightAndReservationInOneChange() throws {
            let fixture = try Fixture()
            let observer = fixture.observer
            let manager = try XSettingsManager(fixture.desktop, "Xft/DPI 98304\n")
            #expect(fixture.run { fixture.display.desktopSettings.dpi == 96 })
            fixture.host.compactPolicy = .never
            let before = observer.workAreas()
            #expect(try fixture.presentAndSettle(height: 80) { $0.title("Large Text").backgroundColor(.black) })
            let banner = fixture.host.bannerWindowID
            observer.clearRecords()

            // GNOME's "Large Text" at 2×: 192 DPI, in 1024ths.
            try manager.change(to: "Xft/DPI 196608\n")
            #expect(fixture.run {
                fixture.display.pixelsPerPoint == 2 && !fixture.host.isAnimating && fixture.bannerGeometry?.height == 160
                    && observer.workAreas() == Fixture.shrunk(before, by: 160)
            }, "banner \(String(describing: fixture.bannerGeometry)), work area \(observer.workAreas())")
            #expect(fixture.host.reservedHeight == 160)
            #expect(fixture.host.bannerWindowID == banner)
            // One change: the work area went straight from 80 px off to 160 (a WM may publish
            // the same value again, never one in between), and so did the banner's window.
            let reservations = observer.workAreaHistory.map { areas in (80...160).first { Fixture.shrunk(before, by: $0) == areas } }
            #expect(reservations.allSatisfy { $0 == 80 || $0 == 160 }, "work areas \(observer.workAreaHistory)")
            #expect(observer.configures.filter { $0.window == banner }.allSatisfy { $0.height == 80 || $0.height == 160 })
        }

        @Test func animationsTurnedOffMakeTheNextBannerAppearWithoutASlide() throws {
            let fixture = try Fixture()
            let manager = try XSettingsManager(fixture.desktop, "Gtk/EnableAnimations 1\n")
            #expect(fixture.run { fixture.display.desktopSettings.animationsEnabled == true })
            fixture.host.compactPolicy = .never
            var frames: [RenderedFrame] = []
            fixture.host.onFrame = { frames.append($0) }

            /// Presents a banner the way the owner does when neither a flag nor the config file
            /// sets reduce motion, and returns the heights its frames showed on the way in.
            func present(_ title: String) throws -> [Int] {
                frames = []
                try fixture.host.presentTopBanner { $0.title(title).reduceMotion(fixture.display.desktopPrefersReducedMotion) }
                #expect(fixture.run { fixture.host.phase == .presented && !frames.isEmpty })
                #expect(fixture.display.runUntilIdle())
                let shown = frames.map(\.visibleHeight)
                fixture.host.dismissTopBanner()
                #expect(fixture.run { fixture.host.phase == .hidden })
                return shown
            }

            // Animations on: the banner slides in through heights between nothing and 80.
            #expect(try present("Sliding").contains { $0 > 0 && $0 < 80 })
            try manager.change(to: "Gtk/EnableAnimations 0\n")
            #expect(fixture.run { fixture.display.desktopPrefersReducedMotion })
            let still = try present("Still")
            #expect(!still.isEmpty && still.allSatisfy { $0 == 80 }, "\(still)")
        }

        @Test func theDesktopsIconThemeIsSearchedBeforeAdwaitaAndHicolor() throws {
            let fixture = try Fixture()
            let data = fixture.desktop.home + "/data"
            let green = Pixel(hex: 0x00FF00)
            let magenta = Pixel(hex: 0xFF00FF)
            try IconDrawingTests.makeSolidIcon(fixture, colour: "#00ff00", size: 32, at: "\(data)/icons/hicolor/32x32/apps/wb-themed.png")
            try IconDrawingTests.makeSolidIcon(fixture, colour: "#ff00ff", size: 32, at: "\(data)/icons/WB-Desktop/32x32/status/wb-themed.png")
            fixture.display.iconSearchPath = .standard(environment: ["XDG_DATA_DIRS": data])
            var warnings: [String] = []
            fixture.display.onWarning = { warnings.append($0) }

            // No theme named: hicolor's.
            var shot = try IconDrawingTests.present(on: fixture, title: "hicolor") { $0.icon(.named("wb-themed")) }
            var frame = try #require(fixture.host.drawnIconFrame)
            #expect(shot.count(matching: green, tolerance: 1) == frame.width * frame.height)

            let manager = try XSettingsManager(fixture.desktop, "Net/IconThemeName \"WB-Desktop\"\n")
            #expect(fixture.run { fixture.display.desktopSettings.iconThemeName == "WB-Desktop" })
            shot = try IconDrawingTests.present(on: fixture, title: "Desktop theme") { $0.icon(.named("wb-themed")) }
            frame = try #require(fixture.host.drawnIconFrame)
            #expect(shot.count(matching: magenta, tolerance: 1) == frame.width * frame.height)

            // A name that would leave the icon directories is ignored.
            try manager.change(to: "Net/IconThemeName \"../icons/WB-Desktop\"\n")
            #expect(fixture.run { fixture.display.desktopSettings.iconThemeName == "../icons/WB-Desktop" })
            shot = try IconDrawingTests.present(on: fixture, title: "Back to hicolor") { $0.icon(.named("wb-themed")) }
            frame = try #require(fixture.host.drawnIconFrame)
            #expect(shot.count(matching: green, tolerance: 1) == frame.width * frame.height)
            #expect(warnings.isEmpty)
        }

        @Test func theDesktopsFontIsTheSystemFontLive() throws {
            let fixture = try Fixture()
            fixture.host.compactPolicy = .never
            let area = Rect(x: 0, y: 0, width: 1280, height: 80)
            /// The banner as drawn once settled, with `font` when given, else the default.
            func shot(_ title: String, font: BannerFont? = nil) throws -> [Pixel] {
                try fixture.host.presentTopBanner { builder in
                    builder.title(title).backgroundColor(.black)
                    if let font { builder.font(font) }
                }
                #expect(fixture.run { fixture.host.phase == .presented })
                #expect(fixture.display.runUntilIdle())
                #expect(fixture.waitUntilBannerIsOnTop())
                let shot = try #require(fixture.observer.screenshot(area))
                return (0..<80).flatMap { y in (0..<1280).map { shot.pixel(x: $0, y: y) } }
            }
            var serif = TopBannerAppearance.default.font
            serif.families = ["DejaVu Serif"]
            let sans = try shot("Desktop font")
            let explicitSerif = try shot("Desktop font", font: serif)
            #expect(sans != explicitSerif)

            // Back to the default font, then the desktop names DejaVu Serif: the banner on
            // screen is drawn again in it, exactly as with the family written out.
            _ = try shot("Desktop font")
            let manager = try XSettingsManager(fixture.desktop, "Gtk/FontName \"DejaVu Serif Bold 13\"\n")
            #expect(fixture.run { fixture.display.fonts.systemFamily == "DejaVu Serif" })
            #expect(fixture.display.runUntilIdle())
            #expect(fixture.waitUntilBannerIsOnTop())
            let live = try #require(fixture.observer.screenshot(area))
            #expect((0..<80).flatMap { y in (0..<1280).map { live.pixel(x: $0, y: y) } } == explicitSerif)
            // A font the banner names itself is kept.
            var mono = TopBannerAppearance.default.font
            mono.families = ["DejaVu Sans Mono"]
            let named = try shot("Desktop font", font: mono)
            try manager.change(to: "Gtk/FontName \"Cantarell 11\"\n")
            #expect(fixture.run { fixture.display.fonts.systemFamily == "Cantarell" })
            #expect(try shot("Desktop font", font: mono) == named)
        }

        @Test func anIconThemeWithOnlyAnSVGIconIsDrawn() throws {
            let fixture = try Fixture()
            let data = fixture.desktop.home + "/data"
            let magenta = Pixel(hex: 0xFF00FF)
            try IconDrawingTests.makeSolidIcon(fixture, colour: "#00ff00", size: 32, at: "\(data)/icons/hicolor/32x32/apps/wb-vector.png")
            try fixture.desktop.run(["mkdir", "-p", "\(data)/icons/WB-Vector/scalable/apps"])
            // Only a viewBox, as theme SVGs have: fitted to the icon's square.
            try writeFile("\(data)/icons/WB-Vector/scalable/apps/wb-vector.svg", """
                <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" fill="#ff00ff"/></svg>

                """)
            fixture.display.iconSearchPath = .standard(environment: ["XDG_DATA_DIRS": data])
            var warnings: [String] = []
            fixture.display.onWarning = { warnings.append($0) }
            let manager = try XSettingsManager(fixture.desktop, "Net/IconThemeName \"WB-Vector\"\n")
            #expect(fixture.run { fixture.display.desktopSettings.iconThemeName == "WB-Vector" })
            var loaded: Result<BannerIcon, IconProblem>?
            fixture.display.loadIcon(.named("wb-vector"), for: .default) { loaded = $0 }
            #expect(fixture.run { loaded != nil })
            let icon = try #require(try loaded?.get())
            let shot = try IconDrawingTests.present(on: fixture, title: "Vector") { $0.icon(icon) }
            let frame = try #require(fixture.host.drawnIconFrame)
            #expect(shot.count(matching: magenta, tolerance: 1) == frame.width * frame.height)
            #expect(warnings.isEmpty)
            manager.stop()
        }

        @Test func hostileSVGIconsAreRefusedOrDrawnWithinTheirSquare() throws {
            let fixture = try Fixture()
            let home = fixture.desktop.home
            let laughs = (1...9).map { "<!ENTITY l\($0) \"" + String(repeating: "&l\($0 - 1);", count: 10) + "\">" }.joined()
            let documents = [
                "huge": "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1000000000\" height=\"1\"><rect width=\"100%\" height=\"100%\"/></svg>",
                "laughs": "<?xml version=\"1.0\"?><!DOCTYPE svg [<!ENTITY l0 \"lol\">\(laughs)]><svg xmlns=\"http://www.w3.org/2000/svg\"><text>&l9;</text></svg>",
                "deep": "<svg xmlns=\"http://www.w3.org/2000/svg\">" + String(repeating: "<g>", count: 20_000) + String(repeating: "</g>", count: 20_000) + "</svg>",
                "external": "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\"><image xlink:href=\"file:///etc/passwd\" width=\"9\" height=\"9\"/></svg>",
                "empty": "",
                "large": "<svg xmlns=\"http://www.w3.org/2000/svg\">" + String(repeating: " ", count: 5 << 20) + "</svg>",
                "binary": String(decoding: (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919) }, as: UTF8.self),
            ]
            for (name, text) in documents {
                try writeFile("\(home)/\(name).svg", text)
                var warnings: [String] = []
                fixture.display.onWarning = { warnings.append($0) }
                _ = try IconDrawingTests.present(on: fixture, title: name) { $0.icon(.file("\(home)/\(name).svg")) }
                #expect(fixture.host.isBannerPresented)
                if name == "large" {
                    #expect(warnings == ["cannot read icon '\(home)/large.svg': larger than 4194304 bytes; showing the banner without it"])
                }
                if let frame = fixture.host.drawnIconFrame {
                    #expect(frame.width <= 80 && frame.height <= 80, "\(name)")
                } else {
                    #expect(warnings.count == 1, "\(name): \(warnings)")
                }
            }
            #expect(fixture.display.protocolErrorCount == 0)
        }

        @Test func aHostileManagersPropertyNeverCrashesAndCountsAsNoSettings() throws {
            let fixture = try Fixture(before: { $0.setXftDPI(192) })
            let observer = fixture.observer
            let display = observer.display
            // The observer becomes the manager, as a hostile client could.
            let window = XCreateSimpleWindow(display, observer.root, -1, -1, 1, 1, 0, 0, 0)
            let selection = observer.atom("_XSETTINGS_S0")
            let property = observer.atom("_XSETTINGS_SETTINGS")
            func publish(_ bytes: [UInt8]) {
                bytes.withUnsafeBufferPointer { buffer in
                    _ = XChangeProperty(display, window, property, property, 8, PropModeReplace, buffer.baseAddress, Int32(buffer.count))
                }
                XSync(display, 0)
            }
            var valid = XSettingsEncoder(serial: 1, count: 1)
            valid.integer("Xft/DPI", 98_304)
            publish(valid.bytes)
            XSetSelectionOwner(display, selection, window, UInt(CurrentTime))
            var message = XEvent()
            message.xclient.type = ClientMessage
            message.xclient.window = observer.root
            message.xclient.message_type = observer.atom("MANAGER")
            message.xclient.format = 32
            message.xclient.data.l.0 = Int(CurrentTime)
            message.xclient.data.l.1 = Int(bitPattern: UInt(selection))
            message.xclient.data.l.2 = Int(bitPattern: UInt(window))
            XSendEvent(display, observer.root, 0, StructureNotifyMask, &message)
            XSync(display, 0)
            #expect(fixture.run { fixture.display.pixelsPerPoint == 1 })

            var random = SplitMix64(seed: 29)
            var hostile: [[UInt8]] = [
                Array(valid.bytes.prefix(13)),                                   // truncated
                XSettingsEncoder(serial: 2, count: .max).bytes,                  // a count the bytes cannot hold
                { var bad = valid; bad.bytes[12] = 9; return bad.bytes }(),      // an unknown type
                [UInt8](repeating: 0xFF, count: 200_000),                        // past the 64 KiB read
            ]
            for _ in 0..<40 {
                hostile.append((0..<Int.random(in: 0...64, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) })
            }
            for bytes in hostile {
                publish(valid.bytes)
                #expect(fixture.run { fixture.display.pixelsPerPoint == 1 })
                publish(bytes)
                // Whatever cannot be read counts as no settings: the X resources decide again.
                #expect(fixture.run { fixture.display.pixelsPerPoint == 2 }, "\(bytes.prefix(16))")
            }
            #expect(fixture.display.protocolErrorCount == 0)
            XDestroyWindow(display, window)
            XSync(display, 0)
        }

        @Test func aRestartedManagerIsFollowedAndWithoutOneTheXResourcesDecide() throws {
            let fixture = try Fixture(before: { $0.setXftDPI(192) })
            #expect(fixture.display.pixelsPerPoint == 2)
            let first = try XSettingsManager(fixture.desktop, "Xft/DPI 98304\n")
            #expect(fixture.run { fixture.display.pixelsPerPoint == 1 })
            // The manager goes away: its window with it, and Xft.dpi decides again.
            first.stop()
            #expect(fixture.run { fixture.display.pixelsPerPoint == 2 && fixture.display.desktopSettings == XSettings() })
            // A new one announces itself (MANAGER on the root) and is followed from its start.
            let second = try XSettingsManager(fixture.desktop, "Xft/DPI 147456\n", file: "second.conf")
            #expect(fixture.run { fixture.display.pixelsPerPoint == 1.5 })
            try second.change(to: "Xft/DPI 98304\n")
            #expect(fixture.run { fixture.display.pixelsPerPoint == 1 })
            #expect(fixture.display.protocolErrorCount == 0)
        }
    }
}

/// The XSETTINGS format's bytes, written as a manager writes them.
struct XSettingsEncoder {
    var bigEndian = false
    var bytes: [UInt8] = []

    init(bigEndian: Bool = false, serial: UInt32, count: UInt32) {
        self.bigEndian = bigEndian
        bytes = [bigEndian ? 1 : 0, 0, 0, 0]
        card32(serial)
        card32(count)
    }

    mutating func card16(_ value: UInt16) {
        bytes += bigEndian ? [UInt8(value >> 8), UInt8(value & 0xFF)] : [UInt8(value & 0xFF), UInt8(value >> 8)]
    }

    mutating func card32(_ value: UInt32) {
        let parts = (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) }
        bytes += bigEndian ? parts.reversed() : parts
    }

    mutating func padded(_ text: String) {
        bytes += Array(text.utf8)
        bytes += Array(repeating: 0, count: (4 - text.utf8.count % 4) % 4)
    }

    mutating func header(type: UInt8, name: String) {
        bytes += [type, 0]
        card16(UInt16(name.utf8.count))
        padded(name)
        card32(7)  // last-change serial
    }

    mutating func integer(_ name: String, _ value: Int32) {
        header(type: 0, name: name)
        card32(UInt32(bitPattern: value))
    }

    mutating func string(_ name: String, _ value: String) {
        header(type: 1, name: name)
        card32(UInt32(value.utf8.count))
        padded(value)
    }

    mutating func colour(_ name: String, red: UInt16, green: UInt16, blue: UInt16, alpha: UInt16) {
        header(type: 2, name: name)
        for component in [red, blue, green, alpha] { card16(component) }
    }

    /// What GNOME's settings daemon publishes, in the parts that matter here.
    static func desktop(bigEndian: Bool = false) -> [UInt8] {
        var encoder = XSettingsEncoder(bigEndian: bigEndian, serial: 42, count: 6)
        encoder.integer("Xft/DPI", 196_608)
        encoder.integer("Gtk/EnableAnimations", 0)
        encoder.string("Net/IconThemeName", "Papirus")
        encoder.string("Gtk/FontName", "Cantarell 11")
        encoder.string("Net/ThemeName", "HighContrast")
        encoder.colour("Gtk/Colour", red: 1, green: 2, blue: 3, alpha: 4)
        return encoder.bytes
    }
}

@Suite("XSETTINGS format")
struct XSettingsFormatTests {
    @Test(arguments: [false, true])
    func aManagersPropertyIsReadInEitherByteOrder(bigEndian: Bool) throws {
        let settings = try #require(XSettings(parsing: XSettingsEncoder.desktop(bigEndian: bigEndian)))
        #expect(settings.serial == 42)
        #expect(settings.dpi == 192)
        #expect(settings.animationsEnabled == false)
        #expect(settings.iconThemeName == "Papirus")
        #expect(settings.fontName == "Cantarell 11")
        #expect(settings.themeName == "HighContrast")
        #expect(settings.values["Gtk/Colour"] == .colour(red: 1, green: 2, blue: 3, alpha: 4))
    }

    @Test func unsetAndServerDefaultValuesMeanNothing() throws {
        var encoder = XSettingsEncoder(serial: 1, count: 2)
        encoder.integer("Xft/DPI", -1)
        encoder.string("Net/IconThemeName", "")
        let settings = try #require(XSettings(parsing: encoder.bytes))
        #expect(settings.dpi == nil)
        #expect(settings.iconThemeName == nil)
        #expect(settings.animationsEnabled == nil)
    }

    @Test func onlyADirectorysNameIsTakenAsTheDesktopsIconTheme() {
        #expect(IconThemeRule.themes(desktop: "Papirus") == ["Papirus", "Adwaita", "hicolor"])
        #expect(IconThemeRule.themes(desktop: "hicolor") == ["Adwaita", "hicolor"])
        for hostile in [nil, "", ".", "..", "../x", "/usr/share/icons/x", "a\nb", String(repeating: "x", count: 256)] {
            #expect(IconThemeRule.themes(desktop: hostile) == ["Adwaita", "hicolor"], "\(String(describing: hostile))")
        }
    }

    @Test func theFontsFamilyIsPangosNameWithoutStyleAndSize() {
        func family(_ name: String) -> String? {
            var settings = XSettings()
            settings.values["Gtk/FontName"] = .string(name)
            return settings.fontFamily
        }
        #expect(family("Cantarell 11") == "Cantarell")
        #expect(family("Noto Sans Bold Italic 10") == "Noto Sans")
        #expect(family("DejaVu Sans, 9.5") == "DejaVu Sans")
        #expect(family("Ubuntu 12px") == "Ubuntu")
        #expect(family("Bold") == "Bold")
        #expect(family("11") == nil)
        #expect(family("Evil\nName 11") == nil)
        #expect(family(String(repeating: "x", count: 300)) == nil)
    }

    @Test func malformedPropertiesAreRefusedWhole() {
        let good = XSettingsEncoder.desktop()
        // Every truncation.
        for length in 0..<good.count {
            #expect(XSettings(parsing: Array(good[0..<length])) == nil, "truncated to \(length)")
        }
        // An unknown byte order.
        var order = good
        order[0] = 2
        #expect(XSettings(parsing: order) == nil)
        // A count far beyond what the bytes hold: refused before looping on it.
        var huge = XSettingsEncoder(serial: 1, count: .max)
        huge.integer("Xft/DPI", 98_304)
        #expect(XSettings(parsing: huge.bytes) == nil)
        // An unknown type.
        var badType = XSettingsEncoder(serial: 1, count: 1)
        badType.integer("Xft/DPI", 98_304)
        badType.bytes[12] = 3
        #expect(XSettings(parsing: badType.bytes) == nil)
        // A string whose length runs past the end.
        var long = XSettingsEncoder(serial: 1, count: 1)
        long.header(type: 1, name: "Net/ThemeName")
        long.card32(.max)
        long.padded("HighContrast")
        #expect(XSettings(parsing: long.bytes) == nil)
    }

    @Test func randomBytesAndMutationsNeverCrash() {
        var random = SplitMix64(seed: 23)
        let good = XSettingsEncoder.desktop()
        for round in 0..<20_000 {
            var bytes: [UInt8]
            if round % 2 == 0 {
                bytes = good
                for _ in 0..<Int.random(in: 1...6, using: &random) {
                    bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
                }
                if Bool.random(using: &random) { bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &random))) }
            } else {
                bytes = (0..<Int.random(in: 0...96, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            }
            if let settings = XSettings(parsing: bytes) {
                // Whatever was read fits in what was given.
                #expect(settings.values.count <= bytes.count / 12)
            }
        }
    }
}
