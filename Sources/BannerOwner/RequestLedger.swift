// Every `show` the owner has taken and not yet finished, by token: the monitors it is still on
// (visible or queued), the clients waiting for its end (`--wait`), and what outlives the process
// (the `--once` keys shown and the stats, kept by OwnerState). A request is counted as an
// impression the first time it comes on screen, and its end once the last monitor is done with
// it; a `--once` key counts as taken from the moment its request is opened.

import BannerCore
import OwnerProtocol

/// One `show` the owner has taken.
package struct RequestState {
    package var monitors: Set<String>
    package var commands: ClickCommands
    /// What the stats count it under.
    package var key: String
    package var once: String?
    /// The `--style` it was shown with, for `status`.
    package var style: String?
    /// Spoken by a screen reader at once (`--politeness`, the style's, the built-in default).
    package var assertive: Bool
    /// Asked for on every monitor (`--monitor all`): a monitor added while it shows gets it.
    package var everyMonitor: Bool
    /// Asked for with `--enqueue`: wherever it goes later, it waits behind what shows there.
    package var enqueue: Bool
    /// On screen at least once (counted as an impression).
    package var presented = false
    /// Held back while the screen is shared (`--private`, a private style).
    package var isPrivate = false
    package var waiters: Set<Int> = []
    /// The request as received, and the client's environment: what a `handover` describes.
    package var show: ShowRequest
    package var environment: [String: String]?

    package init(
        monitors: Set<String>, commands: ClickCommands, key: String, once: String?, style: String?, assertive: Bool,
        everyMonitor: Bool, enqueue: Bool, show: ShowRequest, environment: [String: String]?
    ) {
        self.monitors = monitors
        self.commands = commands
        self.key = key
        self.once = once
        self.style = style
        self.assertive = assertive
        self.everyMonitor = everyMonitor
        self.enqueue = enqueue
        self.show = show
        self.environment = environment
    }
}

package final class RequestLedger {
    private var requests: [Int: RequestState] = [:]
    private var lastToken = 0
    /// `--once` keys and stats, on disk across restarts.
    private var state: OwnerState

    /// A ledger whose `--once` keys and stats are kept under `stateDirectory` (nil: nowhere).
    package init(stateDirectory: String?) {
        state = OwnerState(directory: stateDirectory)
    }

    /// The state files that could not be read, one line each, for the log.
    package var problems: [String] { state.problems }
    package var stats: BannerStats { state.stats }
    package var hasUnsavedChanges: Bool { state.hasUnsavedChanges }
    package func saveChanges() { state.saveChanges() }

    /// No request is open.
    package var isEmpty: Bool { requests.isEmpty }
    /// Some client waits for a request's end.
    package var hasWaiters: Bool { requests.values.contains { !$0.waiters.isEmpty } }

    package subscript(token: Int) -> RequestState? { requests[token] }

    /// Whether a banner with the `--once` key `key` was ever shown, or is on its way now.
    package func isTaken(once key: String) -> Bool {
        state.wasShown(once: key) || requests.values.contains { $0.once == key }
    }

    /// Opens `request`; its token.
    package func open(_ request: RequestState) -> Int {
        lastToken += 1
        requests[lastToken] = request
        return lastToken
    }

    package func addWaiter(_ client: Int, to token: Int) { requests[token]?.waiters.insert(client) }
    package func removeWaiter(_ client: Int, from token: Int) { requests[token]?.waiters.remove(client) }

    /// The request came on screen: the first time, an impression, and its `--once` key shown.
    package func presented(_ token: Int) {
        guard var request = requests[token], !request.presented else { return }
        request.presented = true
        requests[token] = request
        state.recordImpression(request.key)
        if let once = request.once { state.markShown(once: once) }
    }

    /// The request goes to `monitor` too (a monitor plugged in, or one it moved to).
    package func add(monitor: String, to token: Int) { requests[token]?.monitors.insert(monitor) }
    /// The request leaves `monitor` without ending there (it moves off a monitor unplugged).
    package func remove(monitor: String, from token: Int) { requests[token]?.monitors.remove(monitor) }

    /// `monitor` is done with the request, which ended there for `reason`: once no monitor is
    /// left, it is closed, its end counted, and returned for its waiters to be told.
    package func finish(_ token: Int, reason: BannerEndReason, on monitor: String) -> RequestState? {
        guard var request = requests[token] else { return nil }
        request.monitors.remove(monitor)
        guard request.monitors.isEmpty else {
            requests[token] = request
            return nil
        }
        if request.presented { state.recordEnd(request.key, reason: reason) }
        requests[token] = nil
        return request
    }
}
