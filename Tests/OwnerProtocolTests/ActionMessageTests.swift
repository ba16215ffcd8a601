// The messages of two actions: `window-banner action`'s request, the second `--action` in a
// `show`'s settings, the labels in a status, the `secondary-action` ending — each round trips,
// and a `show` without the new field still decodes (an older client's).

import BannerCore
import OwnerProtocol
import Testing

@Suite struct ActionMessageTests {
    @Test func actionRequestRoundTrips() throws {
        for action in [ActionRequest(), ActionRequest(label: "Decline", monitor: "HDMI-1", id: "call"), ActionRequest(secondary: true)] {
            let request = OwnerRequest(action)
            #expect(request.command == .action)
            #expect(try OwnerProtocol.decode(OwnerRequest.self, from: OwnerProtocol.encode(request)).get() == request)
        }
    }

    @Test func theSecondActionTravelsInTheSettings() throws {
        let request = OwnerRequest(ShowRequest(settings: AppearanceSettings(title: "Incoming call", action: "Join", secondaryAction: "Decline=true")))
        #expect(try OwnerProtocol.decode(OwnerRequest.self, from: OwnerProtocol.encode(request)).get() == request)
        let older = #"{"v":1,"command":"show","show":{"settings":{"title":"Call","action":"Join"},"sticky":false,"transient":false,"monitor":"primary","enqueue":false,"wait":false}}"#
        let decoded = try OwnerProtocol.decode(OwnerRequest.self, from: Array(older.utf8)).get()
        #expect(decoded.show?.settings.action == "Join")
        #expect(decoded.show?.settings.secondaryAction == nil)
    }

    @Test func statusListsTheLabelsAndWaitLearnsTheSecondaryAction() throws {
        let status = OwnerResponse(status: OwnerStatus(pid: 42, display: ":5", monitors: [
            MonitorStatus(monitor: "screen", primary: true, presented: true, title: "Incoming call", id: "call", height: 80,
                          reserved: 80, compact: false, mode: "sticky", remaining: nil, queue: 0, actions: ["Join", "Decline"]),
        ]))
        let body = OwnerProtocol.encode(status)
        #expect(String(decoding: body, as: UTF8.self).contains(#""actions":["Join","Decline"]"#))
        #expect(try OwnerProtocol.decode(OwnerResponse.self, from: body).get() == status)
        let ended = OwnerProtocol.encode(OwnerResponse(ended: .secondaryAction))
        #expect(String(decoding: ended, as: UTF8.self).contains(#""ended":"secondary-action""#))
        #expect(try OwnerProtocol.decode(OwnerResponse.self, from: ended).get().ended == .secondaryAction)
    }
}
