// The network monitor as a library, unit-tested: the real NetworkBannerMonitor on an embedded
// loop whose clock only the test moves, learning routes from fake routes (a pipe the test
// writes to, as the kernel's netlink socket would be readable) and showing its banners through
// fake banners that record what the owner would have been asked. The hide delay and the
// debounce are asserted on that clock. The real thing — rtnetlink in network namespaces, a
// real owner, NetworkManager on a real bus, HTTP checks against a local server — stays in
// NetworkPathTests and WindowBannerCLITests.

import BannerConfig
import BannerCore
import BannerMonitor
import BannerRuntime
import EmbeddedTestSupport
import Glibc
import MonotonicClock
import NetworkPath
import OwnerIPC
import OwnerProtocol
import Testing

/// Routes the test decides, announced on a pipe like the kernel's news on netlink.
final class FakeRoutes: RouteSource {
    private let pipeEnds: [Int32]
    private var pending: [PathStatus] = []
    private(set) var currentStatus: PathStatus
    /// When set, news waits until this deadline (as PathMonitor's debounce does).
    var debounceUntil: MonotonicTime?
    private var held: PathStatus?

    init(_ initial: PathStatus) {
        var ends: [Int32] = [0, 0]
        _ = pipe(&ends)
        for end in ends { _ = fcntl(end, F_SETFL, O_NONBLOCK) }
        pipeEnds = ends
        currentStatus = initial
    }

    deinit { pipeEnds.forEach { close($0) } }

    var fileDescriptor: Int32 { pipeEnds[0] }
    var nextDeadline: MonotonicTime? { held == nil ? nil : debounceUntil }

    /// The kernel says the route is now `status`.
    func announce(_ status: PathStatus) {
        pending.append(status)
        var byte: UInt8 = 1
        _ = write(pipeEnds[1], &byte, 1)
    }

    func handleReadable() throws(PathMonitorError) -> PathStatus? {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(pipeEnds[0], &buffer, buffer.count) > 0 {}
        guard let status = pending.last else { return nil }
        pending.removeAll()
        if debounceUntil != nil {
            held = status
            return nil
        }
        return decided(status)
    }

    func handleDeadline() throws(PathMonitorError) -> PathStatus? {
        guard let held else { return nil }
        self.held = nil
        debounceUntil = nil
        return decided(held)
    }

    private func decided(_ status: PathStatus) -> PathStatus? {
        guard status != currentStatus else { return nil }
        currentStatus = status
        return status
    }
}

/// The owner, as the watcher sees it: what it was asked to show and dismiss.
final class FakeBanners: WatcherBanners {
    final class Shown: ShownBannerHandle {
        let request: ShowRequest
        let onEnd: (BannerEndReason?) -> Void
        private(set) var closed = false
        init(request: ShowRequest, onEnd: @escaping (BannerEndReason?) -> Void) {
            self.request = request
            self.onEnd = onEnd
        }
        func close() { closed = true }
    }

    /// Every banner shown, in order.
    private(set) var shown: [Shown] = []
    /// Every `dismiss --id`, in order.
    private(set) var dismissed: [String] = []
    /// Set: the owner cannot be reached.
    var unreachable = false

    /// What was asked of the owner, in order: `show STYLE` and `dismiss ID`.
    private(set) var asked: [String] = []

    func show(_ request: ShowRequest, onEnd: @escaping (BannerEndReason?) -> Void) throws(CommandFailure) -> any ShownBannerHandle {
        guard !unreachable else { throw CommandFailure("no owner", code: ExitStatus.unreachable) }
        let made = Shown(request: request, onEnd: onEnd)
        shown.append(made)
        asked.append("show \(request.style ?? "?")")
        return made
    }

    func dismiss(id: String) throws(CommandFailure) -> Bool {
        guard !unreachable else { throw CommandFailure("no owner", code: ExitStatus.unreachable) }
        dismissed.append(id)
        asked.append("dismiss \(id)")
        return true
    }

    /// Every sharing report, in order.
    private(set) var sharingReports: [Bool] = []

    func reportSharing(_ sharing: Bool) throws(CommandFailure) {
        guard !unreachable else { throw CommandFailure("no owner", code: ExitStatus.unreachable) }
        sharingReports.append(sharing)
    }
}

let online = PathStatus(status: .satisfied, interfaceName: "eth0", supportsIPv4: true)

final class MonitorHarness {
    let embedded = EmbeddedLoop()
    let routes: FakeRoutes
    let banners = FakeBanners()
    let monitor: NetworkBannerMonitor
    private(set) var events: [String] = []

