// Item 3: frame pacing, from what the server saw of the banner's own windows.
// - Slide-in (from the warm `show` runs): the first frame creates the windows with the banner's
//   first rows showing; every later one moves the banner — the top-level window as a whole on a
//   monitor with nothing above it, else the content window inside its clip (frames whose
//   rounded position does not change send nothing). Expected: the 60 fps slots at which
//   BannerCore's ease-out curve moves the banner by a pixel or more, counted from the slide's
//   own start — one slot before that first frame, as X11Host starts a slide from nothing.
// - Cross-fade (from the update runs): a frame is the back buffer painted onto the content
//   window (a ClearArea with the buffer as its background; a CopyArea in earlier versions); every
//   slot of the 0.2 s fade changes the pixels, so every slot is expected.
// A frame belongs to the slot it reached the server in; a slot that had to show a change and got
// no frame is a missed frame (the frame came late, in the next slot, or never). The pacing
// target is judged on the intervals between frames of consecutive slots. Requests per frame:
// every request the banner's client sent from one frame's boundary request to the next one's.

import BannerCore

/// One animation as the server saw it.
struct AnimationTrace {
    /// Server times of the frames, ms.
    var frames: [Int]
    /// The slot (counted from the animation's start) each frame landed in.
    var slots: [Int]
    /// Requests the banner's client sent for each frame but the last.
    var requests: [Int]
    /// Slots that had to show a change and got no frame.
    var missed: Int
    var expected: Int

    /// Time from each frame to the next, ms.
    var intervals: [Double] { zip(frames.dropFirst(), frames).map { Double($0 - $1) } }

    /// Intervals between frames of consecutive slots: what the pacing target is about. The
    /// others span a slot in which nothing had to change (the slide's last pixels) or a miss.
    var pacedIntervals: [Double] {
        frames.indices.dropFirst().compactMap { index in
            slots[index] - slots[index - 1] == 1 ? Double(frames[index] - frames[index - 1]) : nil
        }
    }
}

enum FramePacing {
    static let slot = FramePacer().interval * 1000

    /// The slide-in of a warm `show` run.
    static func slideIn(_ run: Appearance, recorder: Recorder) -> AnimationTrace? {
        guard let content = recorder.children(of: run.window).first, let height = recorder.windows[content]?.height else { return nil }
        let owner = run.client
        guard let created = run.records.first(where: { $0.kind == .create && $0.target == run.window }) else { return nil }
        let isMove = { (record: Record) in (record.target == content || record.target == run.window) && record.configured(1) != nil }
        // A slot must show a change when the curve moves the banner by a whole pixel or more
        // since the slot before; a smaller move may or may not round to a new row.
        let duration = BannerTiming.standard.slideDuration
        let count = Int((duration * 1000 / slot).rounded(.up))
        let position = { (index: Int) in Double(height) * EasingCurve.easeOut.value(at: Double(index) * slot / 1000 / duration) }
        let required = (1...count).filter { position($0) - position($0 - 1) >= 1 }
        // The frame that creates the windows is slot 1 by construction: the slots are counted
        // from it, and it is no boundary for the requests per frame (it also makes the windows).
        return trace(
            run.records, owner: owner, origin: Double(created.time) - slot, required: required,
            isFrame: { ($0.kind == .create && $0.target == run.window) || isMove($0) }, isBoundary: isMove)
    }

    /// The cross-fade of an update run: every slot of the fade changes the pixels. The fade
    /// starts one slot before its first frame (as X11Host starts an update on a settled
    /// banner), so its frames fill the `count` slots from that first frame on.
    static func crossFade(_ update: Update, recorder: Recorder) -> AnimationTrace? {
        guard let content = recorder.children(of: update.window).first else { return nil }
        let isCopy = { (record: Record) in
            record.kind == .draw && record.target == content && ["cleararea", "copyarea"].contains(record.arguments.first ?? "")
        }
        let copies = update.records.filter(isCopy)
        guard let owner = copies.first?.client else { return nil }
        // The fade's clock starts a little before its first frame reaches the server; frame i
        // is drawn at slot i or later, so the latest start all frames agree with is the
        // smallest `time − i × slot`.
        let origin = copies.enumerated().map { Double($0.element.time) - Double($0.offset) * slot }.min() ?? 0
        let count = Int((BannerTiming.standard.crossFadeDuration * 1000 / slot).rounded(.up))
        return trace(update.records, owner: owner, origin: origin, required: Array(0..<count), isFrame: isCopy, isBoundary: isCopy)
    }

    /// Frames, their slots, misses and requests per frame. A frame belongs to the slot it
    /// reached the server in (1 ms of slack for the server's millisecond clock).
    private static func trace(
        _ records: [Record], owner: UInt32, origin: Double, required: [Int], isFrame: (Record) -> Bool, isBoundary: (Record) -> Bool
    ) -> AnimationTrace {
        let frames = records.filter(isFrame).map(\.time)
        let slots = frames.map { Int((Double($0) - origin + 1) / slot) }
        let missed = required.filter { !slots.contains($0) }.count
        return AnimationTrace(
            frames: frames, slots: slots, requests: requestsPerFrame(records, owner: owner, isBoundary: isBoundary),
            missed: missed, expected: required.count)
    }

    /// Requests from `owner` from each frame's boundary request to the next frame's.
    private static func requestsPerFrame(_ records: [Record], owner: UInt32, isBoundary: (Record) -> Bool) -> [Int] {
        let boundaries = records.indices.filter { isBoundary(records[$0]) }
        return zip(boundaries, boundaries.dropFirst()).map { start, end in
            records[start..<end].filter { $0.client == owner && $0.isRequest }.count
        }
    }
}
