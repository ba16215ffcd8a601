// The one way the package starts a child (Spawning's ChildSpec): the child has exactly the
// descriptors its caller lists — here a pipe this process holds open is not among them, and
// is not in the child — and `run`'s command alone keeps every one it was given. Seen from the
// child itself: `/proc/self/fd` listed by a real shell.

import Glibc
import Spawning
import Testing

@Suite("Starting a child")
struct ChildSpecTests {
    /// The descriptors `child` (with its stdout on a pipe this test reads) finds open in itself.
    static func descriptors(in child: (Int32) -> ChildSpec) throws -> [Int] {
        var output: [Int32] = [0, 0]
        #expect(pipe(&output) == 0)
        var stray: [Int32] = [0, 0]
        #expect(pipe(&stray) == 0)  // open in this process, without FD_CLOEXEC
        defer { close(stray[0]); close(stray[1]) }
        let started = child(output[1]).start()
        close(output[1])
        defer { close(output[0]) }
        guard case .success(let pid) = started else { throw ChildFailure() }
        var text: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(output[0], &buffer, buffer.count)
            guard count > 0 else { break }
            text += buffer[0..<count]
        }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        return String(decoding: text, as: UTF8.self).split(whereSeparator: \.isWhitespace).compactMap { Int($0) }.sorted()
    }

    struct ChildFailure: Error {}

    static let list = ["/bin/sh", "-c", "cd /proc/self/fd && echo *"]

    @Test func aChildHasExactlyTheDescriptorsItsCallerLists() throws {
        let open = try Self.descriptors { out in ChildSpec(Self.list, descriptors: [.null, .descriptor(out), .null]) }
        // The shell's own descriptor for reading the directory may show as 3.
        #expect(open.filter { $0 > 3 }.isEmpty, "\(open)")
        #expect(Array(open.prefix(3)) == [0, 1, 2])
    }

    @Test func runsCommandKeepsWhatItWasGiven() throws {
        let open = try Self.descriptors { out in ChildSpec(Self.list, descriptors: [.null, .descriptor(out), .null], closesOthers: false) }
        #expect(open.contains { $0 > 3 }, "\(open)")
    }

    @Test func aProgramThatCannotStartSaysWhy() {
        guard case .failure(let error) = ChildSpec(["/nonexistent/window-banner-program"]).start() else {
            Issue.record("a missing program started")
            return
        }
        #expect(error.code == ENOENT && error.description == "No such file or directory")
    }
}
