// `window-banner action`: a click on an action button of the banner on screen, without the
// pointer — for a keyboard shortcut, a script, or a user who cannot aim. The owner does exactly
// what the click does: the button's command runs, the banner slides away, and a `show --wait`
// waiting for it reports `action` (15) or `secondary-action` (16).

import ArgumentParser
import BannerCore
import OwnerIPC
import OwnerProtocol
import ShowArguments

package struct ActionCommand: ParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "action",
        abstract: "Click an action button of the banner on screen, as the user would.",
        discussion: """
        Without LABEL: the primary action (the first --action); with --secondary: the secondary \
        one (the second --action); with LABEL: the button with exactly that label. The banner on \
        the primary monitor is tried first, then the others (or only --monitor's; with --id, \
        only the banner shown with that key). The button's command runs, the banner slides \
        away, and show --wait reports action (15) or secondary-action (16). Does not start an \
        owner. Exit codes: 0 the button was clicked; 64 bad usage, or no banner on screen has \
        that button (nothing changes); 75 owner not reachable; 76 protocol version mismatch.
        """
    )

    @Argument(help: ArgumentHelp("The button's label, exactly as given to --action (before any =COMMAND). Default: the primary action.", valueName: "label"))
    package var label: String?

    @Flag(help: "The secondary action (the second --action) instead of the primary one.")
    package var secondary = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Only this monitor's banner: a RandR monitor name, 'primary' or 'all'.", valueName: "name"))
    package var monitor: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Only the banner shown with --id KEY.", valueName: "key"))
    package var id: String?

    @OptionGroup package var connection: ConnectionOptions

    package func validate() throws {
        if let label, secondary {
            throw ValidationError("give a label ('\(label.printable)') or --secondary, not both")
        }
    }

    package func run() throws {
        let request = OwnerRequest(ActionRequest(label: label, secondary: secondary, monitor: monitor, id: id))
        do {
            guard let exchange = try connection.client().exchange(request, start: false, configPath: nil) else {
                throw CommandFailure("no banner on screen (no owner runs)", code: ExitStatus.usage)
            }
            exchange.close()
            if let error = exchange.response.error { throw OwnerClient.failure(error) }
        } catch let failure as CommandFailure {
            throw failure.exit
        }
    }
}
