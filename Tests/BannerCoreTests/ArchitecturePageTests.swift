// docs/architecture.md is where a maintainer starts, so it must not drift from the code: it names
// every target Package.swift has, and its list of imports is each module's `import` lines, as
// read from the sources. Package.swift declares exactly what each Swift target imports (a test
// target may also depend on the executables it runs).

import Foundation
import ProcessTestSupport
import Testing

@Suite("The architecture page")
struct ArchitecturePageTests {
    static let packageRoot = String(#filePath.split(separator: "/", omittingEmptySubsequences: false).dropLast(3).joined(separator: "/"))

    /// One target as Package.swift declares it.
    struct Target {
        let kind: String
        let name: String
        let path: String
        let dependencies: Set<String>
    }

    /// Package.swift's targets: kind, name, directory and declared dependencies (a product by
    /// its module's name).
    static func targets() throws -> [Target] {
        let manifest = try String(contentsOfFile: packageRoot + "/Package.swift", encoding: .utf8)
        let declaration = try Regex(#"\.(target|executableTarget|testTarget|systemLibrary)\("#)
        let product = try Regex(#"\.product\(\s*name:\s*"([^"]+)"[^)]*\)"#)
        let quoted = try Regex(#""([^"]+)""#)
        return try manifest.matches(of: declaration).map { match in
            let kind = String(match.output[1].substring ?? "")
            let call = balanced(manifest[match.range.upperBound...], open: "(", close: ")")
            guard let name = call.firstMatch(of: try Regex(#"name:\s*"([^"]+)""#))?.output[1].substring.map(String.init) else {
                throw TestFailure("a \(kind) without a name in Package.swift")
            }
            let path = call.firstMatch(of: try Regex(#"path:\s*"([^"]+)""#))?.output[1].substring.map(String.init)
                ?? (kind == "testTarget" ? "Tests/" : "Sources/") + name
            var dependencies: Set<String> = []
            if let start = call.range(of: "dependencies:") {
                var list = String(balanced(call[start.upperBound...].drop { $0 != "[" }.dropFirst(), open: "[", close: "]"))
                list.replace(product) { "\"\($0.output[1].substring ?? "")\"" }
                dependencies = Set(list.matches(of: quoted).compactMap { $0.output[1].substring.map(String.init) })
            }
            return Target(kind: kind, name: name, path: path, dependencies: dependencies)
        }
    }

    /// The text from the start of `text` up to the bracket that closes an opened one (the
    /// opening one already read), skipping comments and string literals.
    static func balanced(_ text: Substring, open: Character, close: Character) -> Substring {
        var depth = 1
        var index = text.startIndex
        var inString = false
        while index < text.endIndex {
            let character = text[index]
            if inString {
                if character == "\"" { inString = false }
            } else if character == "\"" {
                inString = true
            } else if character == "/", text[index...].hasPrefix("//") {
                index = text[index...].firstIndex(of: "\n") ?? text.endIndex
                continue
            } else if character == open {
                depth += 1
            } else if character == close {
                depth -= 1
                if depth == 0 { return text[text.startIndex..<index] }
            }
            index = text.index(after: index)
        }
        return text
    }

    /// The package's modules that the Swift files under `path` import.
    static func imports(under path: String, of modules: Set<String>) throws -> Set<String> {
        let line = try Regex(#"(?m)^(?:@[A-Za-z_]+ |public |internal )*import\s+(?:(?:struct|class|enum|func|var|let|typealias|protocol)\s+)?([A-Za-z_][A-Za-z0-9_]*)"#)
        var found: Set<String> = []
        let root = packageRoot + "/" + path
        for file in FileManager.default.enumerator(atPath: root)?.compactMap({ $0 as? String }) ?? [] where file.hasSuffix(".swift") {
            let text = try String(contentsOfFile: root + "/" + file, encoding: .utf8)
            for match in text.matches(of: line) {
                if let module = match.output[1].substring.map(String.init), modules.contains(module) { found.insert(module) }
            }
        }
        return found
    }

    /// Whether `target` has Swift sources (a C or system-library target's imports are headers).
    static func isSwift(_ target: Target) -> Bool {
        target.kind != "systemLibrary"
            && (FileManager.default.enumerator(atPath: packageRoot + "/" + target.path)?.contains { ($0 as? String)?.hasSuffix(".swift") == true } ?? false)
    }

    @Test func everyTargetOfThePackageIsOnThePage() throws {
        let page = try String(contentsOfFile: Self.packageRoot + "/docs/architecture.md", encoding: .utf8)
        let targets = try Self.targets()
        #expect(targets.count > 30, "found only \(targets.map(\.name))")
        for target in targets {
            #expect(page.contains("`\(target.name)`"), "docs/architecture.md does not name the target \(target.name)")
        }
    }

    @Test func packageSwiftDeclaresWhatEachTargetImports() throws {
        let targets = try Self.targets()
        let modules = Set(targets.map(\.name)).union(["ArgumentParser"])
        let executables = Set(targets.filter { $0.kind == "executableTarget" }.map(\.name))
        for target in targets where Self.isSwift(target) {
            let imported = try Self.imports(under: target.path, of: modules)
            var declared = target.dependencies
            // A test target may depend on programs it runs, which nothing imports.
            if target.kind == "testTarget" { declared.subtract(executables) }
            #expect(declared.subtracting(imported).isEmpty, "\(target.name) declares \(declared.subtracting(imported).sorted()) but imports none of it")
            #expect(imported.subtracting(declared).isEmpty, "\(target.name) imports \(imported.subtracting(declared).sorted()) without declaring it")
        }
    }

    /// The page's "module by module" list, as it must read: each Swift module that is not a
    /// test target, and the package's modules it imports.
    static func importList() throws -> String {
        let targets = try Self.targets()
        let modules = Set(targets.map(\.name))
        var lines: [String] = []
        for target in targets.sorted(by: { $0.name < $1.name }) where target.kind != "testTarget" && Self.isSwift(target) {
            let imported = try Self.imports(under: target.path, of: modules).sorted()
            lines.append("\(target.name): \(imported.isEmpty ? "(nothing of the package)" : imported.joined(separator: ", "))")
        }
        return lines.joined(separator: "\n")
    }

    @Test func thePagesImportsAreTheImportLines() throws {
        let page = try String(contentsOfFile: Self.packageRoot + "/docs/architecture.md", encoding: .utf8)
        let expected = try Self.importList()
        let marker = "<!-- imports: checked by ArchitecturePageTests -->\n```text\n"
        let start = try #require(page.range(of: marker), "docs/architecture.md has no checked list of imports")
        let end = try #require(page[start.upperBound...].range(of: "\n```"))
        let listed = String(page[start.upperBound..<end.lowerBound])
        #expect(listed == expected, "docs/architecture.md's list of imports differs from the import lines; it should read:\n\(expected)")
    }

    /// The page's "where a change goes" table: each row names one module of the package and
    /// files that module holds.
    @Test func whereAChangeGoesNamesModulesThatHoldTheirFiles() throws {
        let page = try String(contentsOfFile: Self.packageRoot + "/docs/architecture.md", encoding: .utf8)
        let marker = "<!-- changes: checked by ArchitecturePageTests -->\n"
        let start = try #require(page.range(of: marker), "docs/architecture.md has no checked table of where a change goes")
        let rows = page[start.upperBound...].split(separator: "\n").prefix { $0.hasPrefix("|") }.dropFirst(2)
        #expect(rows.count >= 6)
        let targets = try Self.targets()
        let quoted = try Regex(#"`([^`]+)`"#)
        for row in rows {
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 3 else {
                Issue.record("a row that is not change | module | files: \(row)")
                continue
            }
            let modules = cells[1].matches(of: quoted).compactMap { $0.output[1].substring.map(String.init) }
            #expect(modules.count == 1, "one module per row: \(row)")
            guard let module = modules.first, let target = targets.first(where: { $0.name == module }) else {
                Issue.record("no module \(modules) in Package.swift: \(row)")
                continue
            }
            let files = cells[2].matches(of: quoted).compactMap { $0.output[1].substring.map(String.init) }
            #expect(!files.isEmpty, "no files named: \(row)")
            for file in files {
                #expect(FileManager.default.fileExists(atPath: Self.packageRoot + "/" + target.path + "/" + file), "\(module) holds no \(file)")
            }
        }
    }

    /// docs/tests.md's "about N tests" is the suite as it is: within 5 % of the `@Test`
    /// functions in Tests/ (a parameterized test counts once, as the runner counts it).
    @Test func testsPageCountsTheTestsThereAre() throws {
        let page = try String(contentsOfFile: Self.packageRoot + "/docs/tests.md", encoding: .utf8)
        let claim = try #require(page.firstMatch(of: try Regex(#"about (\d+) tests in"#))?.output[1].substring.flatMap { Int($0) },
                                 "docs/tests.md says no \"about N tests in\"")
        let attribute = try Regex(#"(?m)^\s*@Test\b"#)
        var count = 0
        let root = Self.packageRoot + "/Tests"
        for file in FileManager.default.enumerator(atPath: root)?.compactMap({ $0 as? String }) ?? [] where file.hasSuffix(".swift") {
            count += try String(contentsOfFile: root + "/" + file, encoding: .utf8).matches(of: attribute).count
        }
        #expect(abs(claim - count) * 20 <= count, "docs/tests.md says about \(claim) tests; there are \(count)")
    }

    /// Every clock reading goes through a loop or the one blocking wait: `monotonicNow()` is
    /// called only in Reactor (the loop, PollWait), never by a host, display, reader or command
    /// directly (the benchmark, which times things, is in bench/, not Sources/).
    @Test func nothingReadsTheClockBehindItsLoopsBack() throws {
        let readers = try Self.sources(under: "Sources").filter { file, text in
            !file.hasPrefix("MonotonicClock/") && !file.hasPrefix("Reactor/")
                && text.contains("monotonicNow()")
        }.map(\.file)
        #expect(readers.isEmpty, "these read the clock themselves instead of their loop's or PollWait's: \(readers)")
    }

    /// No clock is a default argument: a new caller that forgot to pass its loop's clock would
    /// run off the loop, and its tests, on the real clock, would stay green.
    @Test func noClockHasADefault() throws {
        let defaults = try Self.sources(under: "Sources").filter { _, text in
            text.range(of: #"clock:[^=\n]*=\s*(\{[^}]*\}|monotonicNow)"#, options: .regularExpression) != nil
        }.map(\.file)
        #expect(defaults.isEmpty, "a clock with a default argument: \(defaults)")
    }

    /// The lines of `text` (Swift or C) that read a monotonic clock themselves, whatever the
    /// function is called: CLOCK_MONOTONIC (or its _RAW, _COARSE) and CLOCK_BOOTTIME, Swift's
    /// ContinuousClock and SuspendingClock, Dispatch's uptime, Foundation's systemUptime.
    /// Comments and string literals are not code.
    static func privateClockReaders(in text: String) -> [String] {
        let reader = #"\bCLOCK_(MONOTONIC|BOOTTIME)\w*\b|\b(ContinuousClock|SuspendingClock)\b|DispatchTime\.now|uptimeNanoseconds|\bsystemUptime\b"#
        return text.split(separator: "\n").map(String.init).filter { line in
            var code = line.replacingOccurrences(of: #""(?:[^"\\]|\\.)*""#, with: "\"\"", options: .regularExpression)
            if let comment = code.range(of: "//") { code = String(code[..<comment.lowerBound]) }
            if code.trimmingCharacters(in: .whitespaces).hasPrefix("*") { return false }
            return code.range(of: reader, options: .regularExpression) != nil
        }
    }

    /// The check finds a private clock reader whatever it is named, and nothing else.
    @Test func theCheckFindsAPrivateClockReaderWhateverItsName() {
        let readers = [
            "    clock_gettime(CLOCK_MONOTONIC, &spec)",
            "private static func ticks() -> UInt64 { var t = timespec(); clock_gettime(CLOCK_BOOTTIME, &t); return 0 }",
            "    clock_gettime(CLOCK_MONOTONIC_RAW, &now);",
            "let started = ContinuousClock.now",
            "let wake = DispatchTime.now().uptimeNanoseconds",
            "let boot = ProcessInfo.processInfo.systemUptime",
        ]
        for line in readers { #expect(Self.privateClockReaders(in: line) == [line], "\(line)") }
        let notReaders = [
            "    clock_gettime(CLOCK_REALTIME, &now)  // a timestamp for the log",
            "// clock_gettime(CLOCK_MONOTONIC, …) is MonotonicClock's",
            "    /// On CLOCK_MONOTONIC; nil for never.",
            #"text += "the server's clock was CLOCK_MONOTONIC at \(n) markers""#,
            "let now = loop.now",
        ]
        for line in notReaders { #expect(Self.privateClockReaders(in: line).isEmpty, "\(line)") }
    }

    /// No private monotonic clock reader outside MonotonicClock (the one reading) and
    /// StartupTrace (which times a process's start before anything else is loaded).
    @Test func noPrivateClockReaderOutsideMonotonicClockAndStartupTrace() throws {
        var found: [String] = []
        for (file, text) in try Self.sources(under: "Sources", kinds: ["swift", "c", "h"])
        where !file.hasPrefix("MonotonicClock/") && !file.hasPrefix("StartupTrace/") {
            found += Self.privateClockReaders(in: text).map { "\(file): \($0.trimmingCharacters(in: .whitespaces))" }
        }
        #expect(found.isEmpty, "private clock readers: \(found)")
    }

    /// Every hand-written file under `directory` of the given kinds, with its text.
    static func sources(under directory: String, kinds: Set<String> = ["swift"]) throws -> [(file: String, text: String)] {
        let root = packageRoot + "/" + directory
        return try (FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? [])
            .filter { file in kinds.contains { file.hasSuffix("." + $0) } }
            .map { ($0, try String(contentsOfFile: root + "/" + $0, encoding: .utf8)) }
    }

    /// No hand-written source file is over 500 lines (issue 42): Swift, C, the extension's
    /// JavaScript, the scripts and the test fakes, the bench's included. Generated files (the
    /// wayland-scanner headers) and what builds write (`.build*`, `bench/out`) are not read.
    @Test func noHandWrittenSourceFileIsOver500Lines() throws {
        let kinds: Set<String> = ["swift", "c", "h", "js", "py", "sh"]
        var long: [String] = []
        for directory in ["Sources", "Tests", "Resources", "scripts", "bench", "packaging"] {
            let root = Self.packageRoot + "/" + directory
            for file in FileManager.default.enumerator(atPath: root)?.compactMap({ $0 as? String }) ?? []
            where !file.hasPrefix("out/") && kinds.contains(String(file.split(separator: ".").last ?? "")) {
                let text = try String(contentsOfFile: root + "/" + file, encoding: .utf8)
                guard !text.prefix(200).contains("Generated by wayland-scanner") else { continue }
                let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count - (text.hasSuffix("\n") ? 1 : 0)
                if lines > 500 { long.append("\(directory)/\(file): \(lines)") }
            }
        }
        #expect(long.isEmpty, "over 500 lines: \(long.sorted())")
    }

    @Test func theReadmeLinksToThePageFirst() throws {
        let readme = try String(contentsOfFile: Self.packageRoot + "/README.md", encoding: .utf8)
        let firstDocLink = try #require(readme.firstRange(of: "(docs/"))
        #expect(readme[firstDocLink.lowerBound...].hasPrefix("(docs/architecture.md"))
    }
}
