// The icon as drawn: a square as tall as the title's line, left of the title and centred with
// it, its opaque pixels exact and its half-transparent ones blended over the background; a
// theme name found in a private data directory in the best size; a missing or unreadable icon
// is one warning and the banner shows without it; the old icon fades out with the old title.

import BannerCore
@testable import BannerX11
@testable import BannerRuntime
import Glibc
import Testing
import X11TestSupport

extension BannerX11Tests {
    @Suite("Icon drawing")
    struct IconDrawingTests {
        static let font = BannerFont(families: ["DejaVu Sans"], size: 17, weight: .bold)
        static let background = Pixel(hex: 0x204060)
        static let blue = Pixel(hex: 0x0000FF)
        static let yellow = Pixel(hex: 0xFFFF00)
        /// The right half's alpha, 128 of 255.
        static let halfAlpha = 128.0 / 255

        /// A 64×64 PNG: the left half opaque blue, the right half yellow at alpha 128.
        static func makeTwoToneIcon(_ fixture: Fixture, name: String = "two-tone.png") throws -> String {
            let path = fixture.desktop.home + "/" + name
            try fixture.desktop.run(["convert", "-size", "32x64", "xc:#0000ff", "-size", "32x64", "xc:#ffff0080", "+append", "PNG32:" + path])
            return path
        }

