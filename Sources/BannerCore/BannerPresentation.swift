// The presentation state machine of one banner: hidden → presenting → presented → dismissing.
// It owns the slide, cross-fade and progress-bar timelines and answers "what does frame t look
// like"; a backend only draws the answer. Start reading at `present(_:at:)`.

import MonotonicClock

/// Durations of the banner's animations, in seconds.
public struct BannerTiming: Sendable, Hashable {
    /// Slide in (ease-out) and slide out (ease-in), for the full height.
    public var slideDuration: Double
    /// In-place update from the old look to the new one.
    public var crossFadeDuration: Double
    /// The progress bar moving to a new value (ease-out), when nothing else changes.
    public var progressDuration: Double

    public init(slideDuration: Double = 0.25, crossFadeDuration: Double = 0.2, progressDuration: Double = 0.2) {
        self.slideDuration = slideDuration
        self.crossFadeDuration = crossFadeDuration
        self.progressDuration = progressDuration
    }

    public static let standard = BannerTiming()
}

/// What one frame shows.
public struct BannerFrame: Sendable, Hashable {
    /// How much of the banner is down on screen: 0 hidden above the top edge, 1 fully shown.
    public var reveal: Double
    /// The look being presented.
    public var appearance: TopBannerAppearance
    /// During a cross-fade, the look fading out; nil otherwise.
    public var fadingFrom: TopBannerAppearance?
    /// Cross-fade progress 0...1 (1 when not fading): weight of `appearance` against `fadingFrom`.
    public var fadeProgress: Double
    /// Where `appearance`'s progress bar stands in this frame (moving towards
    /// `appearance.progress`); nil when it has none.
    public var progress: Double?
}

/// Hidden → presenting → presented → dismissing → hidden, with every interruption defined:
///
/// | event       | hidden      | presenting            | presented   | dismissing              |
/// |-------------|-------------|-----------------------|-------------|-------------------------|
/// | present     | slide in    | cross-fade if changed | cross-fade  | slide back in from here |
/// | dismiss     | nothing     | slide out from here   | slide out   | nothing                 |
///
/// A slide interrupted half-way reverses from where it is, taking the share of the full
/// duration that the remaining distance needs, so the banner never jumps. A new look that
/// differs from the current one only in its progress value is no cross-fade: the bar moves
/// there from where it stands (0.2 s, ease-out) and everything else stays as drawn.
public struct BannerPresentation: Sendable {
    public enum Phase: String, Sendable {
        case hidden, presenting, presented, dismissing
    }

    /// What finished during an ``advance(to:)``.
    public enum Milestone: Sendable, Equatable {
        case presentationFinished
        case dismissalFinished
    }

    public private(set) var phase: Phase = .hidden
    /// The look presented last; kept after dismissal so a bare `present` shows it again.
    public private(set) var appearance: TopBannerAppearance?
    public let timing: BannerTiming

    private var slide: Animation?
    private var reveal: Double = 0
    private var fade: Animation?
    private var fadingFrom: TopBannerAppearance?
    private var progressMove: Animation?
    private var reached: [Milestone] = []

    public init(timing: BannerTiming = .standard) {
        self.timing = timing
    }

    /// True while the banner is on screen or on its way in (the iOS `isBannerPresented`).
    public var isPresented: Bool { phase == .presenting || phase == .presented }

    /// True while any animation runs: the driver should keep producing frames.
    public var isAnimating: Bool { slide != nil || fade != nil || progressMove != nil }

    /// Shows `newAppearance`: slides in when hidden or leaving, cross-fades when already showing
    /// (or only moves the progress bar, when that is all that changed). Returns whether anything
    /// changes: presenting the look already shown (or on its way in) is a no-op, so the driver
    /// draws no frame for it.
    @discardableResult
    public mutating func present(_ newAppearance: TopBannerAppearance, at now: MonotonicTime) -> Bool {
        settle(at: now)
        switch phase {
        case .hidden:
            appearance = newAppearance
            fade = nil
            fadingFrom = nil
            progressMove = nil
            phase = .presenting
            startSlide(to: 1, at: now)
            return true
        case .dismissing:
            change(to: newAppearance, at: now)
            phase = .presenting
            startSlide(to: 1, at: now)
            return true
        case .presenting, .presented:
            guard newAppearance != appearance else { return false }
            change(to: newAppearance, at: now)
            return true
        }
    }

    /// Slides the banner out; it is hidden when ``Milestone/dismissalFinished`` is reported.
    public mutating func dismiss(at now: MonotonicTime) {
        settle(at: now)
        guard phase == .presenting || phase == .presented else { return }
        phase = .dismissing
        startSlide(to: 0, at: now)
    }

