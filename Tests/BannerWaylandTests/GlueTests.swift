// The protocol glue in Sources/CWaylandProtocols (and the tests' in Tests/CWaylandTestProtocols)
// is generated, not written: it must be exactly
// what scripts/wayland-glue.sh makes with this machine's wayland-scanner from the XMLs Debian
// installs, so a change to either shows up here rather than as a protocol error at run time.

import Foundation
import ProcessTestSupport
import Testing

extension BannerWaylandTests {
    @Suite("Protocol glue", .needsProgram("/usr/bin/wayland-scanner", package: "libwayland-bin"))
    struct GlueTests {
        static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

        @Test func vendoredGlueIsWhatTheScannerMakes() throws {
            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("wayland-glue-\(getpid())").path
            defer { try? FileManager.default.removeItem(atPath: scratch) }
            try Subprocess.run(Self.root + "/scripts/wayland-glue.sh", ["--to", scratch])
            let generated = try FileManager.default.subpathsOfDirectory(atPath: scratch).filter { $0.hasSuffix(".c") || $0.hasSuffix(".h") }
            #expect(generated.count == 12)
            for file in generated {
                let expected = try Data(contentsOf: URL(fileURLWithPath: scratch + "/" + file))
                let actual = try? Data(contentsOf: URL(fileURLWithPath: Self.root + "/" + file))
                #expect(actual == expected, "\(file) differs from what wayland-scanner makes: run scripts/wayland-glue.sh")
            }
        }
    }
}