        /// A `size`×`size` opaque PNG of one colour.
        static func makeSolidIcon(_ fixture: Fixture, colour: String, size: Int, at path: String) throws {
            try fixture.desktop.run(["mkdir", "-p", String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])])
            try fixture.desktop.run(["convert", "-size", "\(size)x\(size)", "xc:\(colour)", "PNG32:" + path])
        }

        static func write(_ path: String, _ text: String) throws {
            let file = try #require(fopen(path, "w"), "cannot write \(path)")
            fputs(text, file)
            fclose(file)
        }

        /// Presents a regular banner on #204060 with `config`, and waits until it is fully down.
        static func present(on fixture: Fixture, title: String = "Icon test", _ config: @escaping (inout TopBannerConfigBuilder) -> Void) throws -> Screenshot {
            fixture.host.compactPolicy = .never
            try fixture.host.presentTopBanner { builder in
                builder.title(title).font(font).backgroundColor(BannerColor(RGBA(hex: 0x204060))).textColor(.white)
                config(&builder)
            }
            #expect(fixture.run { fixture.host.phase == .presented })
            #expect(fixture.display.runUntilIdle())
            #expect(fixture.waitUntilBannerIsOnTop(), "stack: \(fixture.observer.describeStack())")
            return try #require(fixture.observer.screenshot(Rect(x: 0, y: 0, width: 1280, height: 80)))
        }

        /// Rows (y) in which some pixel is within `tolerance` of `colour`.
        static func rows(of shot: Screenshot, matching colour: Pixel, tolerance: Int) -> [Int] {
            (0..<shot.area.height).filter { y in (0..<shot.area.width).contains { shot.pixel(x: $0, y: y).distance(to: colour) <= tolerance } }
        }

        @Test func iconIsDrawnLeftOfTheTitleWithItsAlphaBlendedOverTheBackground() throws {
            let fixture = try Fixture()
            let path = try Self.makeTwoToneIcon(fixture)
            let shot = try Self.present(on: fixture) { $0.icon(.file(path)) }
            let frame = try #require(fixture.host.drawnIconFrame)

            // Square, as tall as the title's line (DejaVu Sans Bold at 17 px: ascent + descent).
            #expect(frame.width == frame.height)
            #expect((18...24).contains(frame.height), "icon side \(frame.height)")
            // The opaque half exactly, the half-transparent half blended over the background.
            let opaque = shot.pixel(x: frame.x + frame.width / 4, y: frame.y + frame.height / 2)
            #expect(opaque.distance(to: Self.blue) <= 1, "opaque half \(opaque)")
            let expected = Self.background.blended(with: Self.yellow, fraction: Self.halfAlpha)
            let blended = shot.pixel(x: frame.x + frame.width * 3 / 4, y: frame.y + frame.height / 2)
            #expect(blended.distance(to: expected) <= 2, "half-transparent half \(blended), expected \(expected)")

            // Seen on screen, not just reported: the blue rows are the icon's, the blue columns its left half.
            let blueColumns = shot.columns(matching: Self.blue, tolerance: 1)
            let blueRows = Self.rows(of: shot, matching: Self.blue, tolerance: 1)
            #expect(blueRows.first == frame.y && blueRows.last == frame.y + frame.height - 1)
            #expect(blueColumns.first == frame.x)
            #expect(abs(blueColumns.count - frame.width / 2) <= 1)
            // Left of the title with 8 px between (give or take the first glyph's bearing), and
            // icon and title centred together.
            let textColumns = shot.columns(matching: Pixel(hex: 0xFFFFFF), tolerance: 60)
            let textStart = try #require(textColumns.first)
            let textEnd = try #require(textColumns.last)
            #expect((frame.x + frame.width + 8...frame.x + frame.width + 11).contains(textStart), "title starts at \(textStart)")
            #expect(abs((frame.x + textEnd) / 2 - 640) <= 3, "icon \(frame.x) … title \(textEnd) not centred")
            // On the title's line: the title's glyphs sit within the icon's rows.
            let textRows = Self.rows(of: shot, matching: Pixel(hex: 0xFFFFFF), tolerance: 60)
            #expect((textRows.first ?? 0) >= frame.y && (textRows.last ?? .max) < frame.y + frame.height)
            #expect(fixture.display.protocolErrorCount == 0)
        }

        @Test func withASubtitleTheIconIsAsTallAsBothLines() throws {
            let fixture = try Fixture()
            let path = try Self.makeTwoToneIcon(fixture)
            _ = try Self.present(on: fixture) { $0.icon(.file(path)).subtitle("and a subtitle under it") }
            let frame = try #require(fixture.host.drawnIconFrame)
            #expect(frame.height >= 36, "icon side \(frame.height) for two lines")
            #expect(frame.y >= 20 && frame.y + frame.height <= 80)
        }

        @Test func ellipsizingLeavesRoomForTheIcon() throws {
            let fixture = try Fixture()
            let path = try Self.makeTwoToneIcon(fixture)
            let long = String(repeating: "A very long title that cannot fit ", count: 10)
            let shot = try Self.present(on: fixture, title: long) { $0.icon(.file(path)) }
            let frame = try #require(fixture.host.drawnIconFrame)
            let title = try #require(fixture.host.drawnTitle?.text)
            #expect(title.hasSuffix("…"))
            // Icon and text together stay inside the 12 px padding on both sides.
            #expect(frame.x >= 12)
            let textEnd = try #require(shot.columns(matching: Pixel(hex: 0xFFFFFF), tolerance: 60).last)
            #expect(textEnd < 1280 - 12)
        }

        @Test func themeNameResolvesFromAPrivateDataDirectoryInTheBestSize() throws {
            let fixture = try Fixture()
            let data = fixture.desktop.home + "/data"
            // 16 px red, 32 px green, 256 px blue: for a ~21 px icon the next size up is 32.
            for (size, colour) in [(16, "#ff0000"), (32, "#00ff00"), (256, "#0000ff")] {
                try Self.makeSolidIcon(fixture, colour: colour, size: size, at: "\(data)/icons/hicolor/\(size)x\(size)/apps/wb-test-icon.png")
            }
            fixture.display.iconSearchPath = .standard(environment: ["XDG_DATA_DIRS": data])
            var warnings: [String] = []
            fixture.display.onWarning = { warnings.append($0) }
            let shot = try Self.present(on: fixture) { $0.icon(.named("wb-test-icon")) }
            let frame = try #require(fixture.host.drawnIconFrame)
            #expect(shot.pixel(x: frame.x + frame.width / 2, y: frame.y + frame.height / 2).distance(to: Pixel(hex: 0x00FF00)) <= 1)
            #expect(shot.count(matching: Pixel(hex: 0x00FF00), tolerance: 1) == frame.width * frame.height)
            #expect(warnings.isEmpty)
        }

        @Test func missingIconWarnsOnceAndTheBannerShowsWithoutIt() throws {
            let fixture = try Fixture()
            fixture.display.iconSearchPath = .standard(environment: ["XDG_DATA_DIRS": fixture.desktop.home + "/nothing-here"])
            var warnings: [String] = []
            fixture.display.onWarning = { warnings.append($0) }
            let shot = try Self.present(on: fixture) { $0.icon(.named("wb-no-such-icon")) }
            #expect(warnings == ["icon 'wb-no-such-icon' not found (no wb-no-such-icon.png in the Adwaita or hicolor icon theme); showing the banner without it"])
            #expect(fixture.host.isBannerPresented)
            #expect(fixture.host.drawnIconFrame == nil)
            // The title alone, centred as without an icon.
            let columns = shot.columns(matching: Pixel(hex: 0xFFFFFF), tolerance: 60)
            #expect(abs(((columns.first ?? 0) + (columns.last ?? 0)) / 2 - 640) <= 3)
        }

        @Test func unreadableIconsWarnNamingTheFileAndTheReason() throws {
            let fixture = try Fixture()
            let home = fixture.desktop.home
            try Self.write(home + "/text.png", "not a picture\n")
            try fixture.desktop.run(["mkdir", "-p", home + "/folder.png"])
            // A FIFO must not block the process that draws banners.
            #expect(mkfifo(home + "/pipe.png", 0o600) == 0)
            try fixture.desktop.run(["mkdir", "-p", home + "/data/icons/hicolor/scalable/apps"])
            try Self.write(home + "/data/icons/hicolor/scalable/apps/wb-vector.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\"><rect\n")
            fixture.display.iconSearchPath = .standard(environment: ["XDG_DATA_DIRS": home + "/data"])
            var warnings: [String] = []
            fixture.display.onWarning = { warnings.append($0) }
            for icon in [BannerIcon.file(home + "/text.png"), .file(home + "/folder.png"), .file(home + "/pipe.png"),
                         .file(home + "/absent.png"), .named("wb-vector")] {
                _ = try Self.present(on: fixture, title: "\(icon)") { $0.icon(icon) }
                #expect(fixture.host.drawnIconFrame == nil)
            }
            #expect(Array(warnings.prefix(4)) == [
                "cannot read icon '\(home)/text.png': not a PNG file; showing the banner without it",
                "cannot read icon '\(home)/folder.png': not a regular file; showing the banner without it",
                "cannot read icon '\(home)/pipe.png': not a regular file; showing the banner without it",
                "cannot read icon '\(home)/absent.png': No such file or directory; showing the banner without it",
            ])
            #expect(warnings.count == 5 && warnings[4].hasPrefix("cannot read icon '\(home)/data/icons/hicolor/scalable/apps/wb-vector.svg': not an SVG document ("), "\(warnings.last ?? "")")
            #expect(fixture.display.protocolErrorCount == 0)
        }

        /// The largest difference of any channel of any pixel between two bitmaps of one size.
        static func largestDifference(_ a: IconBitmap, _ b: IconBitmap) -> Int {
            var largest = 0
            for (left, right) in zip(a.pixels, b.pixels) {
                for shift: UInt32 in [0, 8, 16, 24] {
                    let difference = abs(Int(left >> shift & 0xFF) - Int(right >> shift & 0xFF))
                    largest = max(largest, difference)
                }
            }
            return largest
        }

        @Test func decodingStraightToTheDrawnSizeMatchesScalingTheWholeImage() throws {
            let fixture = try Fixture()
            let plain = fixture.desktop.home + "/plain.png"
            let interlaced = fixture.desktop.home + "/interlaced.png"
            // 300x200: colours varying everywhere, alpha from 0 at the left to 255 at the right.
            try fixture.desktop.run(["convert", "-seed", "7", "-size", "300x200", "plasma:", "-alpha", "set", "-channel", "A", "-fx", "i/w", "+channel", "PNG32:" + plain])
            try fixture.desktop.run(["convert", plain, "-interlace", "PNG", "PNG32:" + interlaced])
            // At its own size the decode is exact: the image centred in a 300x300 square.
            let square = try #require(PNGFile.decode(path: plain, sides: [300]).bySide[300])
            let whole = IconBitmap(width: 300, height: 200, premultiplied: Array(square.pixels[(50 * 300)..<(250 * 300)]))
            #expect(square.pixels[..<(50 * 300)].allSatisfy { $0 == 0 } && square.pixels[(250 * 300)...].allSatisfy { $0 == 0 })
            for side in [24, 37, 150, 320] {
                let expected = whole.scaled(toSquare: side)
                let streamed = try #require(PNGFile.decode(path: plain, sides: [side, 18]).bySide[side])
                let adam7 = try #require(PNGFile.decode(path: interlaced, sides: [side]).bySide[side])
                #expect(Self.largestDifference(streamed, expected) <= 1, "side \(side)")
                #expect(Self.largestDifference(adam7, expected) <= 1, "side \(side), interlaced")
            }
        }

        @Test func aLargeIconIsDecodedOffTheLoopAndAnsweredFromIt() throws {
            let fixture = try Fixture()
            let large = fixture.desktop.home + "/large.png"
            try fixture.desktop.run(["convert", "-size", "1024x1024", "xc:#0000ff", "PNG32:" + large])
            let appearance = try TopBannerConfigBuilder().title("Large").font(Self.font).build()
            var outcome: Result<BannerIcon, IconProblem>?
            fixture.display.loadIcon(.file(large), for: appearance) { outcome = $0 }
            // Over 512x512 pixels: a worker thread decodes it, so nothing is answered yet.
            #expect(outcome == nil)
            #expect(fixture.display.loop.run(timeout: 10) { outcome != nil })
            #expect(outcome == .success(.file(large)))
            // Decoded, the next request for it is answered at once, from the squares kept.
            var again: Result<BannerIcon, IconProblem>?
            fixture.display.loadIcon(.file(large), for: appearance) { again = $0 }
            #expect(again == .success(.file(large)))
            let shot = try Self.present(on: fixture) { $0.icon(.file(large)) }
            let frame = try #require(fixture.host.drawnIconFrame)
            #expect(shot.count(matching: Self.blue, tolerance: 1) == frame.width * frame.height)
        }

        @Test func theOldIconFadesOutWithTheOldTitle() throws {
            let fixture = try Fixture(timing: BannerTiming(crossFadeDuration: 0.6))
            let path = try Self.makeTwoToneIcon(fixture)
            _ = try Self.present(on: fixture, title: "A rather long title beside the icon") { $0.icon(.file(path)) }
            let frame = try #require(fixture.host.drawnIconFrame)
            let centre = (x: frame.x + frame.width / 4, y: frame.y + frame.height / 2)

            var samples: [(progress: Double, pixel: Pixel)] = []
            fixture.host.onFrame = { [unowned fixture] rendered in
                guard let shot = fixture.observer.screenshot(Rect(x: centre.x, y: centre.y, width: 1, height: 1)) else { return }
                samples.append((rendered.fadeProgress, shot.pixel(x: centre.x, y: centre.y)))
            }
            // Same background, a short title far from where the icon was, no icon.
            try fixture.host.presentTopBanner { $0.title("Hi").font(Self.font).backgroundColor(BannerColor(RGBA(hex: 0x204060))).textColor(.white) }
            #expect(fixture.run { samples.last?.progress == 1 })
            fixture.host.onFrame = nil
            // Each frame: the icon's opaque blue at (1 − progress) over the background, within rounding.
            // The frame nearest half-way (where the frames land depends on the machine's speed)
            // is strictly between the two looks.
            let fading = samples.filter { $0.progress > 0 && $0.progress < 1 }
            let middle = try #require(fading.min { abs($0.progress - 0.5) < abs($1.progress - 0.5) }, "no frame part-way: \(samples.map(\.progress))")
            for sample in samples {
                let expected = Self.blue.blended(with: Self.background, fraction: sample.progress)
                #expect(sample.pixel.distance(to: expected) <= 3, "at \(sample.progress): \(sample.pixel), expected \(expected)")
            }
            #expect(middle.pixel.distance(to: Self.blue) > 0 && middle.pixel.distance(to: Self.background) > 0, "at \(middle.progress): \(middle.pixel)")
            #expect(samples.last?.pixel.distance(to: Self.background) ?? .max <= 1)
        }
    }
}
