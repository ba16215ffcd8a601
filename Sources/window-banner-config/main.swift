// `window-banner-config PATH`: reads and checks one config file and prints it, merged over the
// built-in styles, as one JSON object on stdout — {"config": …} and exit 0, or {"error": …}
// (file, line, key, message) and exit 78 with the error as one line on stderr too. The owner and
// `run`/`monitor` start it instead of parsing TOML themselves (see BannerConfig's
// ConfigLoading.swift); it is also a quick check of a file being edited.

import BannerConfig
import BannerCore
import ConfigTOML
import Glibc

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One line on stderr.
func complain(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count) }
}

let arguments = CommandLine.arguments
guard arguments.count == 2, !arguments[1].hasPrefix("-") || arguments[1] == "-" else {
    complain("usage: window-banner-config PATH (prints the file's settings as JSON; exit 78 if it is broken)")
    exit(arguments.count == 2 && (arguments[1] == "--help" || arguments[1] == "-h") ? 0 : EX_USAGE)
}

let outcome: ConfigOutcome
do {
    outcome = ConfigOutcome(config: try BannerConfig.read(path: arguments[1]))
} catch {
    outcome = ConfigOutcome(error: error)
    complain("window-banner-config: \(error)")
}
let encoder = JSONEncoder()
encoder.outputFormatting = [.sortedKeys]
let json = (try? encoder.encode(outcome)).map { Array($0) } ?? Array(#"{"error":{"kind":"unreadable","message":"cannot encode the settings"}}"#.utf8)
_ = (json + [UInt8(ascii: "\n")]).withUnsafeBufferPointer { write(1, $0.baseAddress, $0.count) }
exit(outcome.error == nil ? 0 : 78)
