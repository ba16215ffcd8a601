// The layer surface on Debian's sway, seen as a user sees it: a terminal (foot) moves down by
// exactly the banner's height and back, re-laid out once each way however many frames slide
// inside the surface; a status bar (waybar) keeps its place above the banner; the outputs, a new
// one included, are reported by name and size; the scale gives the buffer's pixels.

import BannerCore
import BannerPixman
@testable import BannerWayland
import Glibc
import ProcessTestSupport
import Testing
import WaylandTestSupport

extension BannerWaylandTests {
    @Suite("Layer surface", .needsProgram("/usr/bin/foot", package: "foot"))
    struct LayerSurfaceTests {
        static let bannerColour = RGBA(hex: 0xCC3311)

        @Test func exclusiveZoneMovesWindowsDownOnceAndBackWhileContentSlides() throws {
            let fixture = try Fixture()
            let foot = try fixture.sway.startFoot()
            try fixture.sway.awaitWindowRect(appID: "foot") { $0 == SwayRect(x: 0, y: 0, width: 1280, height: 720) }
            // Its program runs once foot has sized its pty; sizes foot takes before the banner
            // are not counted against it.
            try foot.awaitFilling(windowHeight: 720)
            let before = try #require(foot.resizes())
            let configuredBefore = foot.configures()

            let height = 40
            let surface = try LayerSurface(connection: fixture.connection, output: fixture.connection.outputs.first, layer: .top, height: height)
            // 30 frames sliding a block across the surface, as a banner slides in: the zone stays.
            try fixture.present(30, on: surface) { canvas, frame in
                canvas.fill(RGBA(red: 0, green: 0, blue: 0, alpha: 0))
                canvas.fill(PixelRect(x: 0, y: frame - 30 + height, width: canvas.width, height: height), with: Self.bannerColour)
            }
            let moved = try fixture.sway.awaitWindowRect(appID: "foot") { $0.y != 0 }
            #expect(moved == SwayRect(x: 0, y: height, width: 1280, height: 720 - height))

            surface.destroy()
            try fixture.connection.roundtrip()
            try fixture.sway.awaitWindowRect(appID: "foot") { $0 == SwayRect(x: 0, y: 0, width: 1280, height: 720) }
            // One re-layout in, one out; awaited, as foot resizes its pty after sway's configure.
            try fixture.serve { (foot.resizes() ?? 0) - before >= 2 }
            try fixture.connection.roundtrip()
            #expect(foot.resizes().map { $0 - before } == 2)
            // Exactly two configures of its window reached foot: in, and out.
            #expect(foot.configures() - configuredBefore == 2)
        }

        /// Why the zone is set once: a banner that grew its surface and zone with each frame of
        /// its slide re-lays the terminal out on every frame — one configure of foot's window per
        /// zone change on sway 1.7 (20 for 2, 4, … 40 px), where the terminal's rows change only
        /// 3 times. (Under load sway may fold two zone changes into one configure while foot
        /// has not answered the last: a CI run under AddressSanitizer counted 19.)
        @Test func changingTheZonePerFrameReLaysWindowsOutEveryFrame() throws {
            let fixture = try Fixture()
            let foot = try fixture.sway.startFoot()
            try fixture.sway.awaitWindowRect(appID: "foot") { $0 == SwayRect(x: 0, y: 0, width: 1280, height: 720) }
            try foot.awaitFilling(windowHeight: 720)
            let before = foot.configures()

            let surface = try LayerSurface(connection: fixture.connection, output: nil, layer: .top, height: 2)
            // 20 frames, each 2 px taller (2 to 40), as a 40 px banner sliding in would reserve them.
            try fixture.present(20, on: surface) { canvas, frame in
                canvas.fill(Self.bannerColour)
                surface.resize(height: 2 * (frame + 1))
            }
            try fixture.sway.awaitWindowRect(appID: "foot") { $0.y == 40 }
            try fixture.serve { foot.configures() - before >= 20 }
            // Against the 1 a zone set once costs (the test above).
            #expect((15...20).contains(foot.configures() - before), "foot was configured \(foot.configures() - before) times for 20 zone heights")
            surface.destroy()
        }

