// Where the owner's state lies on disk and how a state file is read: bounded, and never trusted
// to be what this program wrote. The owner keeps its state in these files (BannerOwner's
// OwnerState); `stats` reads the stats file itself when no owner runs, and the session's
// notices keep their own beside them.

import BannerCore
import Glibc
import OwnerProtocol

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

package enum OwnerStateFiles {
    /// A state file larger than this is not read but kept aside (the bounded contents take a
    /// few MiB at most, even with every key at its longest).
    package static let maximumFileSize = 16 << 20

    /// The state directory for this environment, created if needed; nil when there is no home.
    package static func defaultDirectory(environment: [String: String]) -> String? {
        let base: String
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            base = state
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            base = home + "/.local/state"
        } else {
            return nil
        }
        var path = ""
        for part in (base + "/window-banner").split(separator: "/") {
            path += "/" + part
            mkdir(path, 0o700)
        }
        return path
    }

    /// The stats file of `directory` without an owner (for `stats` when none runs), or why it
    /// cannot be read (it is left where it is: the next owner keeps it aside).
    package static func stats(in directory: String) -> Result<BannerStats, Problem> {
        load(BannerStats.self, from: directory + "/stats.json").map { $0 ?? BannerStats() }
    }

    /// Why a state file was not read.
    package struct Problem: Error, CustomStringConvertible {
        package var description: String

        package init(description: String) { self.description = description }
    }

    /// The file at `path` decoded as `type`; nil when there is none.
    package static func load<Value: Decodable>(_ type: Value.Type, from path: String) -> Result<Value?, Problem> {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            return errno == ENOENT ? .success(nil) : .failure(Problem(description: String(cString: strerror(errno))))
        }
        defer { close(fd) }
        let tooLarge = Problem(description: "larger than \(maximumFileSize >> 20) MiB")
        var info = stat()
        if fstat(fd, &info) == 0, info.st_size > maximumFileSize { return .failure(tooLarge) }
        // The size is checked again while reading: the file may grow meanwhile.
        let bytes: [UInt8]
        do throws(SmallFile.ReadError) {
            bytes = try SmallFile.read(fd, limit: maximumFileSize)
        } catch {
            switch error {
            case .tooLarge: return .failure(tooLarge)
            case .failed(let why): return .failure(Problem(description: why))
            }
        }
        do {
            return .success(try JSONDecoder().decode(type, from: Data(bytes)))
        } catch {
            return .failure(Problem(description: "not a window-banner state file"))
        }
    }
}
