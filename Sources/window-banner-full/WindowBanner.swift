// The `window-banner` command as window-banner-full runs it: every subcommand (the small
// window-banner binary runs show/dismiss/status/stats itself and hands the rest here). Each subcommand is a declarative type;
// values are parsed by BannerCore so every bad value gets the same one-line message and
// exit code 64. Start reading at `ShowCommand.run()` (ShowArguments's ShowCommand.swift), then `Owner`.

import ArgumentParser
import BannerProcess
import BannerRuntime
import BannerX11
import CMalloc
import OwnerIPC
import ShowArguments
import StartupTrace
import WindowBannerClient

@main
struct WindowBanner: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "window-banner",
        abstract: "A status banner at the top of an X11 desktop that reserves its own space.",
        discussion: """
        Scripts use show, dismiss, status and action: the first show starts the display's owner \
        process, which keeps the banner after the command returns. run shows a banner for as \
        long as it runs itself.

        Exit codes: 0 success; 64 bad usage or value (also unknown monitor or style); 69 no \
        display or display unreachable; 70 internal error; 71 monitor: rtnetlink failed; 75 owner \
        process not reachable \
        (temporary, try again); 76 owner speaks another protocol version; 77 --user/--all-users: \
        the program cannot be run as that user; 78 broken config \
        file; show --wait: 0 timeout, 10 dismissed, 11 replaced, 12 clicked, 13 closed (the ✕), \
        14 swiped (wheel up or drag up), 15 action (its button), 16 secondary-action (the \
        second --action's button); 126/127 the command given to \
        run could not be started; otherwise run -- COMMAND exits with the command's status.
        """,
        version: ProgramData.version,
        subcommands: [ShowCommand.self, DismissCommand.self, StatusCommand.self, StatsCommand.self, ActionCommand.self, RunCommand.self, MonitorCommand.self, BroadcastCommand.self, DaemonCommand.self, DemoCommand.self]
    )

    static func main() {
        StartupTrace.mark("main")
        // The commands that draw start fontconfig's few milliseconds of start-up on a thread
        // now, so they overlap parsing the arguments and connecting to the X server.
        if let command = CommandLine.arguments.dropFirst().first, ["daemon", "run", "demo"].contains(command) {
            // One malloc arena: the warm-up thread's allocations (fontconfig's config, kept for
            // good) share the main heap instead of holding a second one.
            _ = mallopt(M_ARENA_MAX, 1)
            FontWarmup.start(deferrable: true)
        }
        // The monitor's threads (PipeWire's, the HTTP check's) share the main heap too.
        if CommandLine.arguments.dropFirst().first == "monitor" { _ = mallopt(M_ARENA_MAX, 1) }
        // A command that names no display finds the user's session first.
        if let command = CommandLine.arguments.dropFirst().first, ClientCommands.names.contains(command) || command == "run" {
            SessionRouting.route(CommandLine.arguments)
        }
        if let owner = DaemonCommand.startedByShow(Array(CommandLine.arguments.dropFirst())) {
            CommandLineMain.run(owner)
        }
        CommandLineMain.run(self)
    }
}
