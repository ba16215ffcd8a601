// Properties from PipeWire are written by any client: hostile values (huge, not UTF-8, control
// and formatting characters, numbers out of range, keys repeated) go through the C shim's
// reading and the rule's naming as PipeWire would deliver them, 3000 seeded cases, and
// must come out bounded: texts within the shim's 127 bytes (whole characters, a byte that is no
// UTF-8 one replacement character), a name the banner shows within 32 characters with nothing
// invisible in it, never a negative pid, never a crash.

import Glibc
import PipeWireCalls
import ProcessTestSupport
import Testing

@Suite("PipeWire: hostile properties are bounded")
struct PropertyFuzzTests {
    static let keys = [
        "media.class", "application.name", "application.process.binary", "pipewire.access.portal.app_id", "media.name", "node.name",
        "pipewire.sec.pid", "application.process.id", "client.id", "stream.monitor", "node.passive", "node.virtual",
    ]

    /// A value as a hostile client might set it.
    static func value(_ random: inout SplitMix64) -> [UInt8]? {
        switch random.next() % 9 {
        case 0: return nil
        case 1: return []
        case 2: return Array(String(Int64(bitPattern: random.next())).utf8) // numbers, negative and huge
        case 3: return Array(["true", "1", "false", "yes", "Stream/Input/Audio", "Audio/Source", "Video/Source"][Int(random.next() % 7)].utf8)
        case 4: // long text made of valid multi-byte characters, cut anywhere by the shim
            return Array(String(repeating: "Zoom \u{1F4DE} Ünïcödé ", count: Int(random.next() % 40)).utf8)
        case 5: // control and formatting characters
            return (0..<Int(random.next() % 300)).map { _ in [0x07, 0x1B, 0x0A, 0x09, 0x7F, 0x41][Int(random.next() % 6)] }
                + Array("\u{202E}\u{200B}\u{FEFF}app".utf8)
        default: // any bytes at all, now and then 64 KiB of them
            let bytes = (0..<Int(random.next() % 256)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            return random.next() % 8 == 0 ? Array(repeating: bytes, count: 256).flatMap { $0 } : bytes
        }
    }

    @Test func thousandsOfHostilePropertySetsComeOutBounded() {
        var random = SplitMix64(seed: 32)
        for _ in 0..<3000 {
            let properties = (0..<Int(random.next() % 16)).map { _ in
                (key: Self.keys[Int(random.next() % UInt64(Self.keys.count))], value: Self.value(&random))
            }
            let node = PipeWireWatch.node(describedBy: properties)
            for text in [node.mediaClass, node.applicationName, node.binary, node.appID, node.mediaName, node.nodeName] {
                // 127 bytes as read; a byte that is no UTF-8 becomes one U+FFFD.
                #expect(text.unicodeScalars.count <= 127)
            }
            #expect(node.pid >= 0)
            let name = CallRule.displayName(of: node)
            #expect(name.count <= CallRule.longestName)
            #expect(!name.unicodeScalars.contains { [.control, .format].contains($0.properties.generalCategory) })
            #expect(name == name.trimmingCharacters(in: .whitespaces))
        }
    }

    @Test func aLongNameIsCutAtACharacterNotInsideOne() {
        let long = String(repeating: "é", count: 100) // two bytes each: 127 falls inside one
        let node = PipeWireWatch.node(describedBy: [("application.name", Array(long.utf8))])
        #expect(node.applicationName == String(repeating: "é", count: 63))
        #expect(CallRule.displayName(of: node) == String(repeating: "é", count: 31) + "…")
    }

    @Test func numbersOutOfRangeAreNoPid() {
        for text in ["-5", "4294967296", "2147483648", "12abc", "", " 7"] {
            #expect(PipeWireWatch.node(describedBy: [("application.process.id", Array(text.utf8))]).pid == 0, "\(text)")
        }
        #expect(PipeWireWatch.node(describedBy: [("pipewire.sec.pid", Array("4242".utf8)), ("application.process.id", Array("7".utf8))]).pid == 4242)
    }
}
