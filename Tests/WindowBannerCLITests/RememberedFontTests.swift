// A new owner draws its first banner in the font an earlier owner matched for the same request
// (remembered under $XDG_CACHE_HOME/window-banner/fonts) while fontconfig starts beside it, then
// checks fontconfig's own answer. What the user sees must not depend on it: the same pixels as
// the first owner's, a wrong memory drawn again in fontconfig's font, and a memory that is
// broken, hostile or too large is no memory at all.

import Foundation
import Glibc
import ProcessTestSupport
import Testing
import X11TestSupport

extension WindowBannerCLITests {
    @Suite("fonts remembered across owners")
    struct RememberedFontTests {
        static let title = ["--title", "No Internet Connection", "--subtitle", "Waiting for network", "--compact", "never"]
        static let bannerArea = Rect(x: 0, y: 0, width: 1280, height: 80)

        /// The memory's files (one per request the owner made).
        static func memory(_ owner: OwnerFixture) -> [String] {
            let directory = owner.fixture.desktop.home + "/.cache/window-banner/fonts"
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            return names.filter { $0.hasPrefix("slot-") }.sorted().map { directory + "/" + $0 }
        }

        /// The fields of a memory file: marker, fingerprint, request, matched pattern, font stamp.
        static func fields(_ path: String) throws -> [String] {
            let data = try #require(FileManager.default.contents(atPath: path))
            return data.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        }

        static func log(_ owner: OwnerFixture) -> String {
            (try? String(contentsOfFile: owner.runtimeDirectory + "/window-banner/display\(owner.fixture.desktop.displayName).log", encoding: .utf8)) ?? ""
        }

