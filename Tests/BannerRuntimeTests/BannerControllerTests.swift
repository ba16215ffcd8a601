// The banner controller both backends share, driven like swift-nio's EmbeddedEventLoop: on a
// clock the test moves by hand, through a fake surface that records what the controller asks
// of it (real fonts and colours from the runtime, nothing of a display server). What a user
// would see is asserted as frames, milestones and dismissal reasons.

import BannerCore
import BannerRuntime
import EmbeddedTestSupport
import MonotonicClock
import Testing

/// One monitor's surface, as a backend's host would give it: 1280×800 at 96 DPI.
final class FakeSurface: BannerSurface {
    let resources = FakeResources()
    var compactGeometry = MonitorGeometry(x: 0, y: 0, width: 1280, height: 800)
    /// The width a banner's text is fitted to: `width` for a banner up to `tallBanner` px,
    /// `widthWhenTaller` above it (a side panel starting below the smaller banner's rows).
    var width = 1280
    var tallBanner = Int.max
    var widthWhenTaller = 1280
    /// The reserved heights the controller asked widths for, in order.
    private(set) var widthsAsked: [Int] = []
    func lookWidth(reservedHeight: Int) -> Int {
        widthsAsked.append(reservedHeight)
        return reservedHeight > tallBanner ? widthWhenTaller : width
    }
    var frameSlot: Double { 1.0 / 60 }
    var lookResources: any LookResources { resources }
    private(set) var framesNeeded = 0
    /// What the controller asked of the surface, in order: `draw`, `gone`, `schedule`.
    private(set) var calls: [String] = []
    private(set) var drawn: [ComposedFrame] = []
    func withLoadedIcon(_ appearance: TopBannerAppearance) -> TopBannerAppearance { appearance }
    func frameNeeded() { framesNeeded += 1 }
    func draw(_ frame: ComposedFrame) -> RenderedFrame? {
        calls.append("draw")
        drawn.append(frame)
        return frame.rendered(panelInset: 0)
    }
    func bannerGone() { calls.append("gone") }
    func scheduleFrame(after now: MonotonicTime) { calls.append("schedule") }
}

final class FakeResources: LookResources {
    let pixelsPerPoint = 1.0
    let fonts = FontLibrary(opener: FreeTypeFontOpener())
    let icons = IconLibrary(searchPath: .processDefault)
    deinit { fonts.closeAll() }
    func resolve(_ colour: BannerColor) throws(BannerValueError) -> RGBA {
        switch colour.value {
        case .rgba(let rgba): return rgba
        case .x11Name(let name): throw .colour(name)
        }
    }
}

@Suite("The banner controller, on a test clock")
struct BannerControllerTests {
    let clock = TestClock()
    let surface = FakeSurface()
    let controller: BannerController

    init() {
        controller = BannerController(surface: surface, timing: .standard, clock: { [clock] in clock.now })
        controller.compactPolicy = .never
    }

    func appearance(_ title: String, close: Bool = true, action: String? = nil) throws -> TopBannerAppearance {
        let builder = TopBannerConfigBuilder().title(title).closeButton(close)
        if let action { builder.action(action) { } }
        return try builder.build()
    }

    @Test func aBannerSlidesInOverTheSlideDurationAndOutAgain() throws {
        #expect(try controller.present(appearance("No Internet Connection")))
        #expect(surface.framesNeeded >= 1)
        #expect(controller.phase == .presenting)
        var milestones: [BannerPresentation.Milestone] = []
        controller.onMilestone = { milestones.append($0) }
        let start = controller.frameOrigin
        controller.renderFrame(at: start)
        #expect(milestones.isEmpty)
        #expect(surface.drawn.last?.frame.reveal == 0)
        controller.renderFrame(at: start + 0.25)
        #expect(milestones == [.presentationFinished])
        #expect(controller.phase == .presented)
        #expect(surface.drawn.last?.frame.reveal == 1)

        clock.advance(by: 5)
        controller.dismiss()
        #expect(controller.phase == .dismissing)
        controller.renderFrame(at: clock.now + 0.25)
        #expect(milestones == [.presentationFinished, .dismissalFinished])
        #expect(surface.calls.last == "gone")
        #expect(!controller.isBannerPresented)
    }

