import BannerCore
import Testing

/// A banner for the schedule tests: the title says which request it came from.
private func banner(_ token: Int, id: String? = nil, mode: BannerMode = .sticky) -> ScheduledBanner {
    var appearance = TopBannerAppearance.default
    appearance.title = "banner \(token)"
    return ScheduledBanner(token: token, id: id, appearance: appearance, mode: mode)
}

@Suite("Schedule: sticky, transient, queue and ids")
struct ScheduleTests {
    @Test func firstShowPresentsAndASecondReplacesInPlace() {
        var schedule = BannerSchedule()
        let (first, placed) = schedule.show(banner(1), enqueue: false, at: at(0))
        #expect(placed == .presented)
        #expect(first.screen == .present(banner(1)))
        let (second, replaced) = schedule.show(banner(2), enqueue: false, at: at(1))
        #expect(replaced == .updated)
        #expect(second.screen == .present(banner(2)))
        #expect(second.ended.map(\.token) == [1])
        #expect(second.ended.map(\.reason) == [.replaced])
    }

    @Test func stickyNeverTimesOut() {
        var schedule = BannerSchedule()
        _ = schedule.show(banner(1), enqueue: false, at: at(0))
        #expect(schedule.deadline == nil)
        #expect(schedule.advance(to: at(3600)) == ScheduleChange())
        #expect(schedule.current == banner(1))
    }

    @Test func transientTimesOutAtItsDeadlineAndNotBefore() {
        var schedule = BannerSchedule()
        _ = schedule.show(banner(1, mode: .transient(2)), enqueue: false, at: at(10))
        #expect(schedule.remaining(at: at(10.5)) == 1.5)
        #expect(schedule.advance(to: at(11.999)) == ScheduleChange())
        let change = schedule.advance(to: at(12))
        #expect(change.screen == .hide)
        #expect(change.ended.map(\.reason) == [.timeout])
        #expect(schedule.isIdle)
    }

    @Test func replacingATransientRestartsTheClockForTheNewBanner() {
        var schedule = BannerSchedule()
        _ = schedule.show(banner(1, mode: .transient(2)), enqueue: false, at: at(0))
        _ = schedule.show(banner(2, mode: .transient(2)), enqueue: false, at: at(1.5))
        #expect(schedule.advance(to: at(2)) == ScheduleChange())
        #expect(schedule.advance(to: at(3.5)).ended.map(\.token) == [2])
    }

    @Test func enqueuedBannersWaitTheirTurnInOrder() {
        var schedule = BannerSchedule()
        _ = schedule.show(banner(1), enqueue: true, at: at(0))
        #expect(schedule.show(banner(2), enqueue: true, at: at(0)).1 == .queued(position: 1))
        #expect(schedule.show(banner(3), enqueue: true, at: at(0)).1 == .queued(position: 2))
        var shown: [Int] = [schedule.current?.token ?? 0]
        for _ in 0..<2 {
            let change = schedule.dismiss(at: at(1))
            guard case .present(let next) = change.screen else { break }
            shown.append(next.token)
        }
        #expect(shown == [1, 2, 3])
        #expect(schedule.dismiss(at: at(2)).screen == .hide)
    }

    @Test func timedOutBannerHandsOverToTheNextQueuedOneWithItsOwnClock() {
        var schedule = BannerSchedule()
        _ = schedule.show(banner(1, mode: .transient(1)), enqueue: false, at: at(0))
        _ = schedule.show(banner(2, mode: .transient(1)), enqueue: true, at: at(0.2))
        let change = schedule.advance(to: at(1))
        #expect(change.screen == .present(banner(2, mode: .transient(1))))
        #expect(schedule.remaining(at: at(1)) == 1)
    }

    @Test func sameIdReplacesAQueuedBannerWhereItStands() {
        var schedule = BannerSchedule()
        _ = schedule.show(banner(1), enqueue: false, at: at(0))
        _ = schedule.show(banner(2, id: "upload"), enqueue: true, at: at(0))
        _ = schedule.show(banner(3), enqueue: true, at: at(0))
        let (change, placed) = schedule.show(banner(4, id: "upload"), enqueue: true, at: at(0))
        #expect(placed == .queued(position: 1))
        #expect(change.ended.map(\.token) == [2])
        #expect(change.ended.map(\.reason) == [.replaced])
        #expect(schedule.queue.map(\.token) == [4, 3])
    }

    @Test func sameIdAsTheVisibleBannerUpdatesItEvenWhenEnqueued() {
        var schedule = BannerSchedule()
        _ = schedule.show(banner(1, id: "call"), enqueue: false, at: at(0))
        _ = schedule.show(banner(2), enqueue: true, at: at(0))
        let (change, placed) = schedule.show(banner(3, id: "call"), enqueue: true, at: at(0))
        #expect(placed == .updated)
        #expect(change.screen == .present(banner(3, id: "call")))
        #expect(schedule.queue.map(\.token) == [2])
    }

