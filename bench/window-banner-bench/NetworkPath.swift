// Item 6: the network path. `window-banner monitor` runs inside a private network namespace
// (a veth link with an address and a default route, as the test suite builds it) against the
// warm owner; each run deletes the default route with `ip` and times that command to the
// offline banner's map and first frame on the server's clock, then puts the route back and
// waits until "Back Online" has slid away. Needs root for `ip netns`.

import Glibc

extension Lineup {
    static let namespacePrefix = "wbbench-"

    /// `runs` route removals after `warmup` unrecorded ones; nil (with a reason) when not root.
    func networkPath(runs: Int, warmup: Int) throws -> [Appearance] {
        guard geteuid() == 0 else { throw BenchFailure("skipped: network namespaces need root") }
        let candidates: [String] = ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"]
        let ip = candidates.first { access($0, X_OK) == 0 } ?? "ip"
        sweepNamespaces(ip)
        let namespace = "\(Self.namespacePrefix)\(getpid())"
        let route = ["default", "via", "10.1.0.1", "dev", "veth0"]
        try screen.run([ip, "netns", "add", namespace])
        defer { try? screen.run([ip, "netns", "del", namespace]) }
        for command in [
            ["link", "add", "veth0", "type", "veth", "peer", "name", "peer0"], ["link", "set", "peer0", "up"],
            ["link", "set", "veth0", "up"], ["addr", "add", "10.1.0.2/24", "dev", "veth0"], ["route", "add"] + route,
        ] {
            try screen.run([ip, "-n", namespace] + command)
        }
        // The owner is warm, as for `show`: the monitor is one more client of it.
        let first = try presentBanner()
        try screen.run([banner, "dismiss"])
        try screen.waitUntilGone(first, what: "window-banner dismiss")

        let monitor = try supervisor.spawn(
            [ip, "netns", "exec", namespace, banner, "monitor", "--monitor", "primary", "--hide-delay", "0.1",
             "--offline-compact", "never", "--restored-compact", "never"],
            environment: desktop.environment, name: "window-banner monitor", stdout: .pipe)
        defer { supervisor.stop(monitor, grace: 5) }
        guard supervisor.wait(seconds: 10, until: { monitor.lines.contains { $0.hasSuffix("online via veth0 ipv4") } || !monitor.isRunning }),
              monitor.isRunning else {
            throw BenchFailure("window-banner monitor did not report the namespace online")
        }

        var results: [Appearance] = []
        for index in 0..<(warmup + runs) {
            try recorder.mark()
            let removal = try supervisor.spawn([ip, "-n", namespace, "route", "del"] + route, environment: desktop.environment, name: "ip route del")
            guard let mapIndex = screen.firstMap(of: Self.bannerWindow) else { throw BenchFailure("no offline banner within 10 s") }
            let window = recorder.records[mapIndex].target
            let creator = recorder.windows[window]?.creator ?? 0
            guard let frameIndex = screen.firstFrame(of: window, mappedAt: mapIndex), supervisor.waitForExit(removal, timeout: 5) == 0 else {
                throw BenchFailure("the offline banner was not drawn, or ip route del failed")
            }
            if index >= warmup {
                let start = removal.startedAt
                let firstRequest = recorder.records.first { $0.client == creator && $0.isRequest }.map { recorder.monotonic($0.time) - start }
                results.append(Appearance(
                    connect: nil, firstRequest: firstRequest, map: recorder.monotonic(recorder.records[mapIndex].time) - start,
                    frame: recorder.monotonic(recorder.records[frameIndex].time) - start,
                    exit: removal.exit.map { $0.at - start }, window: window, client: creator, records: []))
            }
            let hidden = monitor.lines.filter { $0.hasSuffix("restored banner hidden") }.count
            try screen.run([ip, "-n", namespace, "route", "add"] + route)
            guard supervisor.wait(seconds: 10, until: { monitor.lines.filter { $0.hasSuffix("restored banner hidden") }.count > hidden }) else {
                throw BenchFailure("the monitor never hid \"Back Online\"")
            }
            try screen.waitUntilGone(window, what: "the restored banner")
        }
        return results
    }

    /// Deletes namespaces left by benchmark runs that were killed.
    private func sweepNamespaces(_ ip: String) {
        guard let list = try? supervisor.run([ip, "netns", "list"], environment: desktop.environment) else { return }
        for line in list {
            guard let name = line.split(separator: " ").first, name.hasPrefix(Self.namespacePrefix),
                  let owner = pid_t(name.dropFirst(Self.namespacePrefix.count)), kill(owner, 0) != 0 else { continue }
            _ = try? supervisor.run([ip, "netns", "del", String(name)], environment: desktop.environment)
        }
    }
}
