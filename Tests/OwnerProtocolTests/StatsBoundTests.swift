import BannerCore
import OwnerProtocol
import Testing

@Suite("Stats: a bounded history, read in pages")
struct StatsBoundTests {
    @Test func theKeysUsedLastAreKeptAndTheOldestGo() {
        var stats = BannerStats()
        for index in 0..<BannerStats.maximumKeys + 5 {
            stats.recordImpression("step \(index)", at: Double(index))
        }
        #expect(stats.keys.count == BannerStats.maximumKeys)
        #expect(stats.keys["step 4"] == nil)
        #expect(stats.keys["step 5"]?.impressions == 1)
        // Using an old key again keeps it: the least recently used one goes instead.
        stats.recordEnd("step 5", reason: .clicked, at: 10_000)
        stats.recordImpression("new", at: 10_001)
        #expect(stats.keys["step 5"]?.count(.clicked) == 1)
        #expect(stats.keys["step 6"] == nil)
    }

    @Test func aLongKeyIsCountedUnderItsFirstBytesCutAtACharacter() {
        let key = BannerStats.key(id: String(repeating: "é", count: 200), style: nil)
        #expect(key.utf8.count == BannerStats.maximumKeyLength)
        #expect(key == String(repeating: "é", count: 128))
        #expect(BannerStats.key(id: nil, style: "call") == "call")
        #expect(BannerStats.key(id: nil, style: nil) == "-")
    }

    @Test func pagesFollowEachOtherInNameOrderAndCoverEveryKey() {
        var stats = BannerStats()
        for index in 0..<25 { stats.recordImpression("key \(index + 10)", at: 0) }
        var seen: [String] = []
        var after: String?
        var sizes: [Int] = []
        while true {
            // 16 bytes a key: six fit in 100.
            let (page, more) = stats.page(after: after, budget: 100) { key, _ in key.utf8.count + 10 }
            sizes.append(page.keys.count)
            seen += page.keys.keys.sorted()
            after = page.keys.keys.max()
            guard more else { break }
        }
        #expect(sizes == [6, 6, 6, 6, 1])
        #expect(seen == stats.keys.keys.sorted())
        // One key larger than the budget still comes, alone on its page.
        let (page, _) = stats.page(after: nil, budget: 1) { _, _ in 50 }
        #expect(page.keys.count == 1)
    }
}
