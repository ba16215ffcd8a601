// Admin broadcasts (issue 52), unit-tested: the real spool on a temporary root (files root owns,
// as `broadcast set` writes them, and hostile ones the test plants), read by the real
// BroadcastWatcher on an embedded loop with a wall clock the test sets, showing through fake
// banners. BroadcastTests (WindowBannerCLITests) runs the same on real sessions.

import BannerCore
import BannerMonitor
import EmbeddedTestSupport
import Glibc
import OwnerProtocol
import ProcessTestSupport
import Testing

/// A spool under a temporary root, removed when released.
final class TemporarySpool {
    let root: String
    let spool: BroadcastSpool

    init() throws {
        var template = Array("/tmp/wb-spool-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw TestFailure("mkdtemp failed") }
        root = String(cString: made)
        chmod(root, 0o755)
        spool = BroadcastSpool(root: root)
    }

    deinit { _ = try? Subprocess.run("/bin/rm", ["-rf", root]) }

    /// Writes `text` as the spool file `name`, owned by `uid`, with `mode`.
    func plant(_ name: String, _ text: String, uid: uid_t = 0, mode: mode_t = 0o644) throws {
        try BroadcastSpoolTestWrite.file(spool.volatileDirectory + "/" + name, text, uid: uid, mode: mode)
    }
}

enum BroadcastSpoolTestWrite {
    static func file(_ path: String, _ text: String, uid: uid_t, mode: mode_t) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode)
        guard fd >= 0 else { throw TestFailure("cannot write \(path)") }
        _ = text.utf8CString.withUnsafeBytes { write(fd, $0.baseAddress, $0.count - 1) }
        fchmod(fd, mode)
        fchown(fd, uid, gid_t(uid))
        close(fd)
    }
}

final class BroadcastHarness {
    let embedded = EmbeddedLoop()
    let banners = FakeBanners()
    let spool: TemporarySpool
    let watcher: BroadcastWatcher
    let runtime: String
    let state: String
    var wallClock = 1_800_000_000.0
    private(set) var lines: [String] = []

    init(user: String = "alice", groups: [String] = ["staff"]) throws {
        spool = try TemporarySpool()
        runtime = spool.root + "/runtime"
        state = spool.root + "/state"
        mkdir(runtime, 0o700)
        let request = ShowRequest(settings: AppearanceSettings(), sticky: true, monitor: "all", enqueue: true, wait: true)
        var clock: () -> Double = { 0 }
        var log: (String) -> Void = { _ in }
        watcher = BroadcastWatcher(
            loop: embedded.loop, spool: spool.spool, banners: banners, user: user, groups: groups, base: request,
            session: (":0", "c1"), runtimeDirectory: runtime, stateDirectory: state, wallClock: { clock() }, log: { log($0) })
        clock = { [unowned self] in wallClock }
        log = { [unowned self] in lines.append($0) }
    }

    /// Root's `broadcast set`.
    func set(_ broadcast: Broadcast) throws {
        try spool.spool.write(broadcast)
        watcher.rescan()
    }

    /// What this session's report says of `id`.
    func reported(_ id: String) -> String? {
        BroadcastReport.read(runtimeDirectory: runtime).first?.broadcasts[id]?.state
    }
}

func maintenance(_ title: String = "Maintenance tonight at 18:00", until: Double? = nil, users: [String]? = nil, groups: [String]? = nil) -> Broadcast {
    var settings = AppearanceSettings()
    settings.title = title
    return Broadcast(id: "maint", settings: settings, until: until, users: users, groups: groups)
}

@Suite("Admin broadcasts: the spool and one session's watcher", .serialized)
struct BroadcastWatcherTests {
    @Test(.needsRoot("writing root's spool"))
    func aBroadcastIsShownUpdatedInPlaceAndCleared() throws {
        let harness = try BroadcastHarness()
        harness.watcher.start()
        try harness.set(maintenance())
        #expect(harness.banners.shown.last?.request.id == "broadcast:maint")
        #expect(harness.banners.shown.last?.request.settings.title == "Maintenance tonight at 18:00")
        #expect(harness.reported("maint") == "shown")
        let count = harness.banners.shown.count
        try harness.set(maintenance())
        #expect(harness.banners.shown.count == count, "the same content changes nothing")
        try harness.set(maintenance("Maintenance tonight at 19:00"))
        #expect(harness.banners.shown.last?.request.settings.title == "Maintenance tonight at 19:00")
        #expect(harness.banners.dismissed.isEmpty, "changed words update the banner in place, by its id")
        harness.spool.spool.remove(id: "maint")
        harness.watcher.rescan()
        #expect(harness.banners.dismissed == ["broadcast:maint"])
        harness.watcher.stop()
    }

