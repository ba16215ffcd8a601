// LoopTimer, the one timer the network and call monitors set again and again for their policy's
// next deadline: setting it replaces what was pending, nil leaves nothing pending, and it fires
// once, at its deadline on the loop's clock (an embedded loop here).

import BannerRuntime
import EmbeddedTestSupport
import MonotonicClock
import Reactor
import Testing

@Suite("Loop timer")
struct LoopTimerTests {
    @Test func settingItAgainReplacesWhatWasPending() {
        let embedded = EmbeddedLoop()
        let timer = LoopTimer(on: embedded.loop)
        var fired: [String] = []
        timer.set(at: embedded.clock.now + 1) { fired.append("first") }
        timer.set(at: embedded.clock.now + 2) { fired.append("second") }
        #expect(timer.isPending)
        embedded.advance(by: 1.5)
        #expect(fired.isEmpty)
        embedded.advance(by: 1)
        #expect(fired == ["second"])
        #expect(!timer.isPending)
        embedded.advance(by: 10)
        #expect(fired == ["second"])
    }

    @Test func afterSecondsIsOnTheLoopsClock() {
        let embedded = EmbeddedLoop()
        let timer = LoopTimer(on: embedded.loop)
        let start = embedded.clock.now
        var firedAt: Double?
        timer.set(after: 2.5) { firedAt = embedded.clock.now - start }
        embedded.advance(by: 5)
        #expect(firedAt == 2.5)
    }

    @Test func noDeadlineOrCancelLeavesNothingPending() {
        let embedded = EmbeddedLoop()
        let timer = LoopTimer(on: embedded.loop)
        var fired = 0
        timer.set(at: embedded.clock.now + 1) { fired += 1 }
        timer.set(at: nil) { fired += 100 }
        #expect(!timer.isPending && embedded.loop.nextDeadline == nil)
        timer.set(at: embedded.clock.now + 1) { fired += 1 }
        timer.cancel()
        embedded.advance(by: 5)
        #expect(fired == 0)
    }

    /// What the monitors do: the action sets the timer for the next deadline.
    @Test func anActionMaySetItAgain() {
        let embedded = EmbeddedLoop()
        let timer = LoopTimer(on: embedded.loop)
        var times: [Double] = []
        let start = embedded.clock.now
        func arm() {
            timer.set(at: embedded.clock.now + 1) {
                times.append(embedded.clock.now - start)
                if times.count < 3 { arm() }
            }
        }
        arm()
        embedded.advance(by: 10)
        #expect(times == [1, 2, 3])
        #expect(!timer.isPending)
    }

    @Test func aTimerThatGoesCancelsWhatWasPending() {
        let embedded = EmbeddedLoop()
        var fired = false
        do {
            let timer = LoopTimer(on: embedded.loop)
            timer.set(at: embedded.clock.now + 1) { fired = true }
        }
        #expect(embedded.loop.nextDeadline == nil)
        embedded.advance(by: 2)
        #expect(!fired)
    }
}
