// `status --waybar` against a real owner: what waybar's custom module (`"return-type": "json"`)
// reads is one JSON object a line whatever the title holds — quotes, backslashes, line breaks,
// control characters, markup, emoji, right-to-left text, invalid UTF-8, and seeded random
// titles — with the title as typed once waybar has read the JSON and Pango the markup. The
// real waybar on sway runs the module in WaybarModuleTests.

import Foundation
import Glibc
import ProcessTestSupport
import Testing
import X11TestSupport

extension WindowBannerCLITests {
    @Suite("status --waybar")
    struct WaybarStatusTests {
        /// One line of `status --waybar`, parsed as JSON; a failure quoting it when it is not
        /// one object of waybar's fields.
        static func object(_ line: String) throws -> [String: Any] {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw TestFailure("not a JSON object: \(line.debugDescription)")
            }
            let fields = Set(object.keys)
            guard fields.isSubset(of: ["text", "tooltip", "class", "alt", "percentage"]), fields.isSuperset(of: ["text", "tooltip", "class", "alt"]) else {
                throw TestFailure("unexpected fields \(fields.sorted()) in \(line.debugDescription)")
            }
            return object
        }

        /// What Pango shows for `markup` made of text and the five entities GLib escapes with.
        /// Scalar by scalar: an entity's `;` and a combining mark after it are one Character.
        static func shown(_ markup: String) -> String {
            let entities: [String: Unicode.Scalar] = ["&lt;": "<", "&gt;": ">", "&quot;": "\"", "&#39;": "'", "&amp;": "&"]
            var shown = String.UnicodeScalarView()
            var rest = Substring(markup).unicodeScalars
            while let first = rest.first {
                if first == "&", let (entity, scalar) = entities.first(where: { rest.starts(with: $0.key.unicodeScalars) }) {
                    shown.append(scalar)
                    rest = rest.dropFirst(entity.unicodeScalars.count)
                } else {
                    shown.append(first)
                    rest = rest.dropFirst()
                }
            }
            return String(shown)
        }

        /// A title as one line of a bar: control characters and line or paragraph separators
        /// as spaces.
        static func oneLine(_ title: String) -> String {
            String(String.UnicodeScalarView(title.unicodeScalars.map {
                $0.properties.generalCategory == .control || $0 == "\u{2028}" || $0 == "\u{2029}" ? " " : $0
            }))
        }

        /// Titles a bar must survive, as the bytes a script passes.
        static let hostileTitles: [[UInt8]] = [
            #"Say "hi" to "Anna""#, #"C:\Users\new\table \" \\"#, "two\nlines\r\nand a tab\there",
            "<b>bold</b> & <span foreground='red'>not markup</span> &amp; &#39; ]]>",
            "\u{1}\u{7}\u{1B}[31mescape\u{7F}\u{85} \u{2028}\u{2029}end",
            "👨‍👩‍👧‍👦 🏳️‍🌈 👍🏽 🇯🇵 1️⃣", "لا يوجد اتصال بالإنترنت", "אין חיבור לאינטרנט (5G)", "\u{202E}reversed\u{202C} \u{FEFF}zero\u{200B}width",
            "{\"text\":\"injected\",\"class\":\"offline\"}", "}\n{\"text\":\"second object\"}",
        ].map { Array($0.utf8) } + [[0x41, 0xFF, 0xFE, 0x42, 0xC3, 0x28, 0xE2, 0x82]]

