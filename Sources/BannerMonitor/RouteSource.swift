// Where the network monitor learns whether there is a route: NetworkPath's rtnetlink monitor,
// which debounces the kernel's bursts of messages (a test gives its own). The monitor's loop
// serves it: its descriptor and its debounce deadline (RouteServing).

import BannerCore
import BannerProcess
import Glibc
import MonotonicClock
import NetworkPath
import OwnerIPC
import Reactor

/// The routes as the network monitor reads them.
package protocol RouteSource: AnyObject {
    /// Readable when the kernel (or a test) has news.
    var fileDescriptor: Int32 { get }
    /// The route as last decided.
    var currentStatus: PathStatus { get }
    /// When the debounced news is due, on the monotonic clock; nil when none is pending.
    var nextDeadline: MonotonicTime? { get }
    /// Reads what is there; the new status when it changed and no debounce holds it back.
    func handleReadable() throws(PathMonitorError) -> PathStatus?
    /// The debounce deadline passed; the new status when it changed.
    func handleDeadline() throws(PathMonitorError) -> PathStatus?
}

extension PathMonitor: RouteSource {}

/// The routes as the monitor's loop serves them (a LoopSource): the news read when the
/// descriptor is readable, the debounced news when its deadline comes; a failure ends it.
final class RouteServing: LoopSource {
    let routes: any RouteSource
    let changed: (PathStatus) -> Void

    init(_ routes: any RouteSource, changed: @escaping (PathStatus) -> Void) {
        self.routes = routes
        self.changed = changed
    }

    var descriptors: [PollDescriptor] { [PollDescriptor(fd: routes.fileDescriptor, events: Int16(POLLIN))] }
    var deadline: MonotonicTime? { routes.nextDeadline }

    func process(ready: [PollDescriptor]) throws {
        let status = ready.isEmpty ? try routes.handleDeadline() : try routes.handleReadable()
        if let status { changed(status) }
    }
}

extension NetworkBannerMonitor {
    func networkChanged(to status: PathStatus) {
        logRoute(status)
        route = status
        routeChanged()
    }

    func logRoute(_ status: PathStatus) {
        if status.isSatisfied {
            let tags = [status.supportsIPv4 ? "ipv4" : nil, status.supportsIPv6 ? "ipv6" : nil, status.isExpensive ? "expensive" : nil]
            log((["online via \(status.interfaceName ?? "?")"] + tags.compactMap { $0 }).joined(separator: " "))
        } else {
            log("offline")
        }
    }

    func networkFailed(_ error: any Error) {
        Terminal.error("the network monitor failed: \(error)")
        stop(status: ExitStatus.networkMonitorFailed, reason: nil)
    }
}