        /// The banner's pixels once it is in, as two grabs in a row see them.
        static func settledBanner(_ owner: OwnerFixture) throws -> Screenshot {
            #expect(owner.fixture.waitForBanner())
            // A correction redraws within a frame or two of the check; the banner is still in
            // place, so wait for two equal grabs in a row.
            var previous = try #require(owner.observer.screenshot(bannerArea))
            var same = false
            #expect(owner.observer.wait {
                guard let shot = owner.observer.screenshot(bannerArea) else { return false }
                defer { previous = shot }
                if shot == previous { same = true }
                return same
            })
            return previous
        }

        /// Quits the owner and waits until it is gone.
        static func quit(_ owner: OwnerFixture) throws {
            let pids = owner.ownerProcesses()
            #expect(try owner.run(["dismiss", "--all", "--quit"]).status == 0)
            for pid in pids { #expect(owner.waitForExit(of: pid)) }
            #expect(owner.fixture.waitForRestoredDesktop())
        }

        /// The files the owner has remembered its fonts in. It writes them once its banner has
        /// stopped moving, which a screenshot cannot tell from a slide the machine stalled
        /// (fontconfig's start-up shares the cores with it): await the title's and the
        /// subtitle's at least, then a request answered after them, when all are written.
        static func awaitMemory(_ owner: OwnerFixture) throws -> [String] {
            #expect(owner.observer.wait(timeout: 20) { memory(owner).count >= 2 }, "\(memory(owner))")
            _ = try owner.status()
            return memory(owner)
        }

        /// A first owner shows the banner and quits: its settled pixels and the files it
        /// remembered its fonts in.
        static func firstOwner(_ owner: OwnerFixture) throws -> (banner: Screenshot, memory: [String]) {
            try owner.show(title)
            // The memory is written once the banner stopped moving: only then is it settled.
            let files = try awaitMemory(owner)
            let banner = try settledBanner(owner)
            try quit(owner)
            return (banner, files)
        }

        @Test func aSecondOwnerDrawsTheRememberedFontsAsTheFirstDrewFontconfigs() throws {
            let owner = try OwnerFixture()
            try owner.show(Self.title)
            let files = try Self.awaitMemory(owner)
            let first = try Self.settledBanner(owner)
            // Title and subtitle (and their sizes in the other layout): a file per request, each
            // naming the font file it matched.
            #expect(files.count >= 2, "\(files)")
            for file in files {
                let fields = try Self.fields(file)
                #expect(fields.count == 5)
                #expect(fields.first == "window-banner remembered font 1")
                #expect(fields[3].contains(":file=/usr/share/fonts/"), "\(fields[3])")
            }
            try Self.quit(owner)

            try owner.show(Self.title)
            #expect(try Self.settledBanner(owner) == first)
            #expect(!Self.log(owner).contains("fonts changed"), "\(Self.log(owner))")
            // Nothing to correct, nothing rewritten.
            #expect(Self.memory(owner) == files)
        }

        @Test func aWrongMemoryIsDrawnAgainInFontconfigsFontAndCorrected() throws {
            let owner = try OwnerFixture()
            let (first, files) = try Self.firstOwner(owner)
            let originals = try files.map { try Self.fields($0)[3] }

            // Another font file, with its true stamp, under the same requests: only fontconfig's
            // own answer can tell the memory is wrong.
            let serif = "/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf"
            var status = stat()
            try #require(stat(serif, &status) == 0, "fonts-dejavu-core's \(serif)")
            let stamp = "\(status.st_size) \(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec) \(status.st_ctim.tv_sec).\(status.st_ctim.tv_nsec) \(status.st_ino)"
            for file in files {
                var fields = try Self.fields(file)
                let matched = fields[3]
                let original = try #require(matched.split(separator: ":").first { $0.hasPrefix("file=") })
                fields[3] = matched.replacingOccurrences(of: String(original), with: "file=" + serif)
                fields[4] = stamp
                try Data(fields.joined(separator: "\u{0}").utf8).write(to: URL(fileURLWithPath: file))
            }

            try owner.show(Self.title)
            // Found once the banner has slid in; then it is drawn again.
            let warning = "warning: fonts changed since the last owner: 'Noto Sans' (DejaVuSerif-Bold.ttf) was drawn where fontconfig now picks 'Noto Sans' (NotoSans-Bold.ttf); drawn again"
            #expect(owner.observer.wait { Self.log(owner).contains(warning) }, "\(Self.log(owner))")
            #expect(try Self.settledBanner(owner) == first)
            #expect(owner.observer.wait { (try? files.map { try Self.fields($0)[3] }) == originals })
        }

        @Test func aBrokenOrHostileMemoryIsNoMemory() throws {
            let owner = try OwnerFixture()
            let (first, files) = try Self.firstOwner(owner)
            let good = try files.map { try Self.fields($0) }
            var passwd = stat()
            try #require(stat("/etc/passwd", &passwd) == 0)
            let passwdStamp = "\(passwd.st_size) \(passwd.st_mtim.tv_sec).\(passwd.st_mtim.tv_nsec) \(passwd.st_ctim.tv_sec).\(passwd.st_ctim.tv_nsec) \(passwd.st_ino)"

            var random = SystemRandomNumberGenerator()
            let breakages: [(String, ([String]) -> Data)] = [
                ("empty", { _ in Data() }),
                ("random bytes", { _ in Data((0..<4096).map { _ in UInt8.random(in: 0...255, using: &random) }) }),
                ("over 64 KiB", { fields in Data((fields + [String(repeating: "x", count: 70_000)]).joined(separator: "\u{0}").utf8) }),
                ("another fingerprint", { fields in var f = fields; f[1] += "\nfontconfig 1"; return Data(f.joined(separator: "\u{0}").utf8) }),
                ("a stale font stamp", { fields in var f = fields; f[4] = "1 2.3 4.5 6"; return Data(f.joined(separator: "\u{0}").utf8) }),
                ("not a font", { fields in
                    var f = fields
                    let original = f[3].split(separator: ":").first { $0.hasPrefix("file=") }.map(String.init) ?? ""
                    f[3] = f[3].replacingOccurrences(of: original, with: "file=/etc/passwd")
                    f[4] = passwdStamp
                    return Data(f.joined(separator: "\u{0}").utf8)
                }),
                ("a pattern fontconfig cannot read", { fields in var f = fields; f[3] = ":::=\\"; return Data(f.joined(separator: "\u{0}").utf8) }),
                ("invalid UTF-8", { fields in Data(fields.joined(separator: "\u{0}").utf8) + Data([0xFF, 0xFE, 0x80]) }),
            ]
            for (name, breakage) in breakages {
                for (file, fields) in zip(files, good) {
                    try breakage(fields).write(to: URL(fileURLWithPath: file))
                }
                try owner.show(Self.title)
                #expect(try Self.settledBanner(owner) == first, "\(name)")
                #expect(owner.ownerProcesses().count == 1, "\(name)")
                try Self.quit(owner)
            }
        }
    }
}