        @Test func screenshotShowsTheColourRoundCornersAndGlyphs() throws {
            let fixture = try Fixture()
            let desktop: UInt32 = 0x336699
            let text = try TestFace(path: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", pixelSize: 32)
            let emoji = try TestFace(path: "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf", pixelSize: 32)
            let height = 48
            let surface = try LayerSurface(connection: fixture.connection, output: nil, layer: .top, height: height)
            try fixture.present(1, on: surface) { canvas, _ in
                canvas.fill(Self.bannerColour)
                canvas.roundBottomCorners(radius: 16)
                canvas.glyph(text.glyph("W"), face: text.face, x: 100, baseline: 36, colour: RGBA(red: 1, green: 1, blue: 1))
                canvas.glyph(emoji.glyph("\u{1F600}"), face: emoji.face, x: 200, baseline: 36, colour: RGBA(red: 1, green: 1, blue: 1),
                             pixelSize: 32)
            }
            let shot = try fixture.sway.screenshot()
            #expect(shot.pixel(640, 4) == 0xCC3311)
            #expect(shot.pixel(640, height - 1) == 0xCC3311)
            // The corners' outermost pixels show the desktop; the row under the banner too.
            #expect(shot.pixel(0, height - 1) == desktop)
            #expect(shot.pixel(1279, height - 1) == desktop)
            #expect(shot.pixel(640, height) == desktop)
            // Half-covered pixels along the arc are a mix, not one or the other.
            let edge = (0..<16).map { shot.pixel($0, height - 6) }
            #expect(edge.contains { $0 != desktop && $0 != 0xCC3311 }, "no anti-aliased pixel on the corner's edge: \(edge)")

            let white = (100..<132).flatMap { x in (4..<40).map { y in shot.pixel(x, y) } }.filter { $0 == 0xFFFFFF }
            #expect(white.count > 40, "the W drew \(white.count) white pixels")
            let yellow = (200..<236).flatMap { x in (4..<44).map { y in shot.pixel(x, y) } }.filter { (pixel: UInt32) -> Bool in
                let red = pixel >> 16
                let green = (pixel >> 8) & 0xFF
                let blue = pixel & 0xFF
                return red > 0xC0 && green > 0x90 && blue < 0x60
            }
            #expect(yellow.count > 100, "the emoji drew \(yellow.count) yellow pixels")
            surface.destroy()
        }

        /// Starts waybar (30 px, green, in the top layer) and foot, waits until foot sits under
        /// the bar, then shows a banner `height` px tall in `layer`; the screenshot once foot has
        /// moved down by the banner too and the screen shows the banner's colour at `row`. (sway
        /// moves a window on screen only once it has redrawn at its new size: until then foot
        /// covers a banner in the bottom layer.)
        static func bannerBesideWaybar(in layer: LayerSurface.Layer, height: Int, row: Int) throws -> Screenshot {
            let fixture = try Fixture()
            let bar = 30
            try TestSway.write(#"{"layer": "top", "position": "top", "height": 30, "modules-left": ["clock"], "modules-center": [], "modules-right": []}"#,
                               to: fixture.sway.directory + "/waybar.json")
            try TestSway.write("* { font-family: DejaVu Sans; font-size: 12px; } window#waybar { background: #00FF00; }",
                               to: fixture.sway.directory + "/waybar.css")
            let waybar = try fixture.sway.startClient(["waybar", "-c", fixture.sway.directory + "/waybar.json", "-s", fixture.sway.directory + "/waybar.css"])
            _ = try fixture.sway.startFoot()
            let underBar = try fixture.sway.awaitWindowRect(appID: "foot", timeout: 20) { $0.y == bar }
            #expect(underBar.height == 720 - bar, "waybar: \(waybar.standardError)")
            // waybar reserves its zone before it draws: the bar on screen first, then the banner.
            _ = try fixture.awaitScreenshot { $0.pixel(640, 0) == 0x00FF00 }

            let surface = try LayerSurface(connection: fixture.connection, output: fixture.connection.outputs.first, layer: layer, height: height)
            defer { surface.destroy() }
            try fixture.present(1, on: surface) { canvas, _ in canvas.fill(Self.bannerColour) }
            try fixture.sway.awaitWindowRect(appID: "foot") { $0.y == bar + height }
            return try fixture.awaitScreenshot { $0.pixel(640, row) == 0xCC3311 }
        }

        @Test(.needsProgram("/usr/bin/waybar", package: "waybar"))
        func bannerInTheBottomLayerSitsUnderWaybar() throws {
            let shot = try Self.bannerBesideWaybar(in: .bottom, height: 40, row: 30)
            #expect(shot.pixel(640, 0) == 0x00FF00)
            #expect(shot.pixel(640, 29) == 0x00FF00)
            #expect(shot.pixel(640, 30) == 0xCC3311)
            #expect(shot.pixel(640, 69) == 0xCC3311)
            #expect(shot.pixel(640, 70) != 0xCC3311)
        }

        /// sway 1.7 puts the newest surface of a layer nearest the edge: a banner in waybar's
        /// layer sits above the bar and pushes it down (the issue expected it under the bar).
        @Test(.needsProgram("/usr/bin/waybar", package: "waybar"))
        func bannerInTheTopLayerPushesWaybarDown() throws {
            let shot = try Self.bannerBesideWaybar(in: .top, height: 40, row: 0)
            #expect(shot.pixel(640, 0) == 0xCC3311)
            #expect(shot.pixel(640, 39) == 0xCC3311)
            #expect(shot.pixel(640, 40) == 0x00FF00)
            #expect(shot.pixel(640, 69) == 0x00FF00)
        }

        @Test func outputsAreReportedByNameAndSizeAndNewOnesArrive() throws {
            let fixture = try Fixture()
            let first = try #require(fixture.connection.outputs.first)
            #expect(first.name == "HEADLESS-1")
            #expect(first.description?.isEmpty == false)
            #expect((first.pixelWidth, first.pixelHeight, first.scale) == (1280, 720, 1))
            var added: [String] = []
            fixture.connection.onOutputAdded = { added.append($0.name ?? "?") }
            try fixture.sway.swaymsg(["create_output"])
            let arrived = try fixture.serve { added == ["HEADLESS-2"] }
            #expect(arrived, "outputs added: \(added)")
            #expect(fixture.connection.outputs.map(\.name) == ["HEADLESS-1", "HEADLESS-2"])
        }

        /// A sway nested in another with two outputs, each a window of the outer one: closing
        /// the second window unplugs that output (a headless sway 1.7 can neither remove nor
        /// disable one). The connection reports it gone and the banner's surface on it gets
        /// `closed`; the other output stays.
        @Test func unpluggedOutputIsReportedAndItsSurfaceClosed() throws {
            let outer = try TestSway()
            let nested = try TestSway(nestedIn: outer, outputs: 2)
            let connection = try WaylandConnection(displayName: nested.socketPath)
            let names = connection.outputs.map(\.name)
            try #require(names == ["WL-1", "WL-2"], "outputs: \(names)")
            let fixture = Fixture(sway: nested, connection: connection)
            let second = try #require(connection.outputs.last)
            let surface = try LayerSurface(connection: connection, output: second, layer: .top, height: 40)
            var closed = false
            var removed: [String] = []
            surface.onClosed = { closed = true }
            connection.onOutputRemoved = { removed.append($0.name ?? "?") }
            try fixture.present(1, on: surface) { canvas, _ in canvas.fill(Self.bannerColour) }

            try outer.swaymsg(["[title=\".*WL-2\"] kill"])
            #expect(try fixture.serve { closed && removed == ["WL-2"] }, "closed: \(closed), removed: \(removed)")
            #expect(connection.outputs.map(\.name) == ["WL-1"])
            surface.destroy()
            // A banner asked for on it afterwards is refused, not sent with a freed wl_output.
            #expect(second.isGone)
            #expect(throws: WaylandError.outputGone("WL-2")) {
                try LayerSurface(connection: connection, output: second, layer: .top, height: 40)
            }
        }

