// A `status` always fits in one frame, however long the titles of however many monitors: the
// texts are cut (the held banners' too), never the answer. Status bars follow the status for a whole session, so a
// status that cannot be sent would take them down with it.

extension OwnerStatus {
    /// This status with each monitor's title and subtitle cut (ending in "…") until its reply
    /// takes at most `budget` bytes of JSON; unchanged when it already does.
    public func fitted(within budget: Int) -> OwnerStatus {
        // Most statuses are far below the budget even if every byte of text were escaped
        // six-fold (\u0001): no need to encode them to know.
        let held = waiting ?? []
        let texts = monitors.reduce(0) { $0 + ($1.title?.utf8.count ?? 0) + ($1.subtitle?.utf8.count ?? 0) }
            + held.reduce(0) { $0 + $1.title.utf8.count + ($1.subtitle?.utf8.count ?? 0) + ($1.id?.utf8.count ?? 0) }
        guard texts * 6 + (monitors.count + held.count) * 2048 > budget else { return self }
        var status = self
        while OwnerProtocol.encode(OwnerResponse(status: status)).count > budget {
            let longest = (status.monitors.flatMap { [$0.title, $0.subtitle] } + (status.waiting ?? []).flatMap { [$0.title, $0.subtitle] })
                .compactMap { $0?.count }.max() ?? 0
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
