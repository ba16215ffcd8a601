// The debounce rule on a manual clock: a burst becomes one evaluation 0.1 s after its last
// message, and a flood that never pauses is still evaluated within a second.

@testable import NetworkPath
import Testing

@Suite("Debouncer")
struct DebouncerTests {
    func standard() -> Debouncer { Debouncer(quietPeriod: 0.1, maximumDelay: 1.0) }

    @Test func nothingPendingHasNoDeadlineAndNeverFires() {
        var debouncer = standard()
        #expect(debouncer.deadline == nil)
        #expect(debouncer.fire(at: 100) == false)
    }

    @Test func singleChangeSettlesAfterQuietPeriod() {
        var debouncer = standard()
        debouncer.noteChange(at: 5)
        #expect(debouncer.deadline == 5 + 0.1)
        #expect(debouncer.fire(at: 5.099) == false)
        #expect(debouncer.fire(at: 5 + 0.1) == true)
        #expect(debouncer.deadline == nil)
        #expect(debouncer.fire(at: 5.2) == false)
    }

    @Test func burstSettlesOnceAfterItsLastChange() {
        var debouncer = standard()
        var fired = 0
        for step in 0..<50 {
            let now = 10 + Double(step) * 0.005
            debouncer.noteChange(at: now)
            if debouncer.fire(at: now) { fired += 1 }
        }
        #expect(fired == 0)
        #expect(debouncer.deadline == 10 + 49 * 0.005 + 0.1)
        #expect(debouncer.fire(at: 10.35) == true)
    }

    @Test func continuousFloodIsEvaluatedByTheMaximumDelay() {
        var debouncer = standard()
        var firings: [Double] = []
        // A change every 50 ms for three seconds: never 100 ms of quiet.
        for step in 0...60 {
            let now = Double(step) / 20
            if let deadline = debouncer.deadline, deadline <= now, debouncer.fire(at: deadline) { firings.append(deadline) }
            debouncer.noteChange(at: now)
        }
        #expect(firings == [1.0, 2.0, 3.0])
    }

    @Test func lateCallerFiresAtOnce() {
        var debouncer = standard()
        debouncer.noteChange(at: 1)
        #expect(debouncer.fire(at: 30) == true)
    }

    @Test func zeroQuietPeriodFiresOnTheSameTick() {
        var debouncer = Debouncer(quietPeriod: 0, maximumDelay: 0)
        debouncer.noteChange(at: 3)
        #expect(debouncer.fire(at: 3) == true)
    }
}
