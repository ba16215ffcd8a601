// NetworkManager as the network monitor's connectivity source (`--connectivity networkmanager`,
// or `auto` when it is on the system bus): its `Connectivity` property and its changes, over
// sd-bus, the watch served by the monitor's loop (a LoopSource). Losing the bus falls back to the
// routes.

import BannerConfig
import BannerCore
import BannerProcess
import BannerRuntime
import MonotonicClock
import NetworkManagerBus
import NetworkPath
import OwnerIPC
import SDBus

extension NetworkBannerMonitor {
    /// Picks the source `--connectivity` asks for and prints it; for NetworkManager, returns
    /// its first report. Throws when an explicit `networkmanager` cannot be had.
    func startSource() throws(CommandFailure) -> ConnectivityReport? {
        switch connectivity.source {
        case .routes:
            log("connectivity from routes")
        case .http:
            try startHTTPChecks()
        case .networkmanager, .auto:
            return try startNetworkManager(required: connectivity.source == .networkmanager)
        }
        return nil
    }

    /// NetworkManager's `Connectivity` property, watched on the system bus: its first value.
    /// Without NetworkManager, the routes decide — or, when it was asked for by name, an error.
    func startNetworkManager(required: Bool) throws(CommandFailure) -> ConnectivityReport? {
        let watch: NetworkManagerWatch
        let running: Bool
        do throws(BusError) {
            watch = try NetworkManagerWatch()
            running = try watch.serviceIsRunning()
        } catch {
            guard !required else { throw CommandFailure("\(error)", code: ExitStatus.networkMonitorFailed) }
            log("connectivity from routes (\(error))")
            return nil
        }
        guard running else {
            guard !required else { throw CommandFailure("NetworkManager is not on the system bus", code: ExitStatus.networkMonitorFailed) }
            log("connectivity from routes (NetworkManager is not on the system bus)")
            return nil
        }
        // NetworkManager's portal opens the check URL: under the test hook it must be local.
        try connectivity.refuseUnlessAllowed()
        let value: UInt32
        do throws(BusError) {
            value = try watch.start()
        } catch {
            guard !required else { throw CommandFailure("\(error)", code: ExitStatus.networkMonitorFailed) }
            log("connectivity from routes (\(error))")
            return nil
        }
        watch.onEvents = { [unowned self] events in
            for event in events {
                switch event {
                case .connectivity(let value):
                    reported(networkManagerReport(value))
                case .gone:
                    reported(ConnectivityReport(level: .unknown, reason: "networkmanager left the system bus; routes decide"))
                }
                decide()
            }
        }
        let served = loop.serve(watch) { [unowned self] error in busLost(error) }
        source = .networkManager(watch, served: served)
        log("connectivity from networkmanager")
        return networkManagerReport(value)
    }

    func networkManagerReport(_ value: UInt32) -> ConnectivityReport {
        .networkManager(ConnectivityLevel(networkManagerValue: value) ?? .unknown, checkURL: connectivity.rule.url.description)
    }

    /// The system bus went: without it the routes still tell offline from online.
    func busLost(_ error: any Error) {
        Terminal.warning("lost NetworkManager: \(error); going on with routes")
        source = .routes
        reported(ConnectivityReport(level: .unknown, reason: "\(error); routes decide"))
        decide()
    }

    /// A new report from the source: printed when it says something new.
    func reported(_ new: ConnectivityReport) {
        report = new
        if new.line != reportLine { log(new.line) }
        reportLine = new.line
    }
}
