// A 4096x4096 PNG icon through a real owner: drawn at the size of the title's line, and the
// owner's memory (its anonymous memory RssAnon — where decoded pixels would be — and its peak
// VmHWM, from /proc/PID/status) stays within a few MiB of what it was before — the file is streamed and each row filtered into the drawn square as it
// arrives, never held at full size (that alone would be 64 MiB). Icons past the limits are
// refused with one warning line naming the file, and the banner shows without them.

import Foundation
import Glibc
import ProcessTestSupport
import Testing
import X11TestSupport

extension WindowBannerCLITests {
    @Suite("show: large icons")
    struct LargeIconTests {
        /// How far the owner's memory may move for a 4096x4096 icon.
        static let allowedGrowthKiB = 4 * 1024

        /// A field of /proc/PID/status in KiB (`RssAnon`, `VmHWM`). Not VmRSS: after its first
        /// banner the owner unmaps the file pages only its start-up used, and maps back those
        /// the next banner's code uses (the PNG decoder's, the cross-fade's) — no memory of the icon's.
        static func statusKiB(_ pid: pid_t, _ field: String) -> Int {
            guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
                  let line = text.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }) else { return 0 }
            return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
        }

        @Test func aHugeIconIsDrawnSmallAndTheOwnersMemoryStaysPut() throws {
            let owner = try OwnerFixture()
            let path = owner.fixture.desktop.home + "/huge.png"
            // Left half blue, right half green: 4096x4096 pixels, a small file.
            try owner.fixture.desktop.run(["convert", "-size", "2048x4096", "xc:#0000ff", "-size", "2048x4096", "xc:#00ff00", "+append", "PNG32:" + path])
            try owner.show(["--title", "Idle", "--compact", "never"])
            #expect(owner.fixture.waitForBanner())
            let pid = try #require(owner.ownerProcesses().first)
            let before = (rss: Self.statusKiB(pid, "RssAnon"), peak: Self.statusKiB(pid, "VmHWM"))
            try owner.show(["--title", "Huge icon", "--compact", "never", "--icon", path])
            let blue = Pixel(hex: 0x0000FF)
            let green = Pixel(hex: 0x00FF00)
            #expect(owner.observer.wait {
                guard let shot = owner.observer.screenshot(Rect(x: 0, y: 0, width: 1280, height: 80)) else { return false }
                return shot.count(matching: blue, tolerance: 2) > 100 && shot.count(matching: green, tolerance: 2) > 100
            })
            let shot = try #require(owner.observer.screenshot(Rect(x: 0, y: 0, width: 1280, height: 80)))
            // Drawn as a square as tall as the title's line (tens of pixels), blue left of green.
            let blueColumns = shot.columns(matching: blue, tolerance: 2)
            let greenColumns = shot.columns(matching: green, tolerance: 2)
            let left = try #require(blueColumns.first)
            let right = try #require(greenColumns.last)
            #expect((16...64).contains(right - left + 1), "icon \(left)…\(right)")
            #expect((blueColumns.last ?? 0) < (greenColumns.first ?? 0))
            let after = (rss: Self.statusKiB(pid, "RssAnon"), peak: Self.statusKiB(pid, "VmHWM"))
            print("owner with a 4096x4096 icon: RssAnon \(before.rss) → \(after.rss) KiB, VmHWM \(before.peak) → \(after.peak) KiB")
            #expect(after.rss - before.rss <= Self.allowedGrowthKiB, "RssAnon \(before.rss) → \(after.rss) KiB")
            #expect(after.peak - before.peak <= Self.allowedGrowthKiB, "VmHWM \(before.peak) → \(after.peak) KiB")
            #expect(try owner.status().title == "Huge icon")
        }

        @Test func iconsPastTheLimitsAreOneWarningNamingTheFile() throws {
            let owner = try OwnerFixture()
            let home = owner.fixture.desktop.home
            try owner.fixture.desktop.run(["convert", "-size", "4097x4097", "xc:#0000ff", "PNG24:" + home + "/too-many-pixels.png"])
            try owner.fixture.desktop.run(["convert", "-size", "8193x2", "xc:#0000ff", "PNG24:" + home + "/too-wide.png"])
            try owner.fixture.desktop.run(["truncate", "-s", "17M", home + "/too-long.png"])
            try owner.fixture.desktop.run(["convert", "-size", "64x64", "plasma:", "PNG24:" + home + "/whole.png"])
            try owner.fixture.desktop.run(["sh", "-c", "head -c 2000 \"$1\" > \"$2\"", "sh", home + "/whole.png", home + "/cut.png"])
            // One byte of the compressed pixels changed (every bit flipped, so it differs whatever
            // the random plasma made it): the IDAT chunk's CRC no longer matches.
            try owner.fixture.desktop.run(["python3", "-c", """
                import sys
                data = bytearray(open(sys.argv[1], 'rb').read())
                at = data.index(b'IDAT') + 20
                data[at] ^= 0xFF
                open(sys.argv[2], 'wb').write(data)
                """, home + "/whole.png", home + "/damaged.png"])
            let cases: [(file: String, reason: String)] = [
                ("too-many-pixels.png", "4097x4097 px, over the 16777216 pixels icons are read up to"),
                ("too-wide.png", "8193x2 px, wider or taller than the 8192 px icons are read up to"),
                ("too-long.png", "17825792 bytes; icons of at most 16 MiB are read"),
                ("cut.png", "the file ends before the image does"),
                ("damaged.png", "damaged PNG data (libpng: IDAT: CRC error)"),
            ]
            for (file, reason) in cases {
                let outcome = try owner.run(["show", "--title", file, "--icon", home + "/" + file])
                #expect(outcome.status == 0)
                #expect(outcome.error == "window-banner: warning: cannot read icon '\(home)/\(file)': \(reason); showing the banner without it\n")
                #expect(try owner.status().title == file)
            }
        }
    }
}