        /// A new mode gives the surface a new width (the compact rule's input) and a frame drawn
        /// after it fills the new width; the zone stays.
        @Test func modeChangeResizesTheSurface() throws {
            let fixture = try Fixture()
            let output = try #require(fixture.connection.outputs.first)
            let surface = try LayerSurface(connection: fixture.connection, output: output, layer: .top, height: 40)
            var resized = 0
            surface.onResize = { resized += 1 }
            try fixture.present(1, on: surface) { canvas, _ in canvas.fill(Self.bannerColour) }
            #expect(surface.pixelWidth == 1280)

            try fixture.sway.swaymsg(["output HEADLESS-1 resolution 1024x768"])
            #expect(try fixture.serve { resized == 1 && output.pixelWidth == 1024 }, "resized \(resized) times, output \(output.pixelWidth) wide")
            var drawnWidth = 0
            try fixture.present(1, on: surface) { canvas, _ in
                drawnWidth = canvas.width
                canvas.fill(Self.bannerColour)
            }
            #expect(drawnWidth == 1024)
            let shot = try fixture.sway.screenshot()
            #expect(shot.width == 1024)
            #expect(shot.pixel(1023, 39) == 0xCC3311)
            surface.destroy()
        }

        /// An animation that asks for its next frame from each frame is paced by the compositor:
        /// every frame after the first is drawn on a frame callback of its own, each stamped with
        /// a later time on the compositor's clock (one frame per compositor frame, never two).
        @Test func framesArePacedOnePerCompositorFrame() throws {
            let fixture = try Fixture()
            let surface = try LayerSurface(connection: fixture.connection, output: nil, layer: .top, height: 40)
            var times: [UInt32?] = []
            try fixture.present(20, on: surface) { canvas, frame in
                times.append(surface.lastFrameTime)
                canvas.fill(RGBA(red: Double(frame) / 20, green: 0, blue: 0))
            }
            let stamped = times.dropFirst().compactMap { $0 }
            #expect(stamped.count == times.count - 1, "frames drawn without a callback: \(times)")
            #expect(zip(stamped, stamped.dropFirst()).allSatisfy { $0 < $1 }, "callback times: \(stamped)")
            surface.destroy()
        }

