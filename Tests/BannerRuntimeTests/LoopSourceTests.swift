// The loop's sources (Reactor's LoopSource: a bus, an HTTP check, a preference reader): the loop
// asks each for its descriptors and deadline before every sleep, calls `process` with what is
// ready or when its deadline has passed, stops serving one that throws and says why, and serves
// none it was told to cancel. And PollWait, the one blocking wait of the clients: ready, timed
// out, never early. A pipe stands in for the descriptor, on an embedded loop.

import EmbeddedTestSupport
import Glibc
import MonotonicClock
import Reactor
import Testing

@Suite("Loop sources")
struct LoopSourceTests {
    /// A pipe's read end as a source, its deadline set by the test.
    final class PipeSource: LoopSource {
        let read: Int32
        let write: Int32
        var deadline: MonotonicTime?
        /// What the source asks to be polled for now: its read end, for reading, at first.
        lazy var watched = PollDescriptor(fd: read, events: Int16(POLLIN))
        var processed: [[PollDescriptor]] = []
        var failure: (any Error)?

        init() {
            var ends: [Int32] = [0, 0]
            _ = pipe(&ends)
            (read, write) = (ends[0], ends[1])
            _ = fcntl(read, F_SETFL, O_NONBLOCK)
        }

        deinit {
            close(read)
            close(write)
        }

        var descriptors: [PollDescriptor] { [watched] }

        /// Records what it was given; like a real source, a deadline acted on is gone.
        func process(ready: [PollDescriptor]) throws {
            processed.append(ready)
            if ready.isEmpty { deadline = nil }
            var byte: UInt8 = 0
            while Glibc.read(read, &byte, 1) == 1 {}
            if let failure { throw failure }
        }

        func send() {
            var byte: UInt8 = 1
            _ = Glibc.write(write, &byte, 1)
        }
    }

    struct Gone: Error, Equatable {}

    @Test func whatIsReadyIsProcessedAndNothingElse() {
        let embedded = EmbeddedLoop()
        let source = PipeSource()
        embedded.loop.serve(source) { _ in Issue.record("the source did not end") }
        embedded.advance(by: 0)
        #expect(source.processed.isEmpty)
        source.send()
        embedded.advance(by: 0)
        #expect(source.processed == [[PollDescriptor(fd: source.read, events: Int16(POLLIN))]])
        embedded.advance(by: 1)
        #expect(source.processed.count == 1)
    }

    @Test func itsDeadlineIsReadBeforeEverySleepAndProcessedWhenDue() {
        let embedded = EmbeddedLoop()
        let source = PipeSource()
        embedded.loop.serve(source) { _ in }
        // Set after serving: the loop asks again each time.
        source.deadline = embedded.clock.now + 2
        #expect(embedded.loop.nextDeadline == source.deadline)
        embedded.advance(by: 1.5)
        #expect(source.processed.isEmpty)
        embedded.advance(by: 1)
        #expect(source.processed == [[]])
        source.deadline = nil
        #expect(embedded.loop.nextDeadline == nil)
    }

    @Test func theDescriptorsAskedForAreThoseOfNow() {
        let embedded = EmbeddedLoop()
        let source = PipeSource()
        embedded.loop.serve(source) { _ in }
        embedded.advance(by: 0)
        #expect(source.processed.isEmpty)
        // It now wants to write, as sd-bus does with a message queued: the pipe has room.
        source.watched = PollDescriptor(fd: source.write, events: Int16(POLLOUT))
        embedded.turn()
        #expect(source.processed == [[PollDescriptor(fd: source.write, events: Int16(POLLOUT))]])
    }

    @Test func aSourceThatThrowsIsLetGoAndTheCallerToldWhy() {
        let embedded = EmbeddedLoop()
        let source = PipeSource()
        source.failure = Gone()
        var ended: [any Error] = []
        embedded.loop.serve(source) { ended.append($0) }
        source.send()
        embedded.advance(by: 0)
        #expect(ended.count == 1 && ended.first is Gone)
        source.send()
        embedded.advance(by: 0)
        #expect(source.processed.count == 1, "served after it ended")
    }

    @Test func aCancelledSourceIsNotServed() {
        let embedded = EmbeddedLoop()
        let source = PipeSource()
        let token = embedded.loop.serve(source) { _ in }
        embedded.loop.cancel(token)
        source.send()
        source.deadline = embedded.clock.now
        embedded.advance(by: 1)
        #expect(source.processed.isEmpty)
        #expect(embedded.loop.nextDeadline == nil)
    }

    @Test func pollWaitIsReadyTimesOutAndNeverEndsEarly() {
        let source = PipeSource()
        #expect(PollWait.wait(fd: source.read, events: Int16(POLLIN), until: PollWait.deadline(in: -1)) == .timedOut)
        let start = monotonicNow()
        #expect(PollWait.wait(fd: source.read, events: Int16(POLLIN), seconds: 0.05) == .timedOut)
        #expect(monotonicNow() - start >= 0.05)
        source.send()
        #expect(PollWait.wait(fd: source.read, events: Int16(POLLIN), seconds: nil) == .ready(Int16(POLLIN)))
        #expect(PollWait.hasPassed(PollWait.deadline(in: -0.001)) && !PollWait.hasPassed(PollWait.deadline(in: 60)))
    }
}
