// The library as the README's "From Swift" offers it: a new package with docs/library.md's
// manifest, which depends on this one by URL and version — here a `file://` URL of a git copy
// of this checkout, tagged 1.0.0, which SwiftPM treats as any remote dependency (it refuses one
// depended on by version whose targets carry unsafe build flags; by branch or revision it
// allows them, so that would prove nothing) — with the README's example as its program. It is
// built with this machine's Swift and run on a real X server with a window manager. Oracles:
// SwiftPM's own build, the program's exit status, the X server's map events and the window
// manager's `_NET_WORKAREA` changes.

import Foundation
import Glibc
import ProcessTestSupport
import Testing
import X11TestSupport

@Suite("The library as a dependency by URL", .serialized, .needsProgram("/usr/bin/git", package: "git"))
struct LibraryDependencyTests {
    static let packageRoot = String(#filePath.split(separator: "/", omittingEmptySubsequences: false).dropLast(3).joined(separator: "/"))

    /// The first ```swift block under `heading` in `page` (a path under the package), exactly as
    /// the page shows it.
    static func swiftBlock(in page: String, under heading: String) throws -> String {
        let text = try String(contentsOfFile: packageRoot + "/" + page, encoding: .utf8)
        guard let section = text.range(of: heading + "\n"),
              let start = text[section.upperBound...].range(of: "```swift\n"),
              let end = text[start.upperBound...].range(of: "```\n") else {
            throw TestFailure("\(page) has no Swift block under \"\(heading)\"")
        }
        return String(text[start.upperBound..<end.lowerBound])
    }

    /// docs/library.md's manifest ("In your package"), with `url` for its placeholder URL.
    static func documentedManifest(dependingOn url: String) throws -> String {
        let manifest = try swiftBlock(in: "docs/library.md", under: "## In your package")
        let placeholder = "https://example.org/WindowBanner.git"
        guard manifest.contains("\"\(placeholder)\"") else { throw TestFailure("the manifest names no \(placeholder)") }
        return manifest.replacingOccurrences(of: placeholder, with: url)
    }

    @Test func aPackageDependingOnThisOneByURLBuildsAndShowsTheReadmesBanner() throws {
        var template = Array("/tmp/window-banner-dependency-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw TestFailure("mkdtemp failed") }
        let directory = String(cString: made)
        defer { _ = try? Subprocess.run("/bin/rm", ["-rf", directory]) }

        // The checkout as it is now (committed or not), as a git repository of its own.
        let source = directory + "/WindowBanner"
        try DebianNewcomerTests.copyCheckout(to: source)
        let commit = try Subprocess(executable: "/bin/sh", arguments: [
            "-c", #"cd "$1" && git init -q -b main && git add -A && git -c user.name=tests -c user.email=tests@invalid commit -q -m copy && git tag 1.0.0"#,
            "sh", source,
        ])
        commit.closeStandardInput()
        guard commit.waitForExit(timeout: 120) == 0 else { throw TestFailure("git commit of the copy failed: \(commit.standardError)") }

        let client = directory + "/client"
        mkdir(client, 0o700)
        mkdir(client + "/Sources", 0o700)
        mkdir(client + "/Sources/banner-client", 0o700)
        try DebianNewcomerTests.write(try Self.documentedManifest(dependingOn: "file://" + source), to: client + "/Package.swift")
        try DebianNewcomerTests.write(try Self.swiftBlock(in: "README.md", under: "## From Swift"), to: client + "/Sources/banner-client/main.swift")

        // Without SwiftPM's shared cache of clones: each run's copy has a URL of its own, and
        // would stay there.
        let build = try Subprocess(executable: "/usr/bin/env", arguments: ["swift", "build", "--package-path", client, "--disable-dependency-cache"])
        build.closeStandardInput()
        let built = build.waitForExit(timeout: 1800)
        let log = "\(build.standardOutput.suffix(3000))\n\(build.standardError.suffix(3000))"
        #expect(built == 0, "swift build of a package depending on this one by URL: \(built.map(String.init) ?? "timeout")\n\(log)")
        guard built == 0 else { return }

        let desktop = try TestDesktop()
        defer { desktop.stop() }
        let observer = try XObserver(displayName: desktop.displayName)
        defer { observer.close() }
        let before = observer.workAreas()
        observer.clearRecords()
        let program = try desktop.start([client + "/.build/debug/banner-client"])
        program.closeStandardInput()
        // X events served while it runs (woken by them), as a pager would.
        #expect(observer.wait(timeout: 60) { program.hasEnded })
        let status = program.waitForExit(timeout: 5)
        observer.drainEvents()
        #expect(status == 0, "the README's example ended with \(status.map(String.init) ?? "a timeout"): \(program.standardError)")
        #expect(program.standardError.isEmpty, "\(program.standardError)")
        #expect(!observer.maps.isEmpty, "the example mapped no window")
        // The window manager took the banner's space and gave it back: two changes of its work
        // area at least (each read when its event was served, so counted, not compared).
        // The window manager may still be at it when the program ends: its last change awaited.
        #expect(observer.wait(timeout: 20) { observer.workAreas() == before }, "the space was not given back: \(observer.workAreas())")
        #expect(observer.workAreaHistory.count >= 2, "the work area changed \(observer.workAreaHistory.count) times")
    }
}
