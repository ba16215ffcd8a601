// A `status` always fits in one frame, however long the titles of however many monitors: the
// texts are cut (the held banners' too), never the answer. Status bars follow the status for a whole session, so a
// status that cannot be sent would take them down with it.

extension OwnerStatus {
    /// This status with each monitor's title and subtitle cut (ending in "…") until its reply
    /// takes at most `budget` bytes of JSON; unchanged when it already does.
    public func fitted(within budget: Int) -> OwnerStatus {
        // Most statuses are far below the budget even if every byte of text were escaped
        // six-fold (\u0001): no need to encode them to know.
        // (One sum at a time: Swift 6.0, Debian 13's, gives up on them written as one expression.)
        let held = waiting ?? []
        var texts = 0
        for monitor in monitors {
            texts += (monitor.title?.utf8.count ?? 0) + (monitor.subtitle?.utf8.count ?? 0)
        }
        for banner in held {
            texts += banner.title.utf8.count + (banner.subtitle?.utf8.count ?? 0) + (banner.id?.utf8.count ?? 0)
        }
        guard texts * 6 + (monitors.count + held.count) * 2048 > budget else { return self }
        var status = self
        while OwnerProtocol.encode(OwnerResponse(status: status)).count > budget {
            let shown: [String?] = status.monitors.flatMap { [$0.title, $0.subtitle] }
            let waiting: [String?] = (status.waiting ?? []).flatMap { [$0.title, $0.subtitle] }
            let longest = (shown + waiting).compactMap { $0?.count }.max() ?? 0
            // Each round halves the longest text; two characters ("a…") are as short as it gets.
            guard longest > 2 else { break }
            let keep = longest / 2
            for index in status.monitors.indices {
                status.monitors[index].title = status.monitors[index].title.map { Self.cut($0, to: keep) }
                status.monitors[index].subtitle = status.monitors[index].subtitle.map { Self.cut($0, to: keep) }
            }
            status.waiting = status.waiting?.map { held in
                var cut = held
                cut.title = Self.cut(held.title, to: keep)
                cut.subtitle = held.subtitle.map { Self.cut($0, to: keep) }
                return cut
            }
        }
        return status
    }

    private static func cut(_ text: String, to characters: Int) -> String {
        text.count > characters ? String(text.prefix(max(1, characters - 1))) + "…" : text
    }
}
