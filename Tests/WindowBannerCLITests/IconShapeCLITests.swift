// `--icon` and `--corner-radius` from `show` and `run`: a relative icon path is found from the
// caller's directory and a theme name in the caller's XDG_DATA_DIRS (the owner runs elsewhere,
// with neither); a missing icon is one warning and the banner shows; the built-in styles find
// window-banner's own icons in the source tree and, installed, under ../share; rounded corners
// show the desktop and a click there is no click; bad values exit 64 with one line.

import Foundation
import Glibc
import ProcessTestSupport
import Testing
import X11TestSupport

extension WindowBannerCLITests {
    @Suite("show and run: icons and rounded corners")
    struct IconShapeCLITests {
        static let blue = Pixel(hex: 0x0000FF)
        static let green = Pixel(hex: 0x00FF00)
        static let white = Pixel(hex: 0xFFFFFF)
        static let desktop = Pixel(hex: 0x123456)
        static let red = Pixel(hex: 0xFF3B30)

        /// A scratch directory, removed with the test's scene.
        final class Scratch {
            let path: String
            init() throws {
                var template = Array("/tmp/wb-icons-XXXXXX".utf8CString)
                guard let made = mkdtemp(&template) else { throw TestFailure("mkdtemp failed") }
                path = String(cString: made)
            }
            deinit { _ = try? Subprocess.run("/bin/rm", ["-rf", path]) }
        }

        /// `window-banner arguments…` (or `executable`), run from `directory` with `extra` in
        /// its environment, to completion.
        static func run(_ owner: OwnerFixture, _ arguments: [String], in directory: String = "/",
                        environment extra: [String: String] = [:], executable: String = windowBannerExecutable()) throws -> OwnerFixture.Outcome {
            let process = try Subprocess(
                executable: "/bin/sh", arguments: ["-c", "cd \"$1\" && shift && exec \"$@\"", "sh", directory, executable] + arguments,
                environment: owner.fixture.environment(.desktop).merging(extra) { $1 })
            let status = process.waitForExit(timeout: 20)
            return OwnerFixture.Outcome(status: status, output: process.standardOutput, error: process.standardError)
        }

        /// The top 80 rows of the screen.
        static func banner(_ owner: OwnerFixture) throws -> Screenshot {
            try #require(owner.observer.screenshot(Rect(x: 0, y: 0, width: 1280, height: 80)))
        }

        @Test func relativeIconPathIsFoundFromTheCallersDirectory() throws {
            let owner = try OwnerFixture()
            let scratch = try Scratch()
            try owner.fixture.desktop.run(["convert", "-size", "64x64", "xc:#0000ff", "PNG32:" + scratch.path + "/mine.png"])
            // The owner starts elsewhere, so only the request's directory finds the file.
            try owner.show(["--title", "First", "--compact", "never"])
            let outcome = try Self.run(owner, ["show", "--title", "Relative", "--compact", "never", "--icon", "mine.png"], in: scratch.path)
            #expect(outcome.status == 0)
            #expect(outcome.error == "")
            #expect(owner.observer.wait { (try? Self.banner(owner).count(matching: Self.blue, tolerance: 1)) ?? 0 > 300 })
            let shot = try Self.banner(owner)
            let iconEnd = try #require(shot.columns(matching: Self.blue, tolerance: 1).last)
            let titleStart = try #require(shot.columns(matching: Self.white, tolerance: 60).first)
            #expect(iconEnd < titleStart)
        }

        @Test func themeNameIsLookedUpInTheCallersDataDirectories() throws {
            let owner = try OwnerFixture()
            let scratch = try Scratch()
            let icon = scratch.path + "/icons/hicolor/32x32/apps/wb-cli-icon.png"
            try owner.fixture.desktop.run(["mkdir", "-p", scratch.path + "/icons/hicolor/32x32/apps"])
            try owner.fixture.desktop.run(["convert", "-size", "32x32", "xc:#00ff00", "PNG32:" + icon])
            try owner.show(["--title", "First", "--compact", "never"])
            let outcome = try Self.run(owner, ["show", "--title", "Themed", "--compact", "never", "--icon", "wb-cli-icon"],
                                       environment: ["XDG_DATA_DIRS": scratch.path])
            #expect(outcome.status == 0)
            #expect(outcome.error == "")
            #expect(owner.observer.wait { (try? Self.banner(owner).count(matching: Self.green, tolerance: 1)) ?? 0 > 300 })
        }