        /// Once its frames are drawn the surface asks the compositor for nothing: the last frame
        /// callback is answered and no other is asked for, however many round trips pass.
        @Test func idleSurfaceAsksForNoFrames() throws {
            let fixture = try Fixture()
            let surface = try LayerSurface(connection: fixture.connection, output: nil, layer: .top, height: 40)
            try fixture.present(5, on: surface) { canvas, frame in canvas.fill(RGBA(red: Double(frame) / 5, green: 0, blue: 0)) }
            #expect(try fixture.serve { surface.frameCallback == nil })
            let committed = surface.framesCommitted
            for _ in 0..<5 { try fixture.connection.roundtrip() }
            #expect(surface.framesCommitted == committed)
            #expect(surface.frameCallback == nil)
            surface.destroy()
        }

        /// A surface the compositor places (no output asked for) learns its output's scale only
        /// once shown there: it asks for a frame at 2x then, and one for the new scale when the
        /// output's scale changes.
        @Test func surfaceRedrawsWhenItsScaleChanges() throws {
            let fixture = try Fixture(scale: 2)
            let surface = try LayerSurface(connection: fixture.connection, output: nil, layer: .top, height: 40)
            var resized = 0
            surface.onResize = { resized += 1 }
            var sizes: [[Int]] = []
            let draw = { (canvas: PixmanCanvas, _: Int) in
                sizes.append([canvas.width, canvas.height])
                canvas.fill(Self.bannerColour)
            }
            try fixture.present(1, on: surface, draw: draw)
            #expect(try fixture.serve { resized == 1 }, "resized \(resized) times")
            try fixture.present(1, on: surface, draw: draw)
            // The output is 640 logical pixels wide at 2x.
            #expect(sizes.last == [1280, 80])

            try fixture.sway.swaymsg(["output HEADLESS-1 scale 1"])
            #expect(try fixture.serve { resized == 2 }, "resized \(resized) times")
            try fixture.present(1, on: surface, draw: draw)
            #expect(sizes.last == [1280, 40])
            let shot = try fixture.sway.screenshot()
            #expect(shot.pixel(640, 39) == 0xCC3311)
            #expect(shot.pixel(640, 40) == 0x336699)
            surface.destroy()
        }

        @Test func integerScaleDrawsAtTheOutputsPixels() throws {
            let fixture = try Fixture(scale: 2)
            let output = try #require(fixture.connection.outputs.first)
            #expect(output.scale == 2)
            let height = 30
            let surface = try LayerSurface(connection: fixture.connection, output: output, layer: .overlay, height: height)
            var canvasSize: (Int, Int)?
            try fixture.present(1, on: surface) { canvas, _ in
                canvasSize = (canvas.width, canvas.height)
                canvas.fill(Self.bannerColour)
                // One buffer pixel row, the last: a half logical pixel only a 2x buffer can hold.
                canvas.fill(PixelRect(x: 0, y: canvas.height - 1, width: canvas.width, height: 1), with: RGBA(hex: 0x00FF00))
            }
            #expect(canvasSize.map { [$0.0, $0.1] } == [1280, 60])
            let shot = try fixture.sway.screenshot()
            #expect(shot.pixel(640, 58) == 0xCC3311)
            #expect(shot.pixel(640, 59) == 0x00FF00)
            #expect(shot.pixel(640, 60) == 0x336699)
            surface.destroy()
        }

