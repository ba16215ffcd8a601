// wb_release_file_pages (CMalloc), which the owner calls once after its first banner: it takes
// the pages of read-only file mappings out of the resident set — they come back from the file
// when touched — and leaves every page that holds something the file does not: a private copy
// written to, whether its mapping is still writable or was made read-only after (as the loader
// does with relocated data). Checked in this process, on files of its own, with
// /proc/self/smaps as the judge.

import CMalloc
import Foundation
import Glibc
import Testing

@Suite("released start-up pages")
struct ReleasedPagesTests {
    static let size = 1 << 20

    /// Rss of the mapping that starts at `address`, in KiB, from /proc/self/smaps.
    static func resident(_ address: UnsafeMutableRawPointer) -> Int? {
        // Read to the end: /proc files have no size, and a single read may return a part.
        let fd = open("/proc/self/smaps", O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(fd, &chunk, chunk.count)
            guard count > 0 else { break }
            bytes += chunk[0..<count]
        }
        let smaps = String(decoding: bytes, as: UTF8.self)
        let start = String(UInt(bitPattern: address), radix: 16)
        var inMapping = false
        for line in smaps.split(separator: "\n") {
            if let range = line.split(separator: " ").first, range.contains("-") {
                inMapping = range.split(separator: "-").first.map { $0 == start } ?? false
            } else if inMapping, line.hasPrefix("Rss:") {
                return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])
            }
        }
        return nil
    }

    /// A file of `size` bytes, byte i = i % 251, mapped privately with `protection`.
    static func mapped(_ protection: Int32) throws -> (UnsafeMutableRawPointer, String) {
        let path = NSTemporaryDirectory() + "/released-pages-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try Data((0..<size).map { UInt8($0 % 251) }).write(to: URL(fileURLWithPath: path))
        let fd = open(path, protection & PROT_WRITE != 0 ? O_RDWR : O_RDONLY)
        defer { close(fd) }
        let address = try #require(mmap(nil, size, protection, MAP_PRIVATE, fd, 0))
        #expect(address != MAP_FAILED)
        return (address, path)
    }

    @Test func readOnlyFilePagesLeaveTheResidentSetAndComeBackIntact() throws {
        let (address, path) = try Self.mapped(PROT_READ)
        defer { munmap(address, Self.size); unlink(path) }
        let bytes = address.assumingMemoryBound(to: UInt8.self)
        var sum = 0
        for index in stride(from: 0, to: Self.size, by: 4096) { sum += Int(bytes[index]) }
        #expect(try #require(Self.resident(address)) >= Self.size / 1024)
        #expect(wb_release_file_pages() > 0)
        #expect(try #require(Self.resident(address)) == 0)
        #expect((0..<Self.size).allSatisfy { bytes[$0] == UInt8($0 % 251) })
        _ = sum
    }

    @Test func privateCopiesStayWrittenEvenWhenMadeReadOnly() throws {
        let (writable, writablePath) = try Self.mapped(PROT_READ | PROT_WRITE)
        let (relocated, relocatedPath) = try Self.mapped(PROT_READ | PROT_WRITE)
        defer {
            munmap(writable, Self.size); unlink(writablePath)
            munmap(relocated, Self.size); unlink(relocatedPath)
        }
        writable.storeBytes(of: 0xAB, as: UInt8.self)
        relocated.storeBytes(of: 0xCD, toByteOffset: 8192, as: UInt8.self)
        // As the loader protects relocated data: written, then read-only.
        #expect(mprotect(relocated, Self.size, PROT_READ) == 0)
        _ = wb_release_file_pages()
        #expect(writable.load(as: UInt8.self) == 0xAB)
        #expect(relocated.load(fromByteOffset: 8192, as: UInt8.self) == 0xCD)
        #expect(relocated.load(fromByteOffset: 4096, as: UInt8.self) == UInt8(4096 % 251))
    }
}
