// Items 1 and 2 of the benchmark: command → on screen, and update in place, read off the X
// server's own timestamps. A run sets a marker, execs the command, then waits in the recorded
// stream for the tool's window to be mapped on the root (MapNotify) and for the first request
// that draws into that window or its children afterwards. A window whose background was set to
// a pixmap before it was mapped (WindowBanner's content shows its finished back buffer) is
// painted by the server during the map itself, so the map is its first frame.

import Glibc

/// One run of a tool, in milliseconds after the command's exec.
struct Appearance {
    /// Its X connection opened, when the tool opened a new one for this run.
    var connect: Double?
    /// The window's client sent its first request after the exec (for `show`: the owner starts on it).
    var firstRequest: Double?
    /// MapNotify of its window on the root.
    var map: Double
    /// The first drawing request into that window after the map (or the map, see above).
    var frame: Double
    /// The command returned, for commands that return while the window stays.
    var exit: Double?
    /// The window, the client that made it, and what the server saw since the marker.
    var window: UInt32
    var client: UInt32
    var records: [Record]
}

/// A tool measured from its command line to its window on screen.
struct ScreenTool {
    let name: String
    let window: WindowMatch
    /// The command line for one run.
    let command: [String]
    /// A new command line for each run instead (a title never shown before), if set.
    var makeCommand: (() -> [String])? = nil
    var environment: [String: String]? = nil
    /// Before each run: the state the run must start from.
    var prepare: () throws -> Void = {}
    /// After each run: take the window off the screen and wait until it is gone.
    let clear: (Child, Appearance) throws -> Void
    /// How long to keep recording after the first frame (an animation to look at).
    var follow: Double = 0
}

/// An update in place: something on screen, then a command that changes it.
struct UpdateTool {
    let name: String
    let window: WindowMatch
    /// Puts the first look on screen and waits until it has settled; returns its window.
    let present: () throws -> UInt32
    /// The command that changes it.
    let update: () throws -> [String]
    /// Takes it off the screen and waits until it is gone.
    let clear: (UInt32) throws -> Void
    var follow: Double = 0
}

/// One update in place, in milliseconds after the command's exec.
struct Update {
    /// The first drawing into the window after the exec.
    var frame: Double
    /// The second drawing (the cross-fade's next frame).
    var secondFrame: Double?
    var exit: Double?
    var window: UInt32
    var records: [Record]
}

final class ScreenLatency {
    let desktop: Desktop
    private var supervisor: Supervisor { desktop.supervisor }
    private var recorder: Recorder { desktop.recorder }

    init(desktop: Desktop) { self.desktop = desktop }

    /// Execs `tool`'s command and follows its window onto the screen.
    func appearance(of tool: ScreenTool) throws -> Appearance {
        try tool.prepare()
        try recorder.mark()
        let child = try supervisor.spawn(tool.makeCommand?() ?? tool.command, environment: tool.environment ?? desktop.environment, name: tool.name)
        guard let mapIndex = firstMap(of: tool.window) else {
            supervisor.stop(child)
            throw BenchFailure("\(tool.name): no window (\(tool.window.description)) mapped within 10 s")
        }
        let map = recorder.records[mapIndex]
        let window = map.target
        let creator = recorder.windows[window]?.creator ?? 0
        guard let frameIndex = firstFrame(of: window, mappedAt: mapIndex) else {
            supervisor.stop(child)
            throw BenchFailure("\(tool.name): its window was mapped but nothing was drawn into it within 5 s")
        }
        let frameTime = recorder.records[frameIndex].time
        if tool.follow > 0 { supervisor.observe(seconds: tool.follow) }
        let start = child.startedAt
        let connect = recorder.records.first { $0.kind == .start && $0.client == creator }.map { recorder.monotonic($0.time) - start }
        let firstRequest = recorder.records.first { $0.client == creator && $0.isRequest }.map { recorder.monotonic($0.time) - start }
        var appearance = Appearance(
            connect: connect, firstRequest: firstRequest, map: recorder.monotonic(map.time) - start, frame: recorder.monotonic(frameTime) - start,
            exit: nil, window: window, client: creator, records: recorder.records)
        try tool.clear(child, appearance)
        appearance.exit = child.exit.map { $0.at - start }
        return appearance
    }