        /// Seeded random titles: letters, JSON's and markup's special characters, controls,
        /// separators, combining marks, right-to-left and astral scalars, mixed.
        static func randomTitles(count: Int) -> [String] {
            var random = SplitMix64(seed: 0x5741_5942_4152)
            let pools: [[Unicode.Scalar]] = [
                Array("abcXYZ 019-_.,!?".unicodeScalars), Array("\"\\/<>&';{}[]:".unicodeScalars),
                (0x01...0x1F).compactMap(Unicode.Scalar.init) + ["\u{7F}", "\u{85}", "\u{2028}", "\u{2029}"],
                (0x0600...0x06FF).compactMap(Unicode.Scalar.init) + (0x05D0...0x05EA).compactMap(Unicode.Scalar.init),
                (0x0300...0x036F).compactMap(Unicode.Scalar.init) + ["\u{200D}", "\u{FE0F}", "\u{202E}", "\u{FEFF}"],
                (0x1F300...0x1FAFF).compactMap(Unicode.Scalar.init) + (0x4E00...0x4E80).compactMap(Unicode.Scalar.init),
            ]
            return (0..<count).map { _ in
                // A letter first: a title starting with `-` would be read as an option.
                var title = String.UnicodeScalarView(["T"])
                for _ in 0..<Int.random(in: 1...40, using: &random) {
                    let pool = pools[Int.random(in: 0..<pools.count, using: &random)]
                    title.append(pool[Int.random(in: 0..<pool.count, using: &random)])
                }
                return String(title)
            }
        }

        @Test func everyLineIsOneJSONObjectWithTheTitleAsTypedWhateverItHolds() throws {
            let owner = try OwnerFixture()
            let follow = try owner.fixture.launch(["status", "--follow", "--waybar"])
            defer { follow.signal(SIGKILL) }
            let nothing = try Self.object(try StatusFollowTests.nextLine(follow))
            #expect(nothing["text"] as? String == "")
            #expect(nothing["class"] as? [String] == ["none"])

            let titles = Self.hostileTitles + Self.randomTitles(count: 100).map { Array($0.utf8) }
            for (index, bytes) in titles.enumerated() {
                let shown = try owner.fixture.launch(rawArguments: [Array("show".utf8), Array("--title".utf8), bytes, Array("--id".utf8), Array("t".utf8)])
                #expect(shown.waitForExit(timeout: 20) == 0, "show \(bytes): \(shown.standardError)")
                let expected = Self.oneLine(String(decoding: bytes, as: UTF8.self))
                // Every line read is an object; the one with this title must come.
                var seen: [String] = []
                let giveUp = monotonicSeconds() + StatusFollowTests.lineDeadline
                while monotonicSeconds() < giveUp, let line = follow.readLine(timeout: giveUp - monotonicSeconds()) {
                    let object = try Self.object(line)
                    let text = try #require(object["text"] as? String)
                    seen.append(text)
                    guard Self.shown(text) == expected else { continue }
                    #expect(object["tooltip"] as? String == text, "title \(index)")
                    #expect(object["class"] as? [String] == ["banner"], "title \(index)")
                    break
                }
                #expect(seen.last.map(Self.shown) == expected, "title \(index) \(expected.debugDescription) never came; read \(seen)")
            }
            #expect(try owner.run(["dismiss"]).status == 0)
            #expect(try Self.object(try StatusFollowTests.nextLine(follow))["class"] as? [String] == ["none"])
        }

        @Test func styleSubtitleQueueAndProgressGoWhereWaybarLooksForThem() throws {
            let owner = try OwnerFixture()
            let none = try owner.run(["status", "--waybar"])
            #expect(none.status == 0)
            #expect(none.output == #"{"alt":"none","class":["none"],"text":"","tooltip":""}"# + "\n")

            try owner.show(["--style", "offline", "--subtitle", "Check the <cable> & router", "--progress", "0.375", "--compact", "never"])
            try owner.show(["--title", "Later", "--enqueue"])
            let shown = try Self.object(try owner.run(["status", "--waybar"]).output)
            #expect(shown["text"] as? String == "No Internet Connection")
            #expect(shown["tooltip"] as? String == "No Internet Connection\nCheck the &lt;cable&gt; &amp; router\n1 more queued")
            #expect(shown["class"] as? [String] == ["banner", "offline"])
            #expect(shown["alt"] as? String == "offline")
            #expect(shown["percentage"] as? Int == 38)

            try owner.show(["--title", "Deploying", "--compact", "never"])
            let plain = try Self.object(try owner.run(["status", "--waybar"]).output)
            #expect(plain["class"] as? [String] == ["banner"])
            #expect(plain["alt"] as? String == "banner")
            #expect(plain["percentage"] == nil)
        }

