// docs/architecture.md's backend face is what a new backend is written against: it names every
// requirement of the five protocols a backend implements (BannerRuntime's BannerBackend,
// LookResources, BannerBackendHost, BannerSurface and BannerCanvas), says why each is needed,
// and counts them. This holds the page to the protocols as the sources declare them.

import Foundation
import ProcessTestSupport
import Testing

@Suite("The backend face")
struct BackendFaceTests {
    static let protocols = ["BannerBackend", "LookResources", "BannerBackendHost", "BannerSurface", "BannerCanvas"]

    /// `protocol`'s requirements as its declaration in Sources/BannerRuntime lists them: a
    /// property by its name, a function by its name and argument labels (`fill(_:with:)`).
    static func requirements(of name: String) throws -> [String] {
        let root = ArchitecturePageTests.packageRoot + "/Sources/BannerRuntime"
        for file in try FileManager.default.contentsOfDirectory(atPath: root) where file.hasSuffix(".swift") {
            let text = try String(contentsOfFile: root + "/" + file, encoding: .utf8)
            guard let start = text.range(of: "public protocol \(name):") ?? text.range(of: "public protocol \(name) {") else { continue }
            let body = ArchitecturePageTests.balanced(text[start.lowerBound...].drop { $0 != "{" }.dropFirst(), open: "{", close: "}")
            var found: [String] = []
            for line in body.split(separator: "\n") {
                let code = line.trimmingCharacters(in: .whitespaces)
                if let match = code.firstMatch(of: try Regex(#"^var ([A-Za-z]+)"#)), let property = match.output[1].substring {
                    found.append(String(property))
                } else if let match = code.firstMatch(of: try Regex(#"^func ([A-Za-z]+)\(([^)]*)\)"#)),
                          let function = match.output[1].substring, let parameters = match.output[2].substring {
                    let labels = parameters.split(separator: ",").compactMap { parameter in
                        parameter.split(separator: " ").first.map { "\($0.hasSuffix(":") ? $0.dropLast() : $0):" }
                    }
                    found.append("\(function)(\(labels.joined()))")
                }
            }
            return found
        }
        throw TestFailure("no protocol \(name) in Sources/BannerRuntime")
    }

    /// The page's table: protocol → the requirements it names, and which have a default.
    static func page() throws -> (rows: [(protocol: String, requirement: String, hasDefault: Bool)], text: String) {
        let text = try String(contentsOfFile: ArchitecturePageTests.packageRoot + "/docs/architecture.md", encoding: .utf8)
        let marker = "<!-- backend face: checked by BackendFaceTests -->\n"
        guard let start = text.range(of: marker) else { throw TestFailure("docs/architecture.md has no checked backend face") }
        var rows: [(String, String, Bool)] = []
        for line in text[start.upperBound...].split(separator: "\n").prefix(while: { $0.hasPrefix("|") }) {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 3, cells[0].hasPrefix("`"), let requirement = cells[1].split(separator: "`").first else { continue }
            rows.append((cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`")), String(requirement), cells[1].contains("(default")))
        }
        return (rows, text)
    }

    @Test func thePageNamesEveryRequirementAndNoOther() throws {
        let rows = try Self.page().rows
        for name in Self.protocols {
            let declared = try Self.requirements(of: name)
            let listed = rows.filter { $0.protocol == name }.map(\.requirement)
            #expect(Set(declared) == Set(listed), "\(name) declares \(declared.sorted()); the page lists \(listed.sorted())")
            #expect(declared.count == Set(declared).count)
        }
        #expect(Set(rows.map(\.protocol)).isSubset(of: Self.protocols), "\(rows.map(\.protocol))")
    }

    @Test func thePageCountsThem() throws {
        let (rows, text) = try Self.page()
        let required = rows.filter { !$0.hasDefault }.count
        let defaulted = rows.count - required
        #expect(text.contains("**\(required) requirements** in five protocols"), "the page should count \(required) requirements")
        #expect(text.contains("\(defaulted) more with a default"), "the page should count \(defaulted) with a default")
    }

    /// The reading of a declaration, on lines as the protocols write them.
    @Test func aRequirementIsReadWithItsLabels() throws {
        let canvas = try Self.requirements(of: "BannerCanvas")
        #expect(canvas == ["fill(_:)", "fill(_:with:)", "text(_:colour:x:baseline:)", "image(_:x:y:opacity:)", "roundBottomCorners(radius:)"])
    }
}
