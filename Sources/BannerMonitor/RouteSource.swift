// Where the network monitor learns whether there is a route: NetworkPath's rtnetlink monitor,
// which debounces the kernel's bursts of messages (a test gives its own). Its descriptor is
// watched on the monitor's loop and its debounce deadline armed there.

import BannerCore
import BannerProcess
import MonotonicClock
import NetworkPath
import WindowBannerClient

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

extension NetworkBannerMonitor {
    func networkReadable() {
        do throws(PathMonitorError) {
            if let status = try network.handleReadable() { networkChanged(to: status) }
        } catch {
            networkFailed(error)
        }
        scheduleNetworkDeadline()
    }

    /// The monitor debounces bursts: wake when it wants to decide.
    func scheduleNetworkDeadline() {
        networkTimer.set(at: exitStatus == nil ? network.nextDeadline : nil) { [unowned self] in
            do throws(PathMonitorError) {
                if let status = try network.handleDeadline() { networkChanged(to: status) }
            } catch {
                networkFailed(error)
            }
            scheduleNetworkDeadline()
        }
    }

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

    func networkFailed(_ error: PathMonitorError) {
        Terminal.error("the network monitor failed: \(error)")
        stop(status: ExitStatus.networkMonitorFailed, reason: nil)
    }
}