        /// A bar can grey out a banner that waits behind a locked screen: the class says so
        /// while i3lock is up, and goes once it has gone.
        @Test(.needsProgram("/usr/bin/i3lock", package: "i3lock"))
        func aBannerBehindALockedScreenHasTheLockedClass() throws {
            let owner = try OwnerFixture()
            let lock = try owner.fixture.desktop.start(["i3lock", "-n", "-c", "112233"])
            defer { lock.signal(SIGKILL) }
            let follow = try owner.fixture.launch(["status", "--follow", "--waybar"])
            defer { follow.signal(SIGKILL) }
            try owner.show(["--style", "call", "--compact", "never"])
            let locked = try StatusFollowTests.awaitLine(follow, "the locked class") {
                (try? Self.object($0))?["class"] as? [String] == ["banner", "call", "locked"]
            }
            #expect(try Self.object(locked.line)["tooltip"] as? String == "Call in progress\nhidden while the screen is locked")

            lock.signal(SIGTERM)
            _ = lock.waitForExit(timeout: 5)
            _ = try StatusFollowTests.awaitLine(follow, "the call class alone") {
                (try? Self.object($0))?["class"] as? [String] == ["banner", "call"]
            }
        }

        /// An owner is another program on a socket: a progress far off 0…1 from it is clamped
        /// (for `--waybar` and `--format '{progress}'`) and a title of 10,000 quotes escaped,
        /// never a crash. The owner here is a python script on the socket, answering one
        /// `status` frame.
        @Test(arguments: [(1e300, 100), (-7.5, 0), (0.5, 50)])
        func anOwnersProgressOffTheScaleIsClampedNeverATrap(progress: Double, percent: Int) throws {
            var template = Array("/tmp/wb-waybar-XXXXXX".utf8CString)
            let runtime = try #require(mkdtemp(&template).map { String(cString: $0) })
            defer { _ = try? Subprocess.run("/bin/rm", ["-rf", runtime]) }
            mkdir(runtime + "/window-banner", 0o700)
            let script = """
                import json, socket, struct, sys
                server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                server.bind(sys.argv[1])
                server.listen(1)
                print("listening", flush=True)
                client, _ = server.accept()
                length = struct.unpack(">I", client.recv(4))[0]
                client.recv(length)
                monitor = {"monitor": "M", "primary": True, "presented": True, "title": '"' * 10000, "reserved": 80, "queue": 0,
                           "progress": float(sys.argv[2])}
                body = json.dumps({"v": 3, "status": {"pid": 1, "display": ":96", "monitors": [monitor]}}).encode()
                client.sendall(struct.pack(">I", len(body)) + body)
                client.close()
                """
            func status(_ arguments: [String]) throws -> String {
                let owner = try Subprocess(executable: "/usr/bin/python3", arguments: ["-c", script, runtime + "/window-banner/display:96.sock", String(progress)])
                defer { unlink(runtime + "/window-banner/display:96.sock") }
                #expect(owner.readLine(timeout: 20) == "listening", "\(owner.standardError)")
                let status = try Subprocess(executable: windowBannerExecutable(), arguments: ["status"] + arguments,
                                            environment: ["PATH": "/usr/bin:/bin", "DISPLAY": ":96", "XDG_RUNTIME_DIR": runtime])
                #expect(status.waitForExit(timeout: 20) == 0, "\(status.standardError)")
                #expect(owner.waitForExit(timeout: 20) == 0, "\(owner.standardError)")
                return status.standardOutput
            }
            let object = try Self.object(try status(["--waybar"]))
            #expect(object["percentage"] as? Int == percent)
            #expect(object["text"] as? String == String(repeating: "&quot;", count: 10000))
            // `--format '{progress}'` too.
            #expect(try status(["--format", "{progress}"]) == "\(percent)\n")
        }

        @Test(arguments: [["--json"], ["--format", "{title}"]])
        func waybarWithAnotherOutputIsOneLineAndExit64(other: [String]) throws {
            let owner = try OwnerFixture()
            try owner.show(["--title", "Stays", "--compact", "never"])
            let refused = try owner.run(["status", "--follow", "--waybar"] + other)
            #expect(refused.status == 64)
            #expect(refused.error == "window-banner: --waybar cannot be combined with \(other[0]) (see --help)\n")
            #expect(try owner.status().title == "Stays")
        }
    }
}
