import OwnerProtocol
import Testing

@Suite struct StatusFitTests {
    private func monitor(_ name: String, title: String?, subtitle: String? = nil) -> MonitorStatus {
        MonitorStatus(monitor: name, primary: false, presented: title != nil, title: title, subtitle: subtitle, id: nil, height: 80,
                      reserved: 80, compact: false, mode: "sticky", remaining: nil, queue: 0)
    }

    @Test func aStatusThatFitsIsLeftAlone() {
        let status = OwnerStatus(pid: 1, display: ":0", monitors: [monitor("left", title: "Call in progress", subtitle: "Alice")])
        #expect(status.fitted(within: 64_512) == status)
    }

    @Test func longTextsOnManyMonitorsAreCutUntilTheReplyFits() {
        let quotes = String(repeating: "\"", count: 16_000)
        let status = OwnerStatus(pid: 1, display: ":0", monitors: (0..<4).map { monitor("m\($0)", title: quotes, subtitle: quotes) })
        let fitted = status.fitted(within: 64_512)
        #expect(OwnerProtocol.encode(OwnerResponse(status: fitted)).count <= 64_512)
        for monitor in fitted.monitors {
            #expect(monitor.title?.hasSuffix("…") == true)
            #expect(monitor.title?.hasPrefix("\"\"\"") == true)
            #expect(monitor.monitor.hasPrefix("m"))
        }
    }

    @Test func aBudgetNoTextCanMeetEndsWithTheShortestTexts() {
        let status = OwnerStatus(pid: 1, display: ":0", monitors: (0..<3).map { monitor("m\($0)", title: "Title \($0)") })
        let fitted = status.fitted(within: 10)
        #expect(fitted.monitors.allSatisfy { ($0.title?.count ?? 0) <= 2 })
    }
}