        /// A virtual pointer gives the headless seat a pointer; sway's own commands move and
        /// click it: the surface under it gets enter and the click in buffer pixels (2x here).
        @Test func pointerOnTheSurfaceIsReportedInBufferPixels() throws {
            let fixture = try Fixture(scale: 2)
            let device = try VirtualPointer(socketPath: fixture.sway.socketPath)
            defer { withExtendedLifetime(device) {} }
            let surface = try LayerSurface(connection: fixture.connection, output: nil, layer: .top, height: 30)
            var events: [PointerEvent] = []
            surface.onPointer = { events.append($0) }
            try fixture.present(1, on: surface) { canvas, _ in canvas.fill(Self.bannerColour) }
            try fixture.sway.swaymsg(["seat seat0 cursor set 100 10"])
            try fixture.sway.swaymsg(["seat seat0 cursor press button1"])
            try fixture.sway.swaymsg(["seat seat0 cursor release button1"])
            let clicked = try fixture.serve { events.contains(.button(code: 0x110, pressed: false, x: 200, y: 20)) }
            #expect(clicked, "events: \(events)")
            #expect(events.first.map { if case .entered = $0 { true } else { false } } == true, "events: \(events)")
            #expect(events.contains(.button(code: 0x110, pressed: true, x: 200, y: 20)))
            surface.destroy()
        }

        /// What a banner in `layer` looks like with swaylock (solid black) started before or
        /// after it: its top row in a screenshot once the lock screen covers the desktop, and
        /// whether the compositor still paces its frames (a frame asked for gets drawn).
        struct LockedBanner {
            var topRow: UInt32
            var drawsFramesWhileLocked: Bool
        }

        static func bannerUnderSwaylock(in layer: LayerSurface.Layer, bannerFirst: Bool) throws -> LockedBanner {
            let fixture = try Fixture()
            var surface: LayerSurface?
            var draws = 0
            func draw(_ canvas: PixmanCanvas) {
                draws += 1
                canvas.fill(Self.bannerColour)
            }
            func show() throws {
                let banner = try LayerSurface(connection: fixture.connection, output: nil, layer: layer, height: 40)
                banner.requestFrame(draw: draw)
                try #require(try fixture.serve { draws == 1 })
                surface = banner
            }
            if bannerFirst { try show() }
            let locker = try fixture.sway.startClient(["swaylock", "--color", "000000"])
            var shot = try fixture.sway.screenshot()
            let locked = try fixture.serve(timeout: 20) {
                shot = try fixture.sway.screenshot()
                return shot.pixel(640, 400) == 0x000000
            }
            try #require(locked, "swaylock never covered the desktop: \(locker.standardError)")
            if !bannerFirst {
                try show()
                shot = try fixture.sway.screenshot()
            }
            // Three frames asked for one after another, each drawn once the compositor answers
            // the last one's frame callback, if it does: round trips and a screenshot (a frame
            // of sway's) let it answer what it will. The first may go out at once.
            let before = draws
            for _ in 0..<3 {
                surface?.requestFrame(draw: draw)
                try fixture.connection.roundtrip()
                _ = try fixture.sway.screenshot()
                try fixture.connection.roundtrip()
            }
            surface?.destroy()
            return LockedBanner(topRow: shot.pixel(640, 10), drawsFramesWhileLocked: draws - before > 1)
        }

        /// sway 1.7 neither draws nor sends frame callbacks to anything under an opaque overlay
        /// surface such as swaylock's: a banner in the top layer is hidden and stops drawing
        /// (no wakeups) while the session is locked, whenever it came.
        @Test(.needsProgram("/usr/bin/swaylock", package: "swaylock"), arguments: [true, false])
        func swaylockHidesAndPausesABannerInTheTopLayer(bannerFirst: Bool) throws {
            let banner = try Self.bannerUnderSwaylock(in: .top, bannerFirst: bannerFirst)
            #expect(banner.topRow == 0x000000)
            #expect(!banner.drawsFramesWhileLocked)
        }

        /// sway 1.7 has no ext-session-lock: swaylock 1.7 locks with overlay layer surfaces and
        /// an input inhibitor, and sway draws the older surfaces of a layer over the newer ones.
        /// So a banner in the overlay layer shown before the lock stays over the lock screen
        /// (the owner must not leave one there); one shown during the lock is under it.
        @Test(.needsProgram("/usr/bin/swaylock", package: "swaylock"))
        func overlayBannerShownBeforeSwaylockStaysOverTheLockScreen() throws {
            let before = try Self.bannerUnderSwaylock(in: .overlay, bannerFirst: true)
            #expect(before.topRow == 0xCC3311)
            #expect(before.drawsFramesWhileLocked)
            #expect(try Self.bannerUnderSwaylock(in: .overlay, bannerFirst: false).topRow == 0x000000)
        }

