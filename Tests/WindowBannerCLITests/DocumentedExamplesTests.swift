// Every example in README.md and docs/ is run, so the documentation cannot rot:
// - each ```sh block runs in bash against a real owner on the test's desktop, with the built
//   `window-banner` first on PATH behind a wrapper that records every call's exit status:
//   each must be 0 or one of `--wait`'s outcomes (10–15), and nothing but warnings may reach
//   stderr. What an example would wait on for a person is done for it: `run` and `monitor`
//   without an end get SIGINT/SIGTERM after 2 s, and a `--wait` with no timeout is dismissed
//   after 1.5 s. Programs an example merely names for its user (`rsync`, `systemctl`, `xdg-open`)
//   are stand-ins that record their call; `crontab -` and `ssh HOST COMMAND` run the command as
//   cron and sshd would, with a bare environment: no DISPLAY, only the test's runtime directory
//   (standing in for /run/user/UID) and system bus, where a stand-in logind names the test's
//   display as the user's active session (docs/scripts.md);
// - each ```toml block is a config file `window-banner-config` must accept;
// - each ```json block must parse;
// - each ```swift block must appear, line for line, in a test that compiles and runs it
//   (DocumentedSwiftExamples in BannerX11Tests);
// - a block preceded by `<!-- not run: reason -->` is skipped, and says why; a ```text block
//   is output, not an example; a ```yaml block is a playbook, the first of docs/fleet.md run by
//   FleetTests.

import Foundation
import Glibc
import ProcessTestSupport
import Testing
import X11TestSupport

