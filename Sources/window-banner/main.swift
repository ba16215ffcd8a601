// `window-banner`: the command scripts call. show, dismiss, status and stats run here — a
// small binary with no X11 and no Foundation, so a `show` to a running owner costs about
// 2 ms of start-up instead of 5. Every other command (run, monitor, daemon, demo, help) is the
// same command line handed to window-banner-x11 next to this binary by exec, so its
// arguments, help and exit codes are exactly that binary's.

import WindowBannerClient

let arguments = CommandLine.arguments
if let command = arguments.dropFirst().first, ClientCommands.names.contains(command) {
    ClientCommands.main()
} else {
    FullProgram.exec(arguments)
}
