// The PNG decoder (CPNG, C) against damaged files: seeded mutations of real PNGs in every
// format it converts (RGBA, a palette interlaced, 16-bit, grey) — bytes flipped, cut short,
// random bytes spliced in — and headers with valid checksums claiming absurd sizes. Every
// file either decodes to its squares or is refused with one short line; none crashes, hangs
// or, under `make leaks`, touches memory it should not. WINDOW_BANNER_FUZZ_ITERATIONS runs
// longer (`make fuzz`).

@testable import BannerX11
@testable import BannerRuntime
import Glibc
import ProcessTestSupport
import Testing
import X11TestSupport

private let iterations = getenv("WINDOW_BANNER_FUZZ_ITERATIONS").flatMap { Int(String(cString: $0)) }.map { $0 / 5 } ?? 600

extension BannerX11Tests {
    @Suite("PNG decoder fuzz")
    struct IconFuzzTests {
        /// A scratch directory, removed when the test ends.
        final class Scratch {
            let path: String
            init() throws {
                var template = Array("/tmp/wb-png-fuzz-XXXXXX".utf8CString)
                guard let made = mkdtemp(&template) else { throw TestFailure("mkdtemp failed") }
                path = String(cString: made)
            }
            deinit { _ = try? Subprocess.run("/bin/rm", ["-rf", path]) }
        }

        static func read(_ path: String) throws -> [UInt8] {
            let file = try #require(fopen(path, "rb"))
            defer { fclose(file) }
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = fread(&buffer, 1, buffer.count, file)
                if count == 0 { break }
                bytes += buffer[0..<count]
            }
            return bytes
        }

        static func write(_ bytes: [UInt8], to path: String) throws {
            let file = try #require(fopen(path, "wb"))
            _ = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, file) }
            fclose(file)
        }

        /// CRC-32 as PNG chunks carry it (over the chunk type and data).
        static func crc32(_ bytes: some Collection<UInt8>) -> UInt32 {
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in bytes {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
            }
            return ~crc
        }

        static func bigEndian(_ value: UInt32) -> [UInt8] {
            [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
        }

        /// `png` with its IHDR's width and height replaced, the checksum made valid again.
        static func withHeader(_ png: [UInt8], width: UInt32, height: UInt32) -> [UInt8] {
            var bytes = png
            bytes.replaceSubrange(16..<24, with: bigEndian(width) + bigEndian(height))
            bytes.replaceSubrange(29..<33, with: bigEndian(crc32(bytes[12..<29])))
            return bytes
        }

        /// Decodes `path` into a 30 px and an 18 px square: a result or a one-line reason.
        static func outcome(_ path: String) -> String? {
            do {
                let decoded = try PNGFile.decode(path: path, sides: [30, 18])
                return decoded.bySide.count == 2 ? nil : "missing squares"
            } catch {
                let text = "\(error)"
                return text.contains("\n") || text.utf8.count > 400 ? "bad reason: \(text)" : nil
            }
        }

        @Test func mutatedPNGsDecodeOrAreRefusedInOneLine() throws {
            let scratch = try Scratch()
            var seeds: [[UInt8]] = []
            for (name, format, extra) in [
                ("rgba", "PNG32:", [String]()), ("palette", "PNG8:", ["-colors", "32", "-interlace", "PNG"]),
                ("deep", "PNG64:", []), ("grey", "PNG:", ["-colorspace", "Gray"]),
            ] {
                let path = scratch.path + "/" + name + ".png"
                _ = try Subprocess.run("/usr/bin/convert", ["-seed", "5", "-size", "48x40", "plasma:"] + extra + [format + path])
                #expect(Self.outcome(path) == nil, "\(name) must decode")
                seeds.append(try Self.read(path))
            }
            var random = SplitMix64(seed: 21)
            let path = scratch.path + "/mutant.png"
            for iteration in 0..<iterations {
                var bytes = seeds[iteration % seeds.count]
                switch Int.random(in: 0..<4, using: &random) {
                case 0:
                    for _ in 0..<Int.random(in: 1...8, using: &random) {
                        bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
                    }
                case 1:
                    bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &random)))
                case 2:
                    let at = Int.random(in: 0...bytes.count, using: &random)
                    bytes.insert(contentsOf: (0..<Int.random(in: 1...64, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }, at: at)
                default:
                    let sides: [UInt32] = [0, 1, 8192, 8193, 0x7FFF_FFFF, 0xFFFF_FFFF, UInt32.random(in: 0...UInt32.max, using: &random)]
                    bytes = Self.withHeader(bytes, width: sides.randomElement(using: &random) ?? 1, height: sides.randomElement(using: &random) ?? 1)
                }
                try Self.write(bytes, to: path)
                let problem = Self.outcome(path)
                #expect(problem == nil, "iteration \(iteration): \(problem ?? "")")
            }
        }

        @Test func headersClaimingHugeImagesAreRefusedBeforeAnyPixel() throws {
            let scratch = try Scratch()
            let path = scratch.path + "/seed.png"
            _ = try Subprocess.run("/usr/bin/convert", ["-size", "8x8", "xc:#0000ff", "PNG32:" + path])
            let seed = try Self.read(path)
            for (width, height, reason) in [
                (UInt32(100_000), UInt32(100_000), "100000x100000 px, wider or taller than the 8192 px icons are read up to"),
                (8192, 8192, "8192x8192 px, over the 16777216 pixels icons are read up to"),
            ] {
                try Self.write(Self.withHeader(seed, width: width, height: height), to: path)
                #expect(throws: IconProblem.unreadable(path: path, reason: reason)) { try PNGFile.decode(path: path, sides: [30]) }
            }
        }
    }
}