    /// The record index of the first MapNotify, since the last marker, of a window on the root
    /// that `match` picks out; nil after `timeout` seconds.
    func firstMap(of match: WindowMatch, timeout: Double = 10) -> Int? {
        let root = recorder.root
        return recorder.waitForRecord(timeout: timeout) { record in
            guard record.kind == .mapnotify, let info = recorder.windows[record.target] else { return false }
            return info.parent == root && match.test(info)
        }
    }

    /// The record index of `window`'s first frame: the first drawing request into it (or a
    /// window inside it) after its map — or the map itself when a background pixmap was set
    /// inside it before, which the server paints as it maps. Nil after `timeout` seconds.
    func firstFrame(of window: UInt32, mappedAt mapIndex: Int, timeout: Double = 5) -> Int? {
        let painted = recorder.records[..<mapIndex].contains { $0.backgroundPixmap != nil && recorder.isInside($0.target, window) }
        if painted { return mapIndex }
        return recorder.waitForRecord(from: mapIndex, timeout: timeout) { record in
            record.kind == .draw && recorder.isInside(recorder.drawable(of: record), window)
        }
    }

    /// Puts `tool`'s first look on screen, execs its update and finds the first frames after it.
    func update(with tool: UpdateTool) throws -> Update {
        let window = try tool.present()
        try recorder.mark()
        let child = try supervisor.spawn(try tool.update(), environment: desktop.environment, name: tool.name)
        // Drawn after the exec, on the server's clock (CLOCK_MONOTONIC in whole milliseconds).
        let exec = Int(child.startedAt.rounded(.down))
        let drawsInto = { (record: Record) in
            record.kind == .draw && record.time >= exec && self.recorder.isInside(self.recorder.drawable(of: record), window)
        }
        guard let first = recorder.waitForRecord(timeout: 10, where: drawsInto) else {
            supervisor.stop(child)
            throw BenchFailure("\(tool.name): nothing drawn into the window within 10 s of the update")
        }
        if tool.follow > 0 { supervisor.observe(seconds: tool.follow) }
        // A frame is one burst of drawing: the next draw at a later server millisecond.
        let firstTime = recorder.records[first].time
        let second = recorder.firstIndex(from: first + 1) { drawsInto($0) && $0.time > firstTime }
        guard supervisor.waitForExit(child, timeout: 10) != nil else {
            supervisor.stop(child)
            throw BenchFailure("\(tool.name): the update command did not return within 10 s")
        }
        let start = child.startedAt
        let update = Update(
            frame: recorder.monotonic(firstTime) - start,
            secondFrame: second.map { recorder.monotonic(recorder.records[$0].time) - start },
            exit: child.exit.map { $0.at - start }, window: window, records: recorder.records)
        try tool.clear(window)
        return update
    }

    /// Waits for the window to go: destroyed (or unmapped, with `unmapIsEnough`).
    func waitUntilGone(_ window: UInt32, unmapIsEnough: Bool = false, what: String) throws {
        let gone = recorder.waitForRecord(timeout: 5) { record in
            record.target == window && (record.kind == .destroy || (unmapIsEnough && (record.kind == .unmap || record.kind == .unmapnotify)))
        }
        guard gone != nil else { throw BenchFailure("\(what): the window did not go within 5 s") }
    }

    /// Waits for `client`'s X connection to close: a process that ended without destroying its
    /// windows (killed, or quitting) shows it gone no other way. `what` ended it.
    func waitUntilDisconnected(_ client: UInt32, what: String) throws {
        guard recorder.waitForRecord(timeout: 5, where: { $0.kind == .gone && $0.client == client }) != nil else {
            throw BenchFailure("\(what): its X connection did not close within 5 s")
        }
    }

    /// Runs a command to completion (dismiss, dunstctl) with the desktop's environment.
    func run(_ arguments: [String], environment: [String: String]? = nil) throws {
        try supervisor.run(arguments, environment: environment ?? desktop.environment)
    }
}