    init(startingWith route: PathStatus, hideDelay: Double = 2) throws {
        routes = FakeRoutes(route)
        func request(_ style: String) -> ShowRequest {
            ShowRequest(settings: AppearanceSettings(), style: style, sticky: true, monitor: "all", id: NetworkBannerMonitor.bannerID, wait: true)
        }
        let settings = ConnectivitySettings(
            source: .routes, rule: HTTPCheckRule(url: try CheckURL(CheckURL.default), expectedBody: nil), interval: 300, timeout: 5,
            localOnly: true)
        monitor = NetworkBannerMonitor(
            requests: [.offline: request("offline"), .restored: request("online"), .portal: request("portal")], hideDelay: hideDelay,
            connectivity: settings, routes: routes, banners: banners, loop: embedded.loop)
        monitor.output = { [unowned self] line in events.append(String(line.drop { $0 != " " }.dropFirst())) }
        try monitor.start()
        embedded.turn()
    }
}

@Suite("The network monitor, on an embedded loop with fake routes and banners")
struct NetworkBannerMonitorTests {
    @Test func goingOfflineShowsTheOfflineBannerAndComingBackShowsBackOnlineForTheHideDelay() throws {
        let harness = try MonitorHarness(startingWith: online)
        #expect(harness.banners.asked.isEmpty)
        harness.routes.announce(.unsatisfied)
        harness.embedded.turn()
        #expect(harness.banners.asked == ["show offline"])
        harness.routes.announce(online)
        harness.embedded.turn()
        #expect(harness.banners.asked == ["show offline", "show online"])
        // The replaced banner is no longer listened to: its end is ours, not news.
        #expect(harness.banners.shown[0].closed)
        // "Back Online" stays exactly the hide delay on the monitor's clock.
        harness.embedded.advance(by: 1.999)
        #expect(harness.banners.dismissed.isEmpty)
        harness.embedded.advance(by: 0.002)
        #expect(harness.banners.asked == ["show offline", "show online", "dismiss window-banner-monitor"])
        #expect(harness.events == [
            "connectivity from routes", "online via eth0 ipv4", "offline", "offline banner shown", "online via eth0 ipv4",
            "restored banner shown", "restored banner hidden",
        ])
    }

    @Test func startingOfflineShowsTheBannerAtOnceAndStartingOnlineShowsNothing() throws {
        let offline = try MonitorHarness(startingWith: .unsatisfied)
        #expect(offline.banners.asked == ["show offline"])
        let quiet = try MonitorHarness(startingWith: online)
        quiet.embedded.advance(by: 60)
        #expect(quiet.banners.asked.isEmpty)
    }

    @Test func aBannerSomeoneElseDismissedIsNotAnnouncedAsBackOnline() throws {
        let harness = try MonitorHarness(startingWith: .unsatisfied)
        harness.banners.shown[0].onEnd(.dismissed)
        harness.routes.announce(online)
        harness.embedded.advance(by: 5)
        #expect(harness.banners.asked == ["show offline"])
        #expect(harness.events.contains("offline banner dismissed by another client"))
    }

    @Test func goingOfflineAgainWithinTheHideDelayReplacesBackOnlineAndCancelsItsHide() throws {
        let harness = try MonitorHarness(startingWith: .unsatisfied)
        harness.routes.announce(online)
        harness.embedded.advance(by: 1)
        harness.routes.announce(.unsatisfied)
        harness.embedded.advance(by: 10)
        #expect(harness.banners.asked == ["show offline", "show online", "show offline"])
    }

    @Test func newsHeldByTheDebounceIsDecidedAtItsDeadline() throws {
        let harness = try MonitorHarness(startingWith: online)
        harness.routes.debounceUntil = harness.embedded.clock.now + 0.1
        harness.routes.announce(.unsatisfied)
        harness.embedded.turn()
        #expect(harness.banners.asked.isEmpty)
        harness.embedded.advance(by: 0.1)
        #expect(harness.banners.asked == ["show offline"])
    }

    @Test func anOwnerThatCannotBeReachedIsTriedAgainAtTheNextChange() throws {
        let harness = try MonitorHarness(startingWith: online)
        harness.banners.unreachable = true
        harness.routes.announce(.unsatisfied)
        harness.embedded.turn()
        #expect(harness.banners.shown.isEmpty)
        harness.banners.unreachable = false
        harness.routes.announce(online)
        harness.embedded.turn()
        harness.routes.announce(.unsatisfied)
        harness.embedded.turn()
        #expect(harness.banners.asked == ["show offline"])
    }
}
