// The floors of docs/architecture.md are the dependency order, held to the import lines: a module
// imports only from floors below its own, and a short list of imports is never allowed,
// followed through to everything a module links. The checks run on the package as it is, and
// on the test's own cases, which show that each kind of forbidden import is caught.

import Foundation
import ProcessTestSupport
import Testing

@Suite("The floors")
struct LayerTests {
    /// What must never be reached, module by module (the page states each with its reason).
    static let never: [String: Set<String>] = {
        let backends: Set<String> = ["BannerX11", "BannerWayland", "BannerGnomeShell", "BannerPixman"]
        let cModules: Set<String> = [
            "CCurl", "CGSettings", "CGettext", "CMalloc", "CNetlink", "CPNG", "CPipeWire", "CPixman", "CSDBus", "CSpawn", "CText",
            "CTomlPlusPlus", "CWayland", "CWaylandProtocols", "CX11",
        ]
        return [
            "BannerOwner": backends.union(["ArgumentParser"]),
            "BannerMonitor": backends.union(["ArgumentParser"]),
            "BannerCore": backends.union(["BannerRuntime"]).union(cModules),
            "OwnerIPC": ["ArgumentParser"],
        ]
    }()

    /// The floors as the page has them: module → floor.
    static func pageFloors() throws -> [String: Int] {
        let page = try String(contentsOfFile: ArchitecturePageTests.packageRoot + "/docs/architecture.md", encoding: .utf8)
        let marker = "<!-- floors: checked by LayerTests -->\n"
        let start = try #require(page.range(of: marker), "docs/architecture.md has no checked table of floors")
        var floors: [String: Int] = [:]
        for line in page[start.upperBound...].split(separator: "\n").prefix(while: { $0.hasPrefix("|") }) {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 3, let floor = Int(cells[0]) else { continue }
            for match in cells[2].matches(of: try Regex(#"`([A-Za-z0-9_-]+)`"#)) {
                if let name = match.output[1].substring { floors[String(name)] = floor }
            }
        }
        return floors
    }

    /// Each module of the package that is not test support, and the modules it imports.
    static func packageImports() throws -> [String: Set<String>] {
        let targets = try ArchitecturePageTests.targets()
        let modules = Set(targets.map(\.name)).union(["ArgumentParser"])
        var imports: [String: Set<String>] = ["ArgumentParser": []]
        for target in targets where target.kind != "testTarget" && !target.path.hasPrefix("Tests/") {
            imports[target.name] = ArchitecturePageTests.isSwift(target) ? try ArchitecturePageTests.imports(under: target.path, of: modules) : []
        }
        return imports
    }

    /// What is wrong with `imports` on `floors` under `never`, one line each; empty when nothing is.
    static func problems(imports: [String: Set<String>], floors: [String: Int], never: [String: Set<String>]) -> [String] {
        var found: [String] = []
        for module in imports.keys.sorted() {
            guard let floor = floors[module] else {
                found.append("\(module) is on no floor")
                continue
            }
            for imported in (imports[module] ?? []).sorted() {
                guard let below = floors[imported] else { continue }
                if below >= floor { found.append("\(module) (floor \(floor)) imports \(imported) (floor \(below))") }
            }
        }
        for (module, forbidden) in never.sorted(by: { $0.key < $1.key }) {
            let reached = reachable(from: module, in: imports)
            for name in reached.intersection(forbidden).sorted() { found.append("\(module) reaches \(name), which it never may") }
        }
        return found
    }

    /// Every module `module` links: its imports, theirs, and so on.
    static func reachable(from module: String, in imports: [String: Set<String>]) -> Set<String> {
        var seen: Set<String> = []
        var next = Array(imports[module] ?? [])
        while let name = next.popLast() {
            guard seen.insert(name).inserted else { continue }
            next += imports[name] ?? []
        }
        return seen
    }

    @Test func everyImportPointsToALowerFloorAndNoneIsForbidden() throws {
        let floors = try Self.pageFloors()
        let imports = try Self.packageImports()
        #expect(floors.count > 40, "found only \(floors.keys.sorted())")
        #expect(Self.problems(imports: imports, floors: floors, never: Self.never) == [])
        let stale = Set(floors.keys).subtracting(imports.keys)
        #expect(stale.isEmpty, "docs/architecture.md puts modules the package does not have on its floors: \(stale.sorted())")
    }

    @Test func thePageStatesEachRuleThatIsNeverAllowed() throws {
        let page = try String(contentsOfFile: ArchitecturePageTests.packageRoot + "/docs/architecture.md", encoding: .utf8)
        let marker = "<!-- never: checked by LayerTests -->\n"
        let start = try #require(page.range(of: marker), "docs/architecture.md has no checked list of what is never allowed")
        let rules = page[start.upperBound...].split(separator: "\n").prefix { $0.hasPrefix("- ") }
        for (module, forbidden) in Self.never {
            let rule = try #require(rules.first { $0.hasPrefix("- `\(module)` never reaches") }, "the page states no rule for \(module)")
            for name in forbidden where !name.hasPrefix("C") {
                #expect(rule.contains("`\(name)`") || (name.hasPrefix("Banner") && rule.contains("a backend") && name != "BannerRuntime"),
                        "the page's rule for \(module) does not name \(name)")
            }
        }
        #expect(rules.count == Self.never.count, "the page states \(rules.count) rules; the test holds \(Self.never.count)")
    }

    /// Each kind of forbidden import is caught, on the package's real graph with one import added.
    @Test(arguments: [
        ("BannerOwner", "BannerX11", "BannerOwner reaches BannerX11, which it never may"),
        ("BannerProcess", "BannerOwner", "BannerProcess (floor 4) imports BannerOwner (floor 5)"),
        ("BannerOwner", "ShowArguments", "BannerOwner reaches ArgumentParser, which it never may"),
        ("BannerOwner", "WindowBannerClient", "BannerOwner (floor 5) imports WindowBannerClient (floor 5)"),
        ("BannerCore", "CText", "BannerCore reaches CText, which it never may"),
        ("BannerCore", "BannerRuntime", "BannerCore (floor 1) imports BannerRuntime (floor 2)"),
        ("OwnerIPC", "ArgumentParser", "OwnerIPC reaches ArgumentParser, which it never may"),
        ("BannerMonitor", "BannerWayland", "BannerMonitor reaches BannerWayland, which it never may"),
        ("Reactor", "BannerCore", "Reactor (floor 1) imports BannerCore (floor 1)"),
    ])
    func aForbiddenImportIsCaught(module: String, adds imported: String, problem: String) throws {
        let floors = try Self.pageFloors()
        var imports = try Self.packageImports()
        #expect(Self.problems(imports: imports, floors: floors, never: Self.never) == [])
        imports[module, default: []].insert(imported)
        #expect(Self.problems(imports: imports, floors: floors, never: Self.never).contains(problem),
                "\(Self.problems(imports: imports, floors: floors, never: Self.never))")
    }

    @Test func aModuleOnNoFloorIsCaught() throws {
        var imports = try Self.packageImports()
        imports["BannerNew"] = ["BannerCore"]
        #expect(Self.problems(imports: imports, floors: try Self.pageFloors(), never: Self.never) == ["BannerNew is on no floor"])
    }
}
