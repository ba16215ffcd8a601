// What a user of the GNOME session sees and does, for the tests (TestGnomeShell.swift starts
// the shell): a maximized foot, the screen's pixels, clicks and keys through the shell's own
// input, the overview, commands run in the session, and the work area of each monitor.

import Foundation
import Glibc
import ProcessTestSupport

extension TestGnomeShell {
    /// A maximized foot counting its re-layouts (see `TestSway.startFoot(appID:)`).
    public func startMaximizedFoot(appID: String = "foot") throws -> ResizeCountingTerminal {
        var variables = environment
        variables["PATH"] = nil
        variables["HOME"] = nil
        variables["XDG_RUNTIME_DIR"] = nil
        let terminal = try TestSway.startFoot(in: directory, runtime: runtimeDirectory, environment: variables, appID: appID, footArguments: ["--maximized"])
        clients.append(terminal.process)
        return terminal
    }

    /// A screenshot of the screen's `width`×`height` top-left area, through the shell's own
    /// Screenshot API (open to tests in `--unsafe-mode`), as 8-bit RGB.
    public func screenshot(width: Int, height: Int) throws -> Screenshot {
        let png = directory + "/shot-\(UInt32.random(in: 0...UInt32.max)).png"
        try gdbus("org.gnome.Shell.Screenshot", "/org/gnome/Shell/Screenshot", "org.gnome.Shell.Screenshot.ScreenshotArea",
                  ["0", "0", "\(width)", "\(height)", "false", png])
        defer { unlink(png) }
        // The PNG as a PPM, through GdkPixbuf (python3-gi): the same reader as TestSway's grim shots.
        let ppm = png + ".ppm"
        defer { unlink(ppm) }
        try Subprocess.run("/usr/bin/python3", ["-c", """
            import sys, gi
            gi.require_version('GdkPixbuf', '2.0')
            from gi.repository import GdkPixbuf
            image = GdkPixbuf.Pixbuf.new_from_file(sys.argv[1])
            width, height, channels = image.get_width(), image.get_height(), image.get_n_channels()
            data, stride = image.get_pixels(), image.get_rowstride()
            with open(sys.argv[2], 'wb') as out:
                out.write(b'P6 %d %d 255\\n' % (width, height))
                for row in range(height):
                    pixels = data[row * stride:row * stride + width * channels]
                    rgb = bytearray(width * 3)
                    for channel in range(3):
                        rgb[channel::3] = pixels[channel::channels]
                    out.write(rgb)
            """, png, ppm])
        return try Screenshot(ppm: try Data(contentsOf: URL(fileURLWithPath: ppm)))
    }

    /// Starts `command` as the session's user in `environment`, without waiting; it is killed
    /// with the session.
    public func start(_ command: [String]) throws -> Subprocess {
        var variables = environment
        for name in ["PATH", "HOME", "XDG_RUNTIME_DIR"] { variables[name] = nil }
        let process = try TestSway.spawn(command, in: directory, runtime: runtimeDirectory, extra: variables, log: nil)
        clients.append(process)
        return process
    }

    /// Evaluates `code` in the shell (its `Eval`, open to tests in `--unsafe-mode`); its result.
    @discardableResult
    public func evaluate(_ code: String) throws -> String {
        let answer = try gdbus("org.gnome.Shell", "/org/gnome/Shell", "org.gnome.Shell.Eval", [code])
        guard answer.hasPrefix("(true,") else { throw TestFailure("Eval failed: \(answer)") }
        return answer
    }

    /// A click of the primary button at (`x`, `y`) on the screen, through a virtual pointer of
    /// the shell's own seat: the input path a real mouse takes. The pointer is moved there first
    /// and the click sent once the shell has it there (51 applies a virtual device's first motion
    /// only with its next event).
    public func click(x: Int, y: Int) throws {
        let pointer = """
            const Clutter = imports.gi.Clutter; const GLib = imports.gi.GLib;
            const backend = Clutter.get_default_backend ? Clutter.get_default_backend() : global.stage.context.get_backend();
            globalThis.windowBannerTestPointer ??= backend.get_default_seat().create_virtual_device(Clutter.InputDeviceType.POINTER_DEVICE);
            const pointer = globalThis.windowBannerTestPointer;
            """
        let deadline = monotonicSeconds() + 20
        while try Self.evaluated(evaluate(pointer + """
            pointer.notify_absolute_motion(GLib.get_monotonic_time(), \(x), \(y));
            global.get_pointer().slice(0, 2).join(',')
            """)) != "\(x),\(y)" {
            guard monotonicSeconds() < deadline else { throw TestFailure("the pointer did not reach \(x),\(y)") }
            poll(nil, 0, 20)
        }
        try evaluate(pointer + """
            pointer.notify_button(GLib.get_monotonic_time(), Clutter.BUTTON_PRIMARY, Clutter.ButtonState.PRESSED);
            pointer.notify_button(GLib.get_monotonic_time(), Clutter.BUTTON_PRIMARY, Clutter.ButtonState.RELEASED);
            true
            """)
    }