extension WindowBannerCLITests {
    @Suite("Documented examples")
    struct DocumentedExamplesTests {
        static let packageRoot = String(#filePath.split(separator: "/", omittingEmptySubsequences: false).dropLast(3).joined(separator: "/"))

        struct Block: CustomStringConvertible {
            var file: String
            var line: Int
            var language: String
            var body: String
            var skipReason: String?
            var description: String { "\(file):\(line)" }
        }

        /// Every fenced block of README.md and docs/*.md, in order.
        static func blocks() throws -> [Block] {
            let docs = try FileManager.default.contentsOfDirectory(atPath: packageRoot + "/docs").filter { $0.hasSuffix(".md") }.sorted()
            var blocks: [Block] = []
            for file in ["README.md"] + docs.map({ "docs/" + $0 }) {
                let lines = try String(contentsOfFile: packageRoot + "/" + file, encoding: .utf8).components(separatedBy: "\n")
                var index = 0
                while index < lines.count {
                    guard lines[index].hasPrefix("```") else { index += 1; continue }
                    let language = String(lines[index].dropFirst(3)).trimmingCharacters(in: .whitespaces)
                    let end = lines[(index + 1)...].firstIndex { $0.hasPrefix("```") } ?? lines.count
                    let previous = index > 0 ? lines[index - 1] : ""
                    let skip = previous.range(of: #"<!-- not run: (.*) -->"#, options: .regularExpression).map {
                        String(previous[$0].dropFirst("<!-- not run: ".count).dropLast(" -->".count))
                    }
                    blocks.append(Block(file: file, line: index + 1, language: language,
                                        body: lines[(index + 1)..<end].joined(separator: "\n"), skipReason: skip))
                    index = end + 1
                }
            }
            return blocks
        }

        @Test func everyBlockSaysWhatItIs() throws {
            let blocks = try Self.blocks()
            #expect(blocks.count > 10)
            for block in blocks {
                #expect(["sh", "toml", "json", "swift", "text", "yaml"].contains(block.language), "\(block): a block without a known language (\(block.language))")
                #expect(block.skipReason.map { !$0.isEmpty } ?? true, "\(block): skipped without a reason")
            }
        }

        /// A directory on PATH before the real programs: `window-banner` is the built one behind a
        /// wrapper that logs each call's arguments and exit status to `$DOC_LOG`, waits on behalf
        /// of a person where an example would, and stand-ins for the user's own programs.
        static func makeTools(in directory: String) throws {
            let real = windowBannerExecutable()
            let wrapper = """
                #!/bin/bash
                # What a person would do for an example that waits for them.
                limit=()
                case " $* " in
                  *" run "*) [[ " $* " == *" -- "* || " $* " == *" --timeout "* ]] || limit=(timeout --preserve-status -s INT 2) ;;
                  *" monitor "*) limit=(timeout --preserve-status -s TERM 2) ;;
                esac
                if [[ " $* " == *" --wait "* && " $* " != *" --timeout "* ]]; then
                  ( sleep 1.5; "\(real)" dismiss >/dev/null 2>&1 ) &
                fi
                "${limit[@]}" "\(real)" "$@" 2> >(tee -a "$DOC_LOG.stderr" >&2)
                status=$?
                printf '%s\\t%s\\n' "$status" "$*" >> "$DOC_LOG"
                exit $status
                """
            try write(wrapper, to: directory + "/window-banner", executable: true)
            for program in ["rsync", "systemctl", "xdg-open"] {
                try write("#!/bin/sh\necho \"\(program) $*\" >> \"$DOC_LOG.others\"\n", to: directory + "/" + program, executable: true)
            }
            let bare = #"env -i PATH="$PATH" HOME="$HOME" XDG_RUNTIME_DIR="$XDG_RUNTIME_DIR" DBUS_SYSTEM_BUS_ADDRESS="$DBUS_SYSTEM_BUS_ADDRESS" DOC_LOG="$DOC_LOG" ${WINDOW_BANNER_TEST_RUN+WINDOW_BANNER_TEST_RUN="$WINDOW_BANNER_TEST_RUN"}"#
            try write(#"""
                #!/bin/bash
                # crontab -l prints the table; crontab - installs one and runs each job once, as cron would.
                table="$DOC_LOG.crontab"
                if [ "$1" = -l ]; then [ -e "$table" ] && exec cat "$table"; exit 1; fi
                cat > "$table"
                grep -v -e '^#' -e '^[A-Z_]*=' "$table" | while read -r _ _ _ _ _ job; do
                  [ -n "$job" ] && \#(bare) /bin/sh -c "$job" < /dev/null
                done
                exit 0
                """#, to: directory + "/crontab", executable: true)
            try write(#"""
                #!/bin/bash
                # ssh [OPTIONS] HOST COMMAND…: the command, through a shell, as sshd runs it.
                while [[ $1 == -* ]]; do shift; done
                shift
                exec \#(bare) /bin/sh -c "$*" < /dev/null
                """#, to: directory + "/ssh", executable: true)
        }

        static func write(_ text: String, to path: String, executable: Bool = false) throws {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            if executable { chmod(path, 0o755) }
        }

        @Test func shellExamplesRunAgainstARealOwner() throws {
            let owner = try OwnerFixture()
            let me = geteuid()
            let bus = try PrivateSystemBus()
            let logind = try FakeLogind(on: bus, sessions: [loginSession("c1", uid: me, user: "me", display: owner.fixture.desktop.displayName)],
                                        runtime: [me: owner.runtimeDirectory])
            defer { _ = logind }
            let tools = owner.runtimeDirectory + "/doc-tools"
            try FileManager.default.createDirectory(atPath: tools, withIntermediateDirectories: true)
            try Self.makeTools(in: tools)
            let home = owner.runtimeDirectory + "/doc-home"
            try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
            let log = owner.runtimeDirectory + "/doc-log"
            var environment = owner.fixture.environment(.desktop)
            environment["PATH"] = tools + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
            environment["HOME"] = home
            environment["DOC_LOG"] = log
            environment["DBUS_SYSTEM_BUS_ADDRESS"] = bus.address
            // An administrator's `broadcast` writes a spool of its own, never the machine's.
            let systemRoot = owner.runtimeDirectory + "/doc-root"
            mkdir(systemRoot, 0o755)
            chmod(owner.runtimeDirectory, 0o755)
            environment["WINDOW_BANNER_ROOT"] = systemRoot

            let examples = try Self.blocks().filter { $0.language == "sh" && $0.skipReason == nil }
            #expect(examples.count >= 5)
            for block in examples {
                unlink(log)
                unlink(log + ".stderr")
                let shell = try Subprocess(executable: "/bin/bash", arguments: ["-c", block.body], environment: environment)
                let status = shell.waitForExit(timeout: 120)
                #expect(status != nil, "\(block) did not finish")
                let calls = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n")
                #expect(!calls.isEmpty, "\(block) called window-banner no time")
                for call in calls {
                    let fields = call.split(separator: "\t", maxSplits: 1)
                    let code = Int(fields.first ?? "") ?? -1
                    #expect(code == 0 || (10...15).contains(code), "\(block): `window-banner \(fields.last ?? "")` exited \(code)")
                }
                let errors = ((try? String(contentsOfFile: log + ".stderr", encoding: .utf8)) ?? "")
                    .split(separator: "\n").filter { !$0.contains("warning: ") && !$0.isEmpty }
                #expect(errors.isEmpty, "\(block) wrote to stderr: \(errors)")
                // Each block starts from nothing shown.
                _ = (try? Subprocess(executable: windowBannerExecutable(), arguments: ["dismiss", "--all", "--quit"], environment: environment))?.waitForExit()
                _ = owner.fixture.waitForRestoredDesktop()
            }
        }

        @Test func configExamplesAreAccepted() throws {
            let examples = try Self.blocks().filter { $0.language == "toml" && $0.skipReason == nil }
            #expect(!examples.isEmpty)
            let directory = NSTemporaryDirectory() + "doc-config-\(getpid())"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            defer { _ = try? FileManager.default.removeItem(atPath: directory) }
            for block in examples {
                let path = directory + "/config.toml"
                try Self.write(block.body + "\n", to: path)
                let reader = try Subprocess(executable: windowBannerExecutable("window-banner-config"), arguments: [path])
                #expect(reader.waitForExit() == 0, "\(block): \(reader.standardError)")
            }
        }

        @Test func jsonExamplesParse() throws {
            let examples = try Self.blocks().filter { $0.language == "json" && $0.skipReason == nil }
            #expect(!examples.isEmpty)
            for block in examples {
                // A block may hold one object over several lines, or several (the frames of a
                // conversation, a few to a line): each must parse.
                let objects = Self.topLevelObjects(block.body)
                #expect(!objects.isEmpty, "\(block) holds no JSON object")
                for object in objects {
                    #expect((try? JSONSerialization.jsonObject(with: Data(object.utf8))) != nil, "\(block): not JSON: \(object)")
                }
            }
        }

        /// The top-level `{…}` of `text`, found by their braces (outside strings).
        static func topLevelObjects(_ text: String) -> [String] {
            var objects: [String] = []
            var depth = 0
            var inString = false
            var escaped = false
            var current = ""
            for character in text {
                if depth > 0 { current.append(character) }
                if inString {
                    if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
                    continue
                }
                switch character {
                case "\"" where depth > 0: inString = true
                case "{":
                    if depth == 0 { current = "{" }
                    depth += 1
                case "}" where depth > 0:
                    depth -= 1
                    if depth == 0 { objects.append(current) }
                default: break
                }
            }
            return objects
        }

        @Test func swiftExamplesAreCompiledAndRunByATest() throws {
            let source = try ["BannerX11Tests/DocumentedSwiftExamples.swift", "BannerWaylandTests/DocumentedWaylandExamples.swift"]
                .map { try String(contentsOfFile: Self.packageRoot + "/Tests/" + $0, encoding: .utf8) }.joined(separator: "\n")
            let tested = Self.normalized(source)
            let examples = try Self.blocks().filter { $0.language == "swift" && $0.skipReason == nil }
            #expect(!examples.isEmpty)
            for block in examples {
                let lines = Self.normalized(block.body).split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("import ") }
                #expect(tested.contains(lines.joined(separator: "\n")), "\(block) is not in DocumentedSwiftExamples.swift or DocumentedWaylandExamples.swift, line for line")
            }
        }

        /// Lines without leading indentation; `X11Display()` is the test's `X11Display(name: displayName)`,
        /// `WaylandDisplay()` its `WaylandDisplay(name: socketPath)`.
        static func normalized(_ text: String) -> String {
            text.split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
                .map { $0.replacingOccurrences(of: "X11Display(name: displayName)", with: "X11Display()") }
                .map { $0.replacingOccurrences(of: "WaylandDisplay(name: socketPath)", with: "WaylandDisplay()") }
                .joined(separator: "\n")
        }
    }
}