        /// A frame asked for from inside `draw` (an animation's next frame) is not drawn into
        /// the buffer being drawn: it waits for the compositor, and comes.
        @Test func frameAskedForInsideDrawWaitsForTheCompositor() throws {
            let fixture = try Fixture()
            let surface = try LayerSurface(connection: fixture.connection, output: nil, layer: .top, height: 40)
            var draws = 0
            var drawnDuringFirst = 0
            surface.requestFrame { canvas in
                draws += 1
                canvas.fill(Self.bannerColour)
                surface.requestFrame { _ in draws += 1 }
                drawnDuringFirst = draws
            }
            #expect(try fixture.serve { draws == 2 })
            #expect(drawnDuringFirst == 1)
            surface.destroy()
        }

        @Test(arguments: [0, -1, LayerSurface.maximumHeight + 1])
        func heightOutsideTheRangeIsATypedError(height: Int) throws {
            let fixture = try Fixture()
            #expect(throws: WaylandError.invalidHeight(height)) {
                try LayerSurface(connection: fixture.connection, output: nil, layer: .top, height: height)
            }
        }

        /// A compositor that goes away (a crash) ends the connection with one typed error from
        /// `dispatch`; the surface can still be destroyed, and nothing traps.
        @Test func compositorGoneIsConnectionLost() throws {
            let fixture = try Fixture()
            let surface = try LayerSurface(connection: fixture.connection, output: nil, layer: .top, height: 40)
            try fixture.present(1, on: surface) { canvas, _ in canvas.fill(Self.bannerColour) }
            fixture.sway.kill()
            var lost: WaylandError?
            let deadline = monotonicSeconds() + 10
            while lost == nil, monotonicSeconds() < deadline {
                do { try fixture.connection.dispatch(until: { false }, timeout: 0.05) } catch let error as WaylandError { lost = error }
            }
            guard case .connectionLost = lost else {
                Issue.record("dispatch did not report the lost connection: \(String(describing: lost))")
                return
            }
            surface.requestFrame { canvas in canvas.fill(Self.bannerColour) }
            surface.destroy()
            #expect(throws: WaylandError.self) { try fixture.connection.roundtrip() }
        }

        /// sway's `cursor press button4`/`button5` scroll: the surface gets them as vertical
        /// scrolls, up negative and down positive.
        @Test func wheelOnTheSurfaceIsReportedAsScrolls() throws {
            let fixture = try Fixture()
            let device = try VirtualPointer(socketPath: fixture.sway.socketPath)
            defer { withExtendedLifetime(device) {} }
            let surface = try LayerSurface(connection: fixture.connection, output: nil, layer: .top, height: 30)
            var scrolls: [Double] = []
            surface.onPointer = { event in
                if case .scrolled(let vertical, _) = event { scrolls.append(vertical) }
            }
            try fixture.present(1, on: surface) { canvas, _ in canvas.fill(Self.bannerColour) }
            try fixture.sway.swaymsg(["seat seat0 cursor set 100 10"])
            try fixture.sway.swaymsg(["seat seat0 cursor press button4"])
            try fixture.sway.swaymsg(["seat seat0 cursor press button5"])
            #expect(try fixture.serve { scrolls.count >= 2 }, "scrolls: \(scrolls)")
            #expect(scrolls.first.map { $0 < 0 } == true && scrolls.last.map { $0 > 0 } == true, "scrolls: \(scrolls)")
            surface.destroy()
        }

        @Test func noCompositorIsOneLine() {
            #expect(throws: WaylandError.cannotConnect(display: "/nonexistent/wayland-9")) {
                try WaylandConnection(displayName: "/nonexistent/wayland-9")
            }
            #expect(!WaylandError.noLayerShell.description.contains("\n"))
        }

        /// cage, like GNOME's Mutter, has no layer-shell: the connection says so in one typed
        /// error rather than making a window the compositor would tile.
        @Test(.needsProgram("/usr/bin/cage", package: "cage"))
        func compositorWithoutLayerShellIsOneTypedError() throws {
            let cage = try TestCage()
            #expect(throws: WaylandError.noLayerShell) { try WaylandConnection(displayName: cage.socketPath) }
        }
    }
}