    /// Presses `keys` together (X keysyms, modifiers first) and lets them go, through a virtual
    /// keyboard of the shell's own seat: the input path a real keyboard takes.
    public func press(_ keys: [UInt32]) throws {
        let down = keys.map { "keyboard.notify_keyval(GLib.get_monotonic_time(), \($0), Clutter.KeyState.PRESSED);" }.joined(separator: " ")
        let up = keys.reversed().map { "keyboard.notify_keyval(GLib.get_monotonic_time(), \($0), Clutter.KeyState.RELEASED);" }.joined(separator: " ")
        try evaluate("""
            const Clutter = imports.gi.Clutter; const GLib = imports.gi.GLib;
            const backend = Clutter.get_default_backend ? Clutter.get_default_backend() : global.stage.context.get_backend(); const seat = backend.get_default_seat();
            const keyboard = seat.create_virtual_device(Clutter.InputDeviceType.KEYBOARD_DEVICE);
            \(down) \(up)
            true
            """)
    }

    /// Enters or leaves the overview (the `OverviewActive` property), and waits until it has.
    public func setOverview(_ active: Bool) throws {
        try gdbus("org.gnome.Shell", "/org/gnome/Shell", "org.freedesktop.DBus.Properties.Set", ["org.gnome.Shell", "OverviewActive", "<\(active)>"])
        let deadline = monotonicSeconds() + 20
        while monotonicSeconds() < deadline {
            if try gdbus("org.gnome.Shell", "/org/gnome/Shell", "org.freedesktop.DBus.Properties.Get", ["org.gnome.Shell", "OverviewActive"])
                .contains("\(active)") { return }
            poll(nil, 0, 50)
        }
        throw TestFailure("the overview did not \(active ? "open" : "close")")
    }

    /// Runs `command` as the session's user (the user the shell runs as) in `environment`;
    /// its exit status and output.
    public func run(_ command: [String], environment: [String: String]? = nil, timeout: Double = 30) throws -> (status: Int32?, output: String, error: String) {
        let asUser = geteuid() == 0
            ? ["/usr/bin/setpriv", "--reuid=\(TestSway.unprivilegedUser)", "--regid=\(TestSway.unprivilegedUser)", "--clear-groups", "--"] : []
        var variables = environment ?? self.environment
        if let marker = Subprocess.runMarker, let equals = marker.firstIndex(of: "=") {
            variables[String(marker[..<equals])] = String(marker[marker.index(after: equals)...])
        }
        let argv = asUser + ["/usr/bin/env", "-i"] + variables.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" } + command
        let process = try Subprocess(executable: argv[0], arguments: Array(argv.dropFirst()), environment: [:])
        process.closeStandardInput()
        let status = process.waitForExit(timeout: timeout)
        return (status, process.standardOutput, process.standardError)
    }

    /// Mutter's work area of each monitor (what windows are maximized into), read from the shell
    /// itself; empty while it cannot answer.
    public func workAreas() -> [SwayRect] {
        let code = """
            const workspace = global.workspace_manager.get_active_workspace();
            [...Array(global.display.get_n_monitors()).keys()].map(index => {
                const area = workspace.get_work_area_for_monitor(index);
                return [area.x, area.y, area.width, area.height].join(' ');
            }).join(';')
            """
        guard let answer = try? evaluate(code) else { return [] }
        return Self.evaluated(answer).split(separator: ";").compactMap { monitor in
            let numbers = monitor.split(separator: " ").compactMap { Int($0) }
            return numbers.count == 4 ? SwayRect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3]) : nil
        }
    }

    /// The value of an `Eval` answer (`(true, '"…"')`), without its quotes.
    public static func evaluated(_ answer: String) -> String {
        var text = answer.trimmingCharacters(in: .whitespacesAndNewlines)
        for prefix in ["(true, '", "\""] where text.hasPrefix(prefix) { text.removeFirst(prefix.count) }
        for suffix in ["')", "\""] where text.hasSuffix(suffix) { text.removeLast(suffix.count) }
        return text
    }

    /// Waits (bounded, looking every 20 ms: nothing announces Mutter's work area to another
    /// user's process) until `condition` holds for the work areas; the last ones read.
    @discardableResult
    public func awaitWorkAreas(timeout: Double = 20, _ condition: ([SwayRect]) -> Bool) -> [SwayRect] {
        let deadline = monotonicSeconds() + timeout
        var areas = workAreas()
        while !condition(areas), monotonicSeconds() < deadline {
            poll(nil, 0, 20)
            areas = workAreas()
        }
        return areas
    }
}
