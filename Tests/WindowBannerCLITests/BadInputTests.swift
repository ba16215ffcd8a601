// A bad value is refused before anything reaches the screen: one line on stderr that names the
// value as the user wrote it, the documented exit code, and no banner, not even for a moment.

import Glibc
import Testing
import X11TestSupport

/// One way to call `run` wrongly and what the user must get back.
struct BadInput: Sendable, CustomTestStringConvertible {
    var arguments: [String]
    var display: Fixture.Display = .desktop
    var status: Int32
    /// The offending value, as written, which the message must quote.
    var value: String
    /// The whole first line of stderr, when it is fixed.
    var message: String?
    /// Further text the first line must contain.
    var mentions: [String] = []

    var testDescription: String {
        switch display {
        case .desktop: arguments.joined(separator: " ")
        case .unset: "DISPLAY unset"
        case .named(let name): "DISPLAY=\(name)"
        }
    }

    static let all: [BadInput] = [
        BadInput(arguments: ["--background", "nosuchcolour!"], status: 64, value: "nosuchcolour!"),
        BadInput(arguments: ["--background", "#12345"], status: 64, value: "#12345"),
        BadInput(arguments: ["--text-color", "#GGGGGG"], status: 64, value: "#GGGGGG"),
        // Plausible as an X11 name; only the server's colour database can refuse it.
        BadInput(arguments: ["--background", "chartreuse9"], status: 64, value: "chartreuse9"),
        BadInput(arguments: ["--height", "0"], status: 64, value: "0"),
        BadInput(arguments: ["--height", "-5"], status: 64, value: "-5"),
        BadInput(arguments: ["--height", "nan"], status: 64, value: "nan"),
        BadInput(arguments: ["--height", "inf"], status: 64, value: "inf"),
        BadInput(arguments: ["--height", "abc"], status: 64, value: "abc"),
        BadInput(arguments: ["--height", "100000"], status: 64, value: "100000"),
        BadInput(arguments: ["--title-top-inset", "-1"], status: 64, value: "-1"),
        BadInput(arguments: ["--font", "DejaVu Sans:size=abc"], status: 64, value: "DejaVu Sans:size=abc"),
        BadInput(arguments: ["--font", "Sans:weight=wobbly"], status: 64, value: "wobbly"),
        BadInput(arguments: ["--compact", "sideways"], status: 64, value: "sideways"),
        BadInput(arguments: ["--placement", "middle"], status: 64, value: "middle",
                 message: "window-banner: bad placement 'middle' (below-panels or screen-edge)"),
        BadInput(arguments: ["--fullscreen", "later"], status: 64, value: "later",
                 message: "window-banner: bad fullscreen policy 'later' (show or delay)"),
        BadInput(arguments: ["--direction", "sideways"], status: 64, value: "sideways",
                 message: "window-banner: bad direction 'sideways' (auto, ltr or rtl)"),
        BadInput(arguments: ["--politeness", "loud"], status: 64, value: "loud",
                 message: "window-banner: bad politeness 'loud' (assertive or polite)"),
        BadInput(arguments: ["--timeout", "-1"], status: 64, value: "-1"),
        BadInput(arguments: ["--timeout", "0"], status: 64, value: "0"),
        // Xvfb's only RandR monitor is called "screen".
        BadInput(arguments: ["--monitor", "nope"], status: 64, value: "nope", mentions: ["(available: screen)"]),
        // No session found either: the line says where it looked.
        BadInput(arguments: [], display: .unset, status: 69, value: "DISPLAY",
                 mentions: ["no display: DISPLAY and WAYLAND_DISPLAY are unset", "no owner answers in", "logind could not be asked"]),
        BadInput(arguments: [], display: .named(":987"), status: 69, value: ":987",
                 message: "window-banner: cannot open display ':987'"),
        BadInput(arguments: ["--display", ":986"], status: 69, value: ":986",
                 message: "window-banner: cannot open display ':986'"),
    ]
}

extension WindowBannerCLITests {
    @Suite("run: bad input")
    struct BadInputTests {
        @Test(arguments: BadInput.all)
        func badInputIsRefusedWithOneLineAndNoBanner(_ input: BadInput) throws {
            let fixture = try Fixture()
            fixture.startRecordingMaps()
            let banner = try fixture.launch(["run", "--title", "Never"] + input.arguments, display: input.display)
            #expect(banner.waitForExit() == input.status)
            let firstLine = banner.standardError.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
            #expect(firstLine.hasPrefix("window-banner: "))
            #expect(firstLine.contains(input.value))
            if let message = input.message { #expect(firstLine == message) }
            for mention in input.mentions { #expect(firstLine.contains(mention)) }
            #expect(fixture.mappedWindows() == [])
            #expect(fixture.observer.windows(named: "window-banner").isEmpty)
            #expect(fixture.observer.workAreas() == fixture.originalWorkAreas)
        }

        @Test func badValueDoesNotDisturbAVisibleBanner() throws {
            let fixture = try Fixture()
            let keep = try fixture.launch(["run", "--title", "Keep", "--compact", "never"])
            #expect(fixture.waitForBanner(height: 80))
            let keptWindows = fixture.observer.windows(named: "window-banner")
            #expect(keptWindows.count == 1)

            let refused = try fixture.launch(["run", "--background", "nosuchcolour!"])
            #expect(refused.waitForExit() == 64)
            #expect(refused.standardError.hasPrefix("window-banner: unknown colour 'nosuchcolour!'"))
            #expect(fixture.observer.windows(named: "window-banner") == keptWindows)
            #expect(fixture.observer.workAreas() == fixture.workAreas(shrunkBy: 80))
            #expect(fixture.bannerGeometry == Rect(x: 0, y: 0, width: 1280, height: 80))

            keep.signal(SIGTERM)
            #expect(keep.waitForExit() == 0)
            #expect(fixture.waitForRestoredDesktop())
        }
    }
}
