// docs/architecture.md is where a maintainer starts: it must name every target Package.swift
// has, so the page cannot drift from the package as the old pieces of it did.

import Foundation
import Testing

@Suite("The architecture page")
struct ArchitecturePageTests {
    static let packageRoot = String(#filePath.split(separator: "/", omittingEmptySubsequences: false).dropLast(3).joined(separator: "/"))

    @Test func everyTargetOfThePackageIsOnThePage() throws {
        let manifest = try String(contentsOfFile: Self.packageRoot + "/Package.swift", encoding: .utf8)
        let page = try String(contentsOfFile: Self.packageRoot + "/docs/architecture.md", encoding: .utf8)
        let declaration = try Regex(#"\.(?:target|executableTarget|testTarget|systemLibrary)\(\s*name:\s*"([^"]+)""#)
        let targets = manifest.matches(of: declaration).compactMap { $0.output[1].substring.map(String.init) }
        #expect(targets.count > 30, "found only \(targets)")
        for target in targets {
            #expect(page.contains("`\(target)`"), "docs/architecture.md does not name the target \(target)")
        }
    }

    @Test func theReadmeLinksToThePageFirst() throws {
        let readme = try String(contentsOfFile: Self.packageRoot + "/README.md", encoding: .utf8)
        let firstDocLink = try #require(readme.firstRange(of: "(docs/"))
        #expect(readme[firstDocLink.lowerBound...].hasPrefix("(docs/architecture.md"))
    }
}