    /// The width is known before a frame is composed: the surface is asked for the width of the
    /// frame's reservation (the larger of two looks during a cross-fade), and each frame is
    /// composed once, at that width.
    @Test func eachFrameIsComposedOnceAtTheWidthOfItsReservation() throws {
        surface.tallBanner = 80
        surface.widthWhenTaller = 1000
        try controller.present(appearance("No Internet Connection"))
        let start = controller.frameOrigin
        controller.renderFrame(at: start + 0.25)
        #expect(surface.drawn.last?.content.width == 1280)
        #expect(surface.drawn.last?.new.titleX == (try controller.look(for: appearance("No Internet Connection")).titleX))

        let taller = try TopBannerConfigBuilder().title("Call in progress").height(100).closeButton(true).build()
        try controller.present(taller)
        let asked = surface.widthsAsked.count
        let drawn = surface.drawn.count
        controller.renderFrame(at: clock.now + 0.1)
        #expect(surface.drawn.count == drawn + 1)
        #expect(surface.widthsAsked.dropFirst(asked).first == 100)
        #expect(surface.drawn.last?.content.width == 1000)
        #expect(surface.drawn.last?.old?.height == 80)
        #expect(surface.drawn.last.map { $0.new.titleX < 500 } == true)
    }

    @Test func theSameLookTwiceDrawsNothingNew() throws {
        #expect(try controller.present(appearance("Back Online")))
        let asked = surface.framesNeeded
        #expect(try !controller.present(appearance("Back Online")))
        #expect(surface.framesNeeded == asked)
    }

    @Test func aBadColourLeavesTheBannerAndItsHandlersAsTheyWere() throws {
        var ran = false
        let first = TopBannerConfigBuilder().title("Upload").action("Pause") { ran = true }
        try controller.present(first.build(), actions: first.actionHandlers)
        var bad = try appearance("Other")
        bad.backgroundColor = try BannerColor(parsing: "nosuchcolour")
        #expect(throws: BannerValueError.self) { try controller.present(bad) }
        #expect(controller.appearance?.title == "Upload")
        #expect(controller.activate(.action))
        #expect(ran)
    }

    @Test func activateDoesWhatTheClickWouldAndSaysWhy() throws {
        var reasons: [BannerDismissReason] = []
        controller.onDismiss = { reasons.append($0) }
        try controller.present(appearance("Call in progress", close: false))
        // No ✕ and no action button: nothing to press.
        #expect(!controller.activate(.closed))
        #expect(!controller.activate(.action))
        #expect(controller.phase == .presenting)
        #expect(controller.activate(.clicked))
        #expect(reasons == [.clicked])
        #expect(controller.phase == .dismissing)
        // Already going: a second press changes nothing.
        #expect(!controller.activate(.clicked))
        #expect(reasons == [.clicked])
    }

    @Test func aClickOnTheBannerDismissesItAndAWheelUpSwipesItAway() throws {
        var reasons: [BannerDismissReason] = []
        controller.onDismiss = { reasons.append($0) }
        try controller.present(appearance("No Internet Connection", close: false))
        controller.pointerButton(.primary, pressed: true, x: 300, y: 20)
        controller.pointerButton(.primary, pressed: false, x: 300, y: 20)
        #expect(reasons == [.clicked])

        clock.advance(by: 1)
        try controller.present(appearance("Again", close: false))
        controller.pointerButton(.wheelUp, pressed: true, x: 300, y: 20)
        #expect(reasons == [.clicked, .swiped])
    }

    @Test func looksAreLaidOutAgainForANewWidth() throws {
        let look = try controller.look(for: appearance("A title"))
        #expect(try controller.look(for: appearance("A title")).hitAreas == look.hitAreas)
        surface.width = 640
        let narrow = try controller.look(for: appearance("A title"))
        #expect(narrow.hitAreas != look.hitAreas)
    }

    @Test func theCompactRuleFollowsTheSurfacesMonitor() throws {
        controller.compactPolicy = .auto
        let title = try appearance("No Internet Connection")
        let landscape = MonitorGeometry(x: 0, y: 0, width: 1280, height: 800)
        let portrait = MonitorGeometry(x: 0, y: 0, width: 800, height: 1280)
        surface.compactGeometry = landscape
        #expect(controller.isCompact)
        #expect(controller.effective(title) == title.compact)
        surface.compactGeometry = portrait
        #expect(!controller.isCompact)
        #expect(controller.effective(title) == title)
    }
}