    @Test func showWithoutEnqueueDropsAQueuedBannerWithTheSameId() {
        var schedule = BannerSchedule()
        _ = schedule.show(banner(1), enqueue: false, at: at(0))
        _ = schedule.show(banner(2, id: "k"), enqueue: true, at: at(0))
        let (change, _) = schedule.show(banner(3, id: "k"), enqueue: false, at: at(0))
        #expect(Set(change.ended.map(\.token)) == [1, 2])
        #expect(schedule.queue.isEmpty)
        #expect(schedule.current?.token == 3)
    }

    @Test func dismissByIdTakesOnlyThatKeyFromScreenAndQueue() {
        var schedule = BannerSchedule()
        _ = schedule.show(banner(1, id: "a"), enqueue: false, at: at(0))
        _ = schedule.show(banner(2, id: "b"), enqueue: true, at: at(0))
        _ = schedule.show(banner(3, id: "a"), enqueue: true, at: at(0))
        // Same key as the visible one: it replaced it in place, so only "b" waits.
        #expect(schedule.current?.token == 3)
        let change = schedule.dismiss(id: "b", at: at(1))
        #expect(change.ended.map(\.token) == [2])
        #expect(change.screen == .unchanged)
        #expect(schedule.current?.token == 3)
    }

    @Test func dismissAllClearsTheQueueAndHides() {
        var schedule = BannerSchedule()
        _ = schedule.show(banner(1), enqueue: false, at: at(0))
        _ = schedule.show(banner(2), enqueue: true, at: at(0))
        let change = schedule.dismiss(all: true, at: at(1))
        #expect(change.screen == .hide)
        #expect(Set(change.ended.map(\.token)) == [1, 2])
        #expect(change.ended.allSatisfy { $0.reason == .dismissed })
        #expect(schedule.isIdle)
    }

    @Test func dismissWithNothingShowingChangesNothing() {
        var schedule = BannerSchedule()
        #expect(schedule.dismiss(at: at(0)) == ScheduleChange())
    }

    @Test func monitorGoneEndsEverythingAsDismissed() {
        var schedule = BannerSchedule()
        _ = schedule.show(banner(1, mode: .transient(5)), enqueue: false, at: at(0))
        _ = schedule.show(banner(2), enqueue: true, at: at(0))
        let change = schedule.clear()
        #expect(change.ended.map(\.token) == [1, 2])
        #expect(schedule.isIdle)
        #expect(schedule.deadline == nil)
    }

    @Test func userDismissalEndsTheVisibleBannerWithItsReason() {
        for reason in BannerDismissReason.allCases {
            var schedule = BannerSchedule()
            _ = schedule.show(banner(1, mode: .transient(5)), enqueue: false, at: at(0))
            let change = schedule.userDismissed(reason, at: at(1))
            #expect(change.screen == .hide)
            #expect(change.ended.map(\.token) == [1])
            #expect(change.ended.map(\.reason) == [BannerEndReason(reason)])
            #expect(schedule.isIdle)
            #expect(schedule.deadline == nil)
        }
    }

    @Test func userDismissalReasonsAreTheirOwnEndReasons() {
        #expect(BannerDismissReason.allCases.map(BannerEndReason.init) == [.clicked, .closed, .swiped, .action, .secondaryAction])
        #expect(BannerEndReason.allCases.map(\.rawValue) == ["timeout", "dismissed", "replaced", "clicked", "closed", "swiped", "action", "secondary-action"])
    }

    @Test func userDismissalPromotesTheNextQueuedBanner() {
        var schedule = BannerSchedule()
        _ = schedule.show(banner(1), enqueue: false, at: at(0))
        _ = schedule.show(banner(2, mode: .transient(2)), enqueue: true, at: at(0))
        _ = schedule.show(banner(3), enqueue: true, at: at(0))
        let change = schedule.userDismissed(.closed, at: at(10))
        #expect(change.screen == .present(banner(2, mode: .transient(2))))
        #expect(change.ended.map(\.token) == [1])
        #expect(change.ended.map(\.reason) == [.closed])
        #expect(schedule.queue.map(\.token) == [3])
        // The promoted banner's clock starts now.
        #expect(schedule.deadline == at(12))
    }

    @Test func userDismissalWithNothingVisibleChangesNothing() {
        var schedule = BannerSchedule()
        #expect(schedule.userDismissed(.clicked, at: at(0)) == ScheduleChange())
    }
}
