// The owner as a library, unit-tested: a real Owner on an embedded loop whose clock only the
// test moves, drawing on a display of fake monitors (the runtime's real BannerController under
// each), spoken to over its real socket with the real protocol. Timeouts, keepalives, the idle
// exit and the slide's pacing are asserted on that clock — no test here waits on the wall
// clock, and each runs in milliseconds. The real-process tests (WindowBannerCLITests and the
// backends' suites) stay beside these.

import BannerCore
import BannerOwner
import BannerRuntime
import EmbeddedTestSupport
import Glibc
import MonotonicClock
import OwnerIPC
import OwnerProtocol
import ShowArguments
import Testing

/// One owner on a fake display, in a private directory of its own.
final class OwnerHarness {
    let embedded = EmbeddedLoop()
    let display: FakeDisplay
    let owner: Owner<FakeDisplay>
    let directory: String
    let paths: OwnerPaths

    /// An owner in a new private directory, or in `directory` (where an owner before it ran and
    /// kept its state: a restart).
    init(monitors: [String] = ["FAKE-1"], idleExit: Double = 0, in directory: String? = nil) throws {
        var template = Array("/tmp/wb-owner-test-XXXXXX".utf8CString)
        if let directory {
            self.directory = directory
        } else {
            guard let made = mkdtemp(&template) else { throw TestFailure("mkdtemp failed") }
            self.directory = String(cString: made)
        }
        paths = OwnerPaths.forDisplay(":fake", in: self.directory)
        // Where the owner keeps `--once` keys and stats (OwnerState.stateDirectory makes it so).
        mkdir(self.directory + "/state", 0o700)
        let listener = try UnixSocket.listen(at: paths.socket)
        display = FakeDisplay(monitors: monitors, embedded: embedded)
        owner = Owner(
            banners: display, paths: paths, listener: listener, idleExit: idleExit, showArguments: ShowParser(), stateDirectory: self.directory + "/state",
            joinsAccessibilityBus: false, log: { _ in })
    }

    deinit {
        owner.shutDown()
        for name in ["state/once.json", "state/stats.json"] { unlink(directory + "/" + name) }
        rmdir(directory + "/state")
        unlink(paths.socket)
        rmdir(directory)
    }

    var monitor: FakeMonitor { display.hosts[0] }

    /// A client connected to the owner's socket.
    func connect() throws -> TestClient {
        guard case .success(let fd) = UnixSocket.connect(to: paths.socket) else { throw TestFailure("cannot connect to \(paths.socket)") }
        return TestClient(fd: fd, harness: self)
    }

    /// `request` sent on a new connection, and the owner's first answer (within 2 s of the
    /// owner's clock: a `show` is answered once its first frame is drawn).
    func ask(_ request: OwnerRequest) throws -> (TestClient, OwnerResponse) {
        let client = try connect()
        client.send(request)
        return (client, try client.next())
    }

    /// The owner's status.
    func status() throws -> OwnerStatus {
        let (client, response) = try ask(.status)
        client.close()
        guard case .status(let status) = response.message else { throw TestFailure("status answered \(response)") }
        return status
    }
}

/// One connection to the owner, read without blocking while the loop turns.
final class TestClient {
    let fd: Int32
    private var reader = FrameReader()
    private unowned let harness: OwnerHarness

    init(fd: Int32, harness: OwnerHarness) {
        self.fd = fd
        self.harness = harness
    }

    deinit { close() }

    private var closed = false

    /// Closes the connection, once: a second close(2) could close a descriptor the number has
    /// since been given to (another test's file, in parallel).
    func close() {
        guard !closed else { return }
        closed = true
        Glibc.close(fd)
    }

    func send(_ request: OwnerRequest) {
        _ = UnixSocket.send(Frame.encode(OwnerProtocol.encode(request)), to: fd)
    }

