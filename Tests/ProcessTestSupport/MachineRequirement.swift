// What a test needs of the machine — root, a program from a package — as a trait, in place of
// `.enabled(if:)`: where it is missing, the test is skipped on a developer's machine but fails
// under `CI=true`, so a CI run can never go green by not running a test.

// ProcessTestSupport is a plain target, so `swift build -c release` (make install, make deb)
// compiles it too, where the Testing module is not there to import: the trait exists only
// where Testing does, which is wherever tests are built.
#if canImport(Testing)
import Glibc
import Testing

/// A condition a test (or a whole suite) needs of the machine it runs on.
public struct MachineRequirement: TestTrait, SuiteTrait {
    /// Whether the machine meets it.
    public let isMet: Bool
    /// What is missing, in a sentence, and how to get it.
    public let need: String

    /// Every test of a suite checks it, so each one is reported on its own.
    public var isRecursive: Bool { true }

    /// True under `CI=true` (how CI services and `.ci/run` say so).
    public static var isContinuousIntegration: Bool {
        getenv("CI").map { String(cString: $0) } == "true"
    }

    /// Lets the test run where the requirement is met; else skips it, or fails it under `CI=true`.
    public func prepare(for test: Test) async throws {
        guard !isMet else { return }
        if Self.isContinuousIntegration {
            // A suite's tests each fail on their own, one line each.
            guard !test.isSuite else { return }
            throw Unmet(description: "cannot run: \(need) (CI=true: a test that cannot run fails)")
        }
        try await ConditionTrait.disabled(Comment(rawValue: need)).prepare(for: test)
    }

    /// The error that fails a test whose requirement is not met under `CI=true`.
    struct Unmet: Error, CustomStringConvertible {
        let description: String
    }
}

extension Trait where Self == MachineRequirement {
    /// Runs only as root (user id 0); `why` names what needs it.
    public static func needsRoot(_ why: String) -> Self {
        MachineRequirement(isMet: geteuid() == 0, need: "\(why) needs root (CI runs `make test` as root)")
    }

    /// Runs only where `path` is an executable (scripts/install-deps.sh installs `package`).
    public static func needsProgram(_ path: String, package: String) -> Self {
        MachineRequirement(isMet: access(path, X_OK) == 0,
                           need: "\(path) is not installed (scripts/install-deps.sh installs the \(package) package)")
    }

    /// Runs only where one of `paths` is a readable file (scripts/install-deps.sh installs `package`).
    public static func needsFile(_ paths: [String], package: String) -> Self {
        MachineRequirement(isMet: paths.contains { access($0, R_OK) == 0 },
                           need: "\(paths[0]) is not installed (scripts/install-deps.sh installs the \(package) package)")
    }
}
#endif