    @Test(.needsRoot("writing root's spool"))
    func theUsersDismissalHoldsUntilTheWordsChange() throws {
        let harness = try BroadcastHarness()
        harness.watcher.start()
        try harness.set(maintenance())
        try #require(harness.banners.shown.last).onEnd(.closed)
        #expect(harness.reported("maint") == "dismissed")
        let count = harness.banners.shown.count
        harness.watcher.rescan()
        #expect(harness.banners.shown.count == count, "dismissed: not shown again")
        try harness.set(maintenance("Maintenance moved to 20:00"))
        #expect(harness.banners.shown.count == count + 1)
        #expect(harness.reported("maint") == "shown")
        harness.watcher.stop()
    }

    @Test(.needsRoot("writing root's spool"))
    func aBroadcastForOthersOrExpiredIsNotShown() throws {
        let harness = try BroadcastHarness(user: "alice", groups: ["staff"])
        harness.watcher.start()
        try harness.set(maintenance(users: ["bob"]))
        #expect(harness.banners.shown.isEmpty)
        try harness.set(maintenance(groups: ["staff"]))
        #expect(harness.banners.shown.count == 1, "a member of a named group gets it")
        try harness.set(maintenance(until: harness.wallClock + 60, groups: ["staff"]))
        harness.wallClock += 61
        harness.embedded.advance(by: 61)
        #expect(harness.banners.dismissed == ["broadcast:maint"], "it goes when it expires")
        harness.watcher.stop()
    }

    @Test(.needsRoot("planting root-owned and foreign spool files"))
    func hostileEntriesAreSkippedWithALineEachAndTheRestShown() throws {
        let harness = try BroadcastHarness()
        try BroadcastSpool.makeDirectory(harness.spool.spool.volatileDirectory)
        try harness.spool.plant("forged.json", #"{"version":1,"id":"forged","settings":{"title":"Forged"},"monitor":"primary","persist":false}"#, uid: 65534)
        try harness.spool.plant("open.json", #"{"version":1,"id":"open","settings":{"title":"Open"},"monitor":"primary","persist":false}"#, mode: 0o666)
        try harness.spool.plant("broken.json", "{\"version\":1,\"id\":")
        try harness.spool.plant("huge.json", String(repeating: " ", count: BroadcastSpool.maximumFileSize + 1) + "{}")
        try harness.spool.plant("other.json", #"{"version":1,"id":"maint","settings":{"title":"Named otherwise"},"monitor":"primary","persist":false}"#)
        try harness.spool.plant("bad-colour.json", ##"{"version":1,"id":"bad-colour","settings":{"background":"#12"},"monitor":"primary","persist":false}"##)
        symlink("/etc/passwd", harness.spool.spool.volatileDirectory + "/link.json")
        try harness.set(maintenance())
        harness.watcher.start()
        #expect(harness.banners.shown.map(\.request.id) == ["broadcast:maint"])
        for (name, why) in [("forged", "owned by uid 65534, not root"), ("open", "writable by others than root"), ("broken", "not a broadcast"),
                            ("huge", "more than 65536"), ("other", "its id is 'maint'"), ("bad-colour", "not a broadcast"), ("link", "not a regular file")] {
            #expect(harness.lines.contains { $0.contains("/\(name).json: ") && $0.contains(why) }, "\(name): \(harness.lines)")
        }
        harness.watcher.stop()
    }

    @Test(.needsRoot("writing root's spool"))
    func tenThousandBroadcastsStayBounded() throws {
        let harness = try BroadcastHarness()
        try BroadcastSpool.makeDirectory(harness.spool.spool.volatileDirectory)
        for index in 0..<(BroadcastSpool.maximumBroadcasts + 50) {
            let id = "n" + String(String(index + 100_000).dropFirst())
            let text = "{\"version\":1,\"id\":\"" + id + "\",\"settings\":{\"title\":\"Notice " + String(index) + "\"},\"monitor\":\"primary\",\"persist\":false}"
            try harness.spool.plant(id + ".json", text)
        }
        let contents = harness.spool.spool.read()
        #expect(contents.broadcasts.count == BroadcastSpool.maximumBroadcasts)
        #expect(contents.problems.contains { $0.contains("ignoring 50 broadcasts") }, "\(contents.problems)")
        harness.watcher.start()
        #expect(harness.banners.shown.count == BroadcastWatcher.maximumShown, "at most \(BroadcastWatcher.maximumShown) in the owner at once")
        let report = try #require(BroadcastReport.read(runtimeDirectory: harness.runtime).first)
        #expect(report.broadcasts.count == BroadcastSpool.maximumBroadcasts)
        #expect(report.broadcasts.values.filter { $0.state == "waiting" }.count == BroadcastSpool.maximumBroadcasts - BroadcastWatcher.maximumShown)
        harness.watcher.stop()
    }
}
