// Easing curves, one animated value over manual time, and frame pacing on fixed slots.

import BannerCore
import MonotonicClock
import Testing

@Suite("Animation")
struct AnimationTests {
    static let curves: [EasingCurve] = [.linear, .easeOut, .easeIn, .easeInOut]

    @Test(arguments: curves)
    func curvesStartAtZeroAndEndAtOne(curve: EasingCurve) {
        #expect(curve.value(at: 0) == 0)
        #expect(curve.value(at: 1) == 1)
    }

    @Test(arguments: curves)
    func curvesClampProgressOutsideZeroToOne(curve: EasingCurve) {
        #expect(curve.value(at: -0.5) == 0)
        #expect(curve.value(at: 1.5) == 1)
        #expect(curve.value(at: -.infinity) == 0)
        #expect(curve.value(at: .infinity) == 1)
    }

    @Test(arguments: curves)
    func curvesNeverGoBackwards(curve: EasingCurve) {
        let samples = (0...100).map { curve.value(at: Double($0) / 100) }
        #expect(zip(samples, samples.dropFirst()).allSatisfy { $0 <= $1 })
    }

    @Test func easeOutIsAheadOfLinearMidway() {
        #expect(EasingCurve.easeOut.value(at: 0.5) == 0.875)
        #expect(EasingCurve.easeOut.value(at: 0.5) > EasingCurve.linear.value(at: 0.5))
    }

    @Test func easeInIsBehindLinearMidway() {
        #expect(EasingCurve.easeIn.value(at: 0.5) == 0.125)
        #expect(EasingCurve.easeIn.value(at: 0.5) < EasingCurve.linear.value(at: 0.5))
    }

    @Test func easeInOutIsHalfwayMidwayAndSymmetric() {
        #expect(EasingCurve.easeInOut.value(at: 0.5) == 0.5)
        #expect(isClose(EasingCurve.easeInOut.value(at: 0.25) + EasingCurve.easeInOut.value(at: 0.75), 1))
    }

    @Test func animationValueAtStartMiddleAndEnd() {
        let animation = Animation(from: 10, to: 20, start: at(5), duration: 2, curve: .linear)
        #expect(animation.end == at(7))
        #expect(animation.value(at: at(5)) == 10)
        #expect(animation.value(at: at(6)) == 15)
        #expect(animation.value(at: at(7)) == 20)
    }

    @Test func animationFollowsItsCurve() {
        let animation = Animation(from: 0, to: 1, start: at(5), duration: 2, curve: .easeOut)
        #expect(animation.value(at: at(6)) == 0.875)
    }

    @Test func animationHoldsFromBeforeItsStart() {
        let animation = Animation(from: 10, to: 20, start: at(5), duration: 2, curve: .easeIn)
        #expect(animation.value(at: at(4)) == 10)
    }

    @Test func animationIsExactlyToFromItsEndOn() {
        let animation = Animation(from: 0.1, to: 0.7, start: at(1), duration: 0.3, curve: .easeInOut)
        #expect(animation.value(at: animation.end) == 0.7)
        #expect(animation.value(at: at(100)) == 0.7)
        #expect(animation.isFinished(at: animation.end))
        #expect(!animation.isFinished(at: at(1.29)))
    }

    @Test func zeroDurationAnimationIsAlreadyAtItsTarget() {
        let animation = Animation(from: 0, to: 1, start: at(3), duration: 0, curve: .easeOut)
        #expect(animation.value(at: at(3)) == 1)
        #expect(animation.isFinished(at: at(3)))
    }

    @Test func framePacerSlotsAreOneSixtiethApart() {
        #expect(FramePacer().rate == 60)
        #expect(FramePacer().interval == 1.0 / 60)
        #expect(FramePacer(rate: 30).interval == 1.0 / 30)
    }

    @Test(arguments: [0.0, 12345.678, 1_000_000.1])
    func nextFrameFromASlotIsTheFollowingSlot(originSeconds: Double) {
        let pacer = FramePacer()
        let origin = at(originSeconds)
        for k in 0..<600 {
            let slot = origin + Double(k) * pacer.interval
            let next = pacer.nextFrame(after: slot, origin: origin)
            #expect(next == origin + Double(k + 1) * pacer.interval, "slot \(k)")
            #expect(next > slot, "slot \(k)")
        }
    }

    @Test func lateCallSkipsToTheNextSlot() {
        let pacer = FramePacer()
        let origin = at(50)
        #expect(pacer.nextFrame(after: origin + 2.5 * pacer.interval, origin: origin) == origin + 3 * pacer.interval)
        #expect(pacer.nextFrame(after: origin + 7.9 * pacer.interval, origin: origin) == origin + 8 * pacer.interval)
    }

    @Test func nextFrameIsNeverBeforeTheOrigin() {
        let pacer = FramePacer()
        let origin = at(50)
        #expect(pacer.nextFrame(after: at(49), origin: origin) == origin + pacer.interval)
    }

    @Test func nextFrameIsStrictlyLaterAndWithinOneInterval() {
        let pacer = FramePacer()
        let origin = at(7.25)
        for step in 0..<1000 {
            let now = origin + Double(step) * 0.0037
            let next = pacer.nextFrame(after: now, origin: origin)
            #expect(next > now, "at \(now)")
            #expect(next - now <= pacer.interval + 1e-9, "at \(now)")
        }
    }
}
