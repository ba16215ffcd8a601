// Thousands of present → update → dismiss cycles in one process: the memory the process holds
// and what its client holds on the X server (windows, pixmaps, pictures, GCs, glyph sets) must
// end where they started once the caches are warm. `make test` runs a bounded pass;
// `make soak` sets WINDOW_BANNER_SOAK_CYCLES=10000.

import BannerCore
@testable import BannerX11
import CX11
import Glibc
import Testing
import X11TestSupport

extension BannerX11Tests {
    @Suite("Soak")
    struct SoakTests {
        static let cycles = getenv("WINDOW_BANNER_SOAK_CYCLES").flatMap { Int(String(cString: $0)) } ?? 300

        /// The process's resident memory in KiB.
        static func residentKiB() -> Int {
            guard let file = fopen("/proc/self/status", "r") else { return 0 }
            defer { fclose(file) }
            var line = [CChar](repeating: 0, count: 256)
            while fgets(&line, Int32(line.count), file) != nil {
                let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                if text.hasPrefix("VmRSS:") { return Int(text.split(separator: " ").dropFirst().first ?? "") ?? 0 }
            }
            return 0
        }

        @Test func presentUpdateDismissCyclesEndWhereTheyStarted() throws {
            // Animations of a millisecond: every cycle still draws, maps, moves and unmaps.
            let fixture = try Fixture(timing: BannerTiming(slideDuration: 0.001, crossFadeDuration: 0.001))
            let host = fixture.host
            var base: UInt?
            func cycle(_ index: Int) throws {
                try host.presentTopBanner { $0.title("Offline \(index % 7)").backgroundColor(.systemRed) }
                #expect(fixture.run { host.phase == .presented })
                if base == nil { base = fixture.observer.clientBase(of: Window(host.bannerWindowID)) }
                try host.presentTopBanner { $0.title("Back Online \(index % 5)").subtitle("cycle").backgroundColor(.systemTeal) }
                #expect(fixture.display.runUntilIdle())
                host.dismissTopBanner()
                #expect(fixture.run { host.phase == .hidden })
                // The observer shares this process and records every map it sees: keep its
                // records out of the measurement.
                fixture.observer.clearRecords()
            }
            for index in 0..<30 { try cycle(index) }
            let clientBase = try #require(base)
            let resourcesBefore = try #require(fixture.observer.resourceCounts(ofClientWithBase: clientBase))
            let memoryBefore = Self.residentKiB()

            for index in 0..<Self.cycles { try cycle(index) }

            let memoryAfter = Self.residentKiB()
            // What the client holds includes its event selections on other clients' windows
            // ("OTHER CLIENT": the strut watch), among them the WM's frame of the last dock,
            // which the WM destroys in its own time: await the counts, then compare.
            func grown(_ after: [String: Int]) -> [String] {
                after.filter { $0.key != "PICTURE" && $0.value > resourcesBefore[$0.key, default: 0] }.map(\.key)
            }
            var resourcesAfter: [String: Int] = [:]
            let settled = fixture.run {
                resourcesAfter = fixture.observer.resourceCounts(ofClientWithBase: clientBase) ?? [:]
                return grown(resourcesAfter).isEmpty
            }
            print("soak: \(Self.cycles) cycles; RSS \(memoryBefore) → \(memoryAfter) KiB; X resources \(resourcesBefore.sorted { $0.key < $1.key }) → \(resourcesAfter.sorted { $0.key < $1.key })")
            // Nothing more than before, except that Xft keeps up to 16 solid-colour source pictures per
            // display (XFT_NUM_SOLID_COLOR) and a cross-fade uses a new colour every frame: that
            // cache fills to 16 and stays there.
            #expect(settled, "grew: \(grown(resourcesAfter))")
            #expect(resourcesAfter["PICTURE", default: 0] <= 16)
            #expect(resourcesAfter["WINDOW", default: 0] == 0 && resourcesAfter["PIXMAP", default: 0] == 0, "nothing drawn is left once hidden")
            // Within 2 % (and never more than 2 MiB, the slack of malloc's arenas on a short run).
            #expect(memoryAfter - memoryBefore <= max(memoryBefore / 50, 2048))
            #expect(fixture.display.protocolErrorCount == 0)
        }
    }
}