        @Test func missingIconIsOneWarningAndTheBannerShows() throws {
            let owner = try OwnerFixture()
            let outcome = try owner.run(["show", "--title", "No icon", "--compact", "never", "--icon", "wb-no-such-icon"])
            #expect(outcome.status == 0)
            #expect(outcome.error == "window-banner: warning: icon 'wb-no-such-icon' not found (no wb-no-such-icon.png in the "
                + "Adwaita or hicolor icon theme); showing the banner without it\n")
            #expect(owner.fixture.waitForBanner(height: 80))
            #expect(try owner.status().title == "No icon")
            let unreadable = try owner.run(["show", "--title", "Still", "--compact", "never", "--icon", "/nonexistent/x.png"])
            #expect(unreadable.status == 0)
            #expect(unreadable.error == "window-banner: warning: cannot read icon '/nonexistent/x.png': No such file or directory; showing the banner without it\n")
            #expect(try owner.status().title == "Still")
        }

        @Test func builtInStylesShowWindowBannersOwnIcons() throws {
            let owner = try OwnerFixture()
            let plain = try owner.run(["show", "--style", "offline", "--compact", "never", "--icon", "none"])
            #expect(plain.status == 0)
            #expect(owner.fixture.waitForBanner(height: 80))
            // The owner puts the banner back above its dock once it hears the WM mapped the dock.
            #expect(owner.observer.wait { (try? Self.banner(owner).columns(matching: Self.white, tolerance: 60).first) != nil })
            let withoutIcon = try #require(try Self.banner(owner).columns(matching: Self.white, tolerance: 60).first)
            let styled = try owner.run(["show", "--style", "offline", "--compact", "never"])
            #expect(styled.status == 0)
            #expect(styled.error == "")
            // The icon (a white ring) now leads the centred group: white starts further left.
            #expect(owner.observer.wait {
                ((try? Self.banner(owner).columns(matching: Self.white, tolerance: 60).first) ?? .max) <= withoutIcon - 10
            })
        }

        @Test func anInstalledBinaryFindsItsIconsUnderShare() throws {
            let owner = try OwnerFixture()
            let prefix = try Scratch()
            let binary = prefix.path + "/bin/window-banner"
            let icons = prefix.path + "/share/window-banner/icons"
            let resources = String(#filePath.split(separator: "/", omittingEmptySubsequences: false).dropLast(3).joined(separator: "/")) + "/Resources/icons"
            try owner.fixture.desktop.run(["mkdir", "-p", prefix.path + "/bin", icons])
            // Installed as `make install` does: the three binaries side by side.
            for program in ["window-banner", "window-banner-full", "window-banner-config"] {
                try owner.fixture.desktop.run(["cp", windowBannerExecutable(program), prefix.path + "/bin/" + program])
            }
            try owner.fixture.desktop.run(["cp", resources + "/window-banner-online.png", icons])
            let found = try Self.run(owner, ["show", "--style", "online", "--compact", "never", "--sticky"], executable: binary)
            #expect(found.status == 0)
            #expect(found.error == "")
            #expect(owner.fixture.waitForBanner(height: 80))
            // Without the file, the same binary warns, and the banner still shows.
            try owner.fixture.desktop.run(["rm", icons + "/window-banner-online.png"])
            let missing = try Self.run(owner, ["show", "--style", "online", "--title", "Again", "--compact", "never", "--sticky"], executable: binary)
            #expect(missing.status == 0)
            #expect(missing.error.hasPrefix("window-banner: warning: icon 'window-banner-online' not found"))
            #expect(try owner.status().title == "Again")
        }

        @Test func roundedCornersShowTheDesktopAndAClickThereIsNoClick() throws {
            let owner = try OwnerFixture()
            try owner.fixture.desktop.run(["xsetroot", "-solid", "#123456"])
            let waiting = try owner.fixture.launch(["show", "--title", "Round", "--background", "systemRed", "--compact", "never",
                                                    "--corner-radius", "16", "--close-button", "--wait"])
            #expect(owner.fixture.waitForBanner(height: 80))
            // The owner cuts the corners (what shows, then what takes clicks) after it has moved
            // the banner into place, and the WM maps the dock in its own time: await both.
            #expect(owner.observer.wait {
                guard let shot = try? Self.banner(owner), let window = owner.observer.windows(named: "window-banner").first else { return false }
                return shot.pixel(x: 0, y: 79) == Self.desktop && shot.pixel(x: 1279, y: 79) == Self.desktop
                    && shot.pixel(x: 640, y: 79) == Self.red && shot.pixel(x: 0, y: 0) == Self.red
                    && owner.observer.inputShape(of: window) == owner.observer.boundingShape(of: window)
            })
            let shot = try Self.banner(owner)
            #expect(shot.pixel(x: 0, y: 79) == Self.desktop && shot.pixel(x: 1279, y: 79) == Self.desktop)
            #expect(shot.pixel(x: 640, y: 79) == Self.red && shot.pixel(x: 0, y: 0) == Self.red)
            // Both cut corners, then the ✕: the banner heard only the last click.
            try owner.fixture.desktop.run(["xdotool", "mousemove", "2", "77", "click", "1", "mousemove", "1277", "78", "click", "1",
                                           "mousemove", "1260", "40", "click", "1"])
            #expect(waiting.waitForExit() == 13)
            #expect(waiting.standardOutput == "closed\n")
            #expect(owner.fixture.waitForRestoredDesktop())
        }

        @Test(arguments: [
            (["--corner-radius", "-1"], "window-banner: bad corner radius '-1' (points, 0 to 1000; over half the banner's height draws as half)\n"),
            (["--corner-radius", "nan"], "window-banner: bad corner radius 'nan' (points, 0 to 1000; over half the banner's height draws as half)\n"),
            (["--corner-radius", "1001"], "window-banner: bad corner radius '1001' (points, 0 to 1000; over half the banner's height draws as half)\n"),
            (["--corner-radius", "round"], "window-banner: bad corner radius 'round' (points, 0 to 1000; over half the banner's height draws as half)\n"),
            (["--icon", ""], "window-banner: bad icon '' (a PNG file, an icon theme name, or none)\n"),
            (["--icon", "a\u{1}b"], "window-banner: bad icon 'a\\u{1}b' (a PNG file, an icon theme name, or none)\n"),
        ])
        func badValuesExitSixtyFourWithOneLine(arguments: [String], message: String) throws {
            let owner = try OwnerFixture()
            try owner.show(["--title", "Visible", "--compact", "never"])
            let shown = try owner.run(["show", "--title", "Refused"] + arguments)
            #expect(shown.status == 64)
            #expect(shown.error == message)
            #expect(try owner.status().title == "Visible")
            owner.fixture.startRecordingMaps()
            let ran = try owner.run(["run", "--title", "Refused"] + arguments)
            #expect(ran.status == 64)
            #expect(ran.error == message)
            #expect(owner.fixture.mappedWindows().isEmpty)
        }

        @Test func runDrawsTheIconAndWarnsAboutAMissingOne() throws {
            let owner = try OwnerFixture()
            let scratch = try Scratch()
            try owner.fixture.desktop.run(["convert", "-size", "64x64", "xc:#0000ff", "PNG32:" + scratch.path + "/run.png"])
            let drawn = try owner.fixture.launch(["run", "--title", "Run", "--compact", "never", "--icon", scratch.path + "/run.png", "--corner-radius", "12"])
            #expect(owner.fixture.waitForBanner(height: 80))
            #expect(owner.observer.wait { (try? Self.banner(owner).count(matching: Self.blue, tolerance: 1)) ?? 0 > 300 })
            drawn.signal(SIGTERM)
            #expect(drawn.waitForExit() == 0)
            #expect(drawn.standardError == "")
            #expect(owner.fixture.waitForRestoredDesktop())

            let warned = try owner.fixture.launch(["run", "--title", "Run", "--compact", "never", "--icon", "wb-no-such-icon"])
            #expect(owner.fixture.waitForBanner(height: 80))
            warned.signal(SIGTERM)
            #expect(warned.waitForExit() == 0)
            #expect(warned.standardError == "window-banner: warning: icon 'wb-no-such-icon' not found (no wb-no-such-icon.png in the "
                + "Adwaita or hicolor icon theme); showing the banner without it\n")
        }
    }
}
