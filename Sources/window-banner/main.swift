// `window-banner`: the command scripts call. show, dismiss, status, stats and action run here — a
// small binary with no X11 and no Foundation, and a `show` to a running owner does not even
// parse its arguments: the owner does (ShowForwarding). Every other command (run, monitor, daemon, demo, help) is the
// same command line handed to window-banner-full next to this binary by exec, so its
// arguments, help and exit codes are exactly that binary's. So is a command that names no
// display when no owner of this user's answers (SessionSearch): window-banner-full asks logind.

import Glibc
import OwnerIPC
import StartupTrace
import WindowBannerClient

StartupTrace.mark("show")
let arguments = CommandLine.arguments
if let command = arguments.dropFirst().first, ClientCommands.names.contains(command) {
    // No display named: an owner of this user's is found here; logind is window-banner-full's.
    if SessionSearch.decide(Array(arguments.dropFirst(2))) == .askLogind { FullProgram.exec(arguments) }
    // A `show` to a running owner goes as typed: it parses the arguments (ShowForwarding).
    if command == "show", let status = ShowForwarding.attempt(Array(arguments.dropFirst(2))) {
        StartupTrace.mark("show returns")
        StartupTrace.report()
        exit(status)
    }
    ClientCommands.main()
} else {
    FullProgram.exec(arguments)
}