    /// Moves time forward, finishing animations whose end has passed; returns every milestone
    /// reached since the last call (including ones passed inside `present` or `dismiss`).
    public mutating func advance(to now: MonotonicTime) -> [Milestone] {
        settle(at: now)
        defer { reached.removeAll() }
        return reached
    }

    /// The frame at `now`; nil when hidden.
    public func frame(at now: MonotonicTime) -> BannerFrame? {
        guard phase != .hidden, let appearance else { return nil }
        let currentReveal = slide?.value(at: now) ?? reveal
        let progress = fade?.value(at: now) ?? 1
        return BannerFrame(
            reveal: currentReveal,
            appearance: appearance,
            fadingFrom: progress < 1 ? fadingFrom : nil,
            fadeProgress: progress,
            progress: appearance.progress.map { progressMove?.value(at: now) ?? $0 }
        )
    }

    /// The slide running now (the banner's reveal, 0 hidden … 1 down); nil while it stands
    /// still. A backend whose display server animates for it (GNOME Shell's Clutter) hands it on.
    public var runningSlide: Animation? { slide }
    /// True while something other than the slide moves (a cross-fade, a progress bar): frames
    /// the driver itself must draw, even where the display server runs the slide.
    public var animatesBesidesTheSlide: Bool { fade != nil || progressMove != nil }
    /// When the running animations end; nil when nothing moves.
    public var animationEnd: MonotonicTime? {
        [slide?.end, fade?.end, progressMove?.end].compactMap { $0 }.max()
    }

    private mutating func startSlide(to target: Double, at now: MonotonicTime) {
        let distance = abs(target - reveal)
        let motion = appearance?.reduceMotion == true ? 0 : timing.slideDuration
        slide = Animation(
            from: reveal, to: target, start: now,
            duration: motion * distance,
            curve: target > reveal ? .easeOut : .easeIn
        )
        settle(at: now)
    }

    /// From the current look to `newAppearance`: the bar moves when only the progress differs,
    /// anything else cross-fades.
    private mutating func change(to newAppearance: TopBannerAppearance, at now: MonotonicTime) {
        guard let current = appearance, current != newAppearance else {
            appearance = newAppearance
            return
        }
        if let shown = current.progress, let target = newAppearance.progress, Self.differOnlyInProgress(current, newAppearance) {
            // From where the bar stands now, which may be part-way through an earlier move; a
            // cross-fade already running goes on, heading for the new look.
            let from = progressMove?.value(at: now) ?? shown
            appearance = newAppearance
            progressMove = Animation(from: from, to: target, start: now, duration: timing.progressDuration, curve: .easeOut)
            if timing.progressDuration <= 0 { settle(at: now) }
            return
        }
        fadingFrom = current
        appearance = newAppearance
        progressMove = nil
        // Reduced motion: the new look at once, as the slide is (no frames between).
        let duration = newAppearance.reduceMotion == true ? 0 : timing.crossFadeDuration
        fade = Animation(from: 0, to: 1, start: now, duration: duration, curve: .easeInOut)
        if duration <= 0 { settle(at: now) }
    }

    private static func differOnlyInProgress(_ a: TopBannerAppearance, _ b: TopBannerAppearance) -> Bool {
        var aligned = a
        aligned.progress = b.progress
        return aligned == b
    }

    /// Folds finished animations into the resting state and records the milestones reached.
    private mutating func settle(at now: MonotonicTime) {
        if let running = slide {
            reveal = running.value(at: now)
            if running.isFinished(at: now) {
                slide = nil
                if phase == .presenting {
                    phase = .presented
                    reached.append(.presentationFinished)
                } else if phase == .dismissing {
                    phase = .hidden
                    fade = nil
                    fadingFrom = nil
                    progressMove = nil
                    reached.append(.dismissalFinished)
                }
            }
        }
        if let running = fade, running.isFinished(at: now) {
            fade = nil
            fadingFrom = nil
        }
        if let running = progressMove, running.isFinished(at: now) {
            progressMove = nil
        }
    }
}

extension BannerPresentation {
    /// When an animation asked for at `now` starts. One from rest — a slide in from nothing, a
    /// cross-fade or a progress move on a settled banner — starts one frame slot back, so the
    /// frame drawn now is its first moving one: the banner shows its first rows (and their
    /// reservation), or its pixels start to change, the moment it is asked for rather than a
    /// slot later (a frame at the very start would show nothing new). One that retargets a
    /// moving banner starts now, from where the banner is.
    public func animationStart(at now: MonotonicTime, frameSlot: Double) -> MonotonicTime {
        let atRest = phase == .hidden || (phase == .presented && !isAnimating)
        return atRest ? now + -frameSlot : now
    }
}
