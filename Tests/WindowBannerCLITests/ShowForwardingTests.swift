// `show` to a running owner travels as typed (`show-arguments`) and the owner parses it: the
// owner's answers on the wire, and a client that gets the same outcome either way — the
// owner's parse and the full binary's own parse agree word for word.

import Foundation
import Glibc
import ProcessTestSupport
import Testing
import X11TestSupport

extension WindowBannerCLITests {
    @Suite("show: arguments parsed by the owner")
    struct ShowForwardingTests {
        /// One `show-arguments` frame with `arguments` and `environment`; the reply's body.
        static func forward(_ owner: OwnerFixture, _ arguments: [String], environment: [String: String]? = nil) throws -> String {
            let request: [String: Any] = [
                "v": 3, "command": "show-arguments",
                "showArguments": [
                    "arguments": arguments,
                    "environment": environment ?? owner.fixture.environment(.desktop),
                    "directory": "/",
                ] as [String: Any],
            ]
            let socket = try RawSocket(owner.socketPath)
            socket.write(frame(Array(try JSONSerialization.data(withJSONObject: request))))
            return String(socket.readAll().dropFirst(4))
        }

        @Test func theOwnerParsesAndShowsWhatTheClientTyped() throws {
            let owner = try OwnerFixture()
            try owner.show(["--title", "Started", "--compact", "never"])
            let reply = try Self.forward(owner, ["--title", "Raw", "--compact", "never", "--background", "systemBlue"])
            #expect(reply.contains(#""state":"updated""#), "\(reply)")
            #expect(try owner.status().title == "Raw")
            #expect(owner.fixture.waitForBanner(height: 80))
        }

        @Test func helpAndAnotherDisplayGoBackToTheClient() throws {
            let owner = try OwnerFixture()
            try owner.show(["--title", "Kept", "--compact", "never"])
            for arguments in [["--help"], ["--title", "x", "--display", ":999"], ["--title", "x", "--display=unix:999.0"]] {
                let reply = try Self.forward(owner, arguments)
                #expect(reply.contains(#""kind":"redirect""#), "\(arguments): \(reply)")
            }
            // The display named the other way round: `$DISPLAY` of another display, no option.
            var elsewhere = owner.fixture.environment(.desktop)
            elsewhere["DISPLAY"] = ":999"
            #expect(try Self.forward(owner, ["--title", "x"], environment: elsewhere).contains(#""kind":"redirect""#))
            #expect(try owner.status().title == "Kept")
        }

        /// The small client (owner running: parsed by the owner) and window-banner-full (which
        /// always parses itself) print the same line and exit with the same code.
        @Test func badArgumentsFailTheSameWhoeverParsesThem() throws {
            let owner = try OwnerFixture()
            try owner.show(["--title", "Kept", "--compact", "never"])
            let cases: [[String]] = [
                ["--title", "x", "--height", "-3"], ["--title", "x", "--background", "#zz"], ["--bogus"],
                ["--title"], ["--sticky", "--timeout", "2"], ["--title", "x", "--timeout", "nan"],
                ["--title", "x", "--on-click"], ["--title", "x", "--monitor", "nowhere"], ["--title", "x", "--style", "nosuch"],
                ["--title", "x", "--font", "sans-serif:size=-1"], ["--title", "x", "--compact", "sideways"],
            ]
            for arguments in cases {
                let forwarded = try owner.run(["show"] + arguments)
                let local = try IconShapeCLITests.run(owner, ["show"] + arguments, executable: windowBannerExecutable("window-banner-full"))
                #expect(forwarded.status == local.status && forwarded.status != 0, "\(arguments): \(String(describing: forwarded.status)) vs \(String(describing: local.status))")
                #expect(forwarded.error == local.error, "\(arguments)")
                #expect(forwarded.error.filter { $0 == "\n" }.count == 1, "\(arguments): \(forwarded.error)")
            }
            #expect(try owner.status().title == "Kept")
        }

        /// The owner remembers the parse of an arrangement of flags and fills in the next call's
        /// title, subtitle and progress: every call shows exactly its own values, whatever they
        /// look like, and a value that could read as a flag is still taken as written.
        @Test func repeatedFlagsWithNewValuesShowTheNewValues() throws {
            let owner = try OwnerFixture()
            try owner.show(["--title", "Started", "--compact", "never"])
            #expect(owner.fixture.waitForBanner(height: 80))
            let calls: [(title: String, subtitle: String, progress: String)] = [
                ("Upload 1", "first", "0.1"), ("Upload 2", "second", "0.2"), ("a=b --title", "=", "0.3"),
                ("help", "لا يوجد اتصال", "0.4"), ("-x", "--subtitle", "0.5"), ("Upload 6", "sixth", "0.6"),
            ]
            let statsFile = owner.stateHome + "/window-banner/stats.json"
            for (index, call) in calls.enumerated() {
                try owner.show(["--title", call.title, "--subtitle=\(call.subtitle)", "--progress", call.progress, "--compact", "never", "--id", "calls"])
                // Once the first call has settled (its stats are on disk), the owner has checked
                // this arrangement: the calls after it take the remembered parse.
                if index == 0 {
                    #expect(owner.observer.wait { (try? String(contentsOfFile: statsFile, encoding: .utf8))?.contains("calls") == true })
                }
                let status = try owner.status()
                #expect(status.title == call.title, "\(call)")
                #expect(status.subtitle == call.subtitle, "\(call)")
                #expect(status.progress == Double(call.progress), "\(call)")
            }
            // The same arrangement with a value the owner must refuse; with an empty `--subtitle=`,
            // which the parser reads differently (it takes the next argument as the subtitle):
            // the same error as window-banner-full's own parse; and with one flag more.
            let bad = try owner.run(["show", "--title", "x", "--subtitle=y", "--progress", "2", "--compact", "never", "--id", "calls"])
            #expect(bad.status == 64 && bad.error.contains("'2'"), "\(bad)")
            let empty = ["show", "--title", "x", "--subtitle=", "--progress", "0.3", "--compact", "never", "--id", "calls"]
            let forwarded = try owner.run(empty)
            let local = try IconShapeCLITests.run(owner, empty, executable: windowBannerExecutable("window-banner-full"))
            #expect(forwarded.status == 64 && forwarded.status == local.status && forwarded.error == local.error, "\(forwarded) vs \(local)")
            try owner.show(["--title", "Last", "--subtitle=z", "--progress", "0.9", "--compact", "never", "--id", "last"])
            #expect(try owner.status().title == "Last" && owner.status().id == "last")
        }

        @Test func waitWorksThroughTheOwnersParse() throws {
            let owner = try OwnerFixture()
            try owner.show(["--title", "First", "--compact", "never"])
            let waited = try owner.run(["show", "--title", "Brief", "--timeout", "0.3", "--wait"])
            #expect(waited.status == 0)
            #expect(waited.output == "timeout\n")
            let once = try owner.run(["show", "--title", "Once", "--once", "k", "--wait", "--timeout", "0.2"])
            #expect(once.output == "timeout\n")
            let again = try owner.run(["show", "--title", "Once", "--once", "k", "--wait"])
            #expect(again.status == 0)
            #expect(again.output == "skipped\n")
        }
    }
}
