// The monitor in this test process's own network namespace, read-only: both APIs start from
// what the kernel's tables say. Changes are exercised in NamespaceTests, away from the host.

import MonotonicClock
import NetworkPath
import Testing

@Suite("Path monitor")
struct PathMonitorTests {
    @Test func startsWithTheStatusItsModelGives() throws {
        let monitor = try PathMonitor(clock: monotonicNow)
        #expect(monitor.currentStatus == PathRule.status(of: monitor.model))
        #expect(!monitor.model.links.isEmpty)
        #expect(monitor.fileDescriptor >= 0)
        #expect(monitor.overflowCount == 0)
    }

    @Test func statusesStartWithTheCurrentStatus() async throws {
        let expected = try PathMonitor(clock: monotonicNow).currentStatus
        var statuses = try PathMonitor.statuses().makeAsyncIterator()
        #expect(try await statuses.next() == expected)
    }
}