    /// The next frame the owner writes, within `seconds` of its clock.
    func next(within seconds: Double = 2) throws -> OwnerResponse {
        var body: [UInt8]?
        harness.embedded.run(for: seconds) {
            body = readFrame()
            return body != nil
        }
        guard let body else { throw TestFailure("no answer within \(seconds) s of the owner's clock") }
        return try OwnerClient.decode(body)
    }

    /// Whether the owner wrote nothing since (turning the loop once).
    func isQuiet() -> Bool {
        harness.embedded.turn()
        return readFrame() == nil
    }

    private func readFrame() -> [UInt8]? {
        if let frame = try? reader.nextFrame() { return frame }
        var buffer = [UInt8](repeating: 0, count: 65536)
        let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        guard count > 0 else { return nil }
        reader.append(buffer[0..<count])
        return try? reader.nextFrame()
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

func show(
    _ title: String, timeout: Double? = nil, sticky: Bool = false, id: String? = nil, enqueue: Bool = false, wait: Bool = false,
    background: String? = nil, keepalive: Double? = nil, monitor: String = "primary"
) -> OwnerRequest {
    var settings = AppearanceSettings()
    settings.title = title
    settings.background = background
    return OwnerRequest(ShowRequest(
        settings: settings, sticky: sticky, timeout: timeout, monitor: monitor, id: id, enqueue: enqueue, wait: wait, keepalive: keepalive))
}

@Suite("The owner, on an embedded loop and a fake display")
struct OwnerTests {
    @Test func aShowIsAnsweredAtItsFirstFrameAndItsSpaceIsReservedOnceItIsDown() throws {
        let harness = try OwnerHarness()
        let start = harness.embedded.clock.now
        let (_, reply) = try harness.ask(show("No Internet Connection", sticky: true))
        guard case .shown(let shown, _) = reply.message else { Issue.record("answered \(reply)"); return }
        #expect(shown.state == .presented)
        #expect(shown.monitors == ["FAKE-1"])
        // Answered at the first frame, one slot in: not before, and not after the slide.
        let first = try #require(harness.monitor.frames.first)
        #expect(first.time - start <= 2.0 / 60)
        #expect(first.reveal < 1)
        harness.embedded.advance(by: 1)
        let last = try #require(harness.monitor.frames.last)
        #expect(last.reveal == 1)
        #expect(harness.monitor.reservedHeight == last.bannerHeight)
        let status = try harness.status()
        #expect(status.monitors.first?.title == "No Internet Connection")
        #expect(status.monitors.first?.reserved == last.bannerHeight)
        #expect(status.monitors.first?.mode == "sticky")
    }

    @Test func aTimedBannerEndsOnTheOwnersClockAndItsWaiterHearsTimeout() throws {
        let harness = try OwnerHarness()
        let (client, reply) = try harness.ask(show("Back Online", timeout: 4, wait: true))
        guard case .shown(let shown, _) = reply.message else { Issue.record("answered \(reply)"); return }
        #expect(shown.wait == true)
        harness.embedded.advance(by: 3.5)
        #expect(client.isQuiet())
        #expect(harness.monitor.shownTitle == "Back Online")
        let ended = try client.next(within: 2)
        #expect(ended.message == .ended(.timeout))
        // Its space is given back once it has slid out.
        harness.embedded.advance(by: 1)
        #expect(harness.monitor.reservedHeight == 0)
        #expect(try harness.status().monitors.first?.presented == false)
    }

    @Test func keepalivesComeAtTheIntervalAskedForUntilTheBannerEnds() throws {
        let harness = try OwnerHarness()
        let (client, reply) = try harness.ask(show("Call in progress", sticky: true, wait: true, keepalive: 1))
        guard case .shown(let shown, _) = reply.message else { Issue.record("answered \(reply)"); return }
        #expect(shown.keepalive == 1)
        // One a second of the owner's clock, each on time, until the banner ends.
        var times: [MonotonicTime] = []
        for _ in 0..<3 {
            let frame = try client.next(within: 1.5)
            #expect(frame.message == .keepalive)
            times.append(harness.embedded.clock.now)
        }
        for (earlier, later) in zip(times, times.dropFirst()) { #expect(abs(later - earlier - 1) < 0.001) }
        #expect(harness.monitor.activate(.clicked))
        var last = try client.next()
        while last.message == .keepalive { last = try client.next() }
        #expect(last.message == .ended(.clicked))
    }

    @Test func anEnqueuedBannerWaitsForTheVisibleOneAndShowsWhenItIsDismissed() throws {
        let harness = try OwnerHarness()
        _ = try harness.ask(show("No Internet Connection", sticky: true))
        let (_, queued) = try harness.ask(show("Call in progress", sticky: true, id: "call", enqueue: true))
        guard case .shown(let reply, _) = queued.message else { Issue.record("answered \(queued)"); return }
        #expect(reply.state == .queued)
        #expect(reply.position == 1)
        harness.embedded.advance(by: 1)
        #expect(harness.monitor.shownTitle == "No Internet Connection")
        let (_, dismissed) = try harness.ask(OwnerRequest(DismissRequest()))
        #expect(dismissed.message == .dismissed(1))
        harness.embedded.advance(by: 2)
        #expect(harness.monitor.shownTitle == "Call in progress")
        #expect(try harness.status().monitors.first?.id == "call")
    }

    @Test func aBadColourIsOneLineNamingItAndTheBannerOnScreenStays() throws {
        let harness = try OwnerHarness()
        _ = try harness.ask(show("No Internet Connection", sticky: true))
        harness.embedded.advance(by: 1)
        let framesBefore = harness.monitor.frames.count
        let (_, reply) = try harness.ask(show("Oops", background: "no-such-colour"))
        guard case .error(let error) = reply.message else { Issue.record("answered \(reply)"); return }
        #expect(error.kind == .usage)
        #expect(error.message.contains("no-such-colour"))
        #expect(!error.message.contains("\n"))
        harness.embedded.advance(by: 1)
        #expect(harness.monitor.shownTitle == "No Internet Connection")
        #expect(harness.monitor.frames.count == framesBefore)
    }

    @Test func aClickEndsTheBannerAsClickedForItsWaiter() throws {
        let harness = try OwnerHarness()
        let (client, _) = try harness.ask(show("Call in progress", sticky: true, wait: true))
        harness.embedded.advance(by: 1)
        #expect(harness.monitor.activate(.clicked))
        let ended = try client.next()
        #expect(ended.message == .ended(.clicked))
    }

    @Test func anIdleOwnerEndsAfterItsIdleTimeOnItsOwnClockAndNotWhileABannerShows() throws {
        let harness = try OwnerHarness(idleExit: 30)
        _ = try harness.ask(show("Back Online", timeout: 5))
        // Showing for 5 s, then idle: the 30 s count from the banner's end.
        harness.embedded.advance(by: 30)
        #expect(!harness.owner.finished)
        harness.embedded.advance(by: 6)
        #expect(harness.owner.finished)
    }

    @Test func everyMonitorGetsAnAllBannerAndAMonitorPluggedInLaterGetsItToo() throws {
        let harness = try OwnerHarness(monitors: ["FAKE-1", "FAKE-2"])
        _ = try harness.ask(show("No Internet Connection", sticky: true, monitor: "all"))
        harness.embedded.advance(by: 1)
        #expect(harness.display.hosts.map(\.shownTitle) == ["No Internet Connection", "No Internet Connection"])
        harness.display.plug("FAKE-3")
        harness.embedded.advance(by: 1)
        #expect(harness.display.hosts.map(\.shownTitle) == ["No Internet Connection", "No Internet Connection", "No Internet Connection"])
        #expect(harness.display.hosts[2].reservedHeight == harness.display.hosts[0].reservedHeight)
        #expect(try harness.status().monitors.map(\.monitor) == ["FAKE-1", "FAKE-2", "FAKE-3"])
    }
}
