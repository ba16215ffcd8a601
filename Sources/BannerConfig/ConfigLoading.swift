// Loading a config file without parsing TOML in this process: `window-banner-config PATH`
// (beside the running binary) reads and checks the file with ConfigTOML and answers with one
// JSON `ConfigOutcome` on stdout. The owner and the drawing commands stay free of toml++,
// Foundation and the C++ runtime — about 3.5 MiB less resident and 1.5 ms less start-up — and
// a parser that crashes on a hostile file takes only the helper down. With no file there is
// nothing to parse and no helper is started.

import Glibc
import Spawning

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension BannerConfig {
    /// The config reader's file name, looked up beside the running binary.
    package static let readerName = "window-banner-config"

    /// The largest answer read: a 1 MiB file cannot describe more.
    static let maximumReaderOutput = 8 << 20

    /// The config in the file at `path` merged over `builtIn`; `builtIn` itself when there is
    /// no such file, since having none is the normal case. A file that exists but cannot be
    /// read (permissions, a directory, over `maximumFileSize`, not UTF-8) or parsed is an error
    /// naming the file and, where it can, the line.
    package static func load(path: String) throws(ConfigError) -> BannerConfig {
        var status = stat()
        if lstat(path, &status) != 0, errno == ENOENT { return builtIn }
        let outcome = try runReader(path: path)
        if let error = outcome.error { throw error }
        guard let config = outcome.config else {
            throw ConfigError(kind: .unreadable, file: path, message: "the config reader gave no answer")
        }
        return config
    }

    /// Runs `window-banner-config path` and decodes its answer.
    private static func runReader(path: String) throws(ConfigError) -> ConfigOutcome {
        func failure(_ message: String) -> ConfigError { ConfigError(kind: .unreadable, file: path, message: message) }
        let reader = programBeside(named: readerName)
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw failure("cannot create a pipe: \(errorText())") }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        defer { close(ends[0]) }

        // Its answer on the pipe, its errors where ours go.
        let spawned = ChildSpec([reader, path], descriptors: [.null, .descriptor(ends[1]), .inherited]).start()
        close(ends[1])
        let pid: pid_t
        switch spawned {
        case .success(let started): pid = started
        case .failure(let error): throw failure("cannot start \(reader): \(error)")
        }

        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while output.count <= maximumReaderOutput {
            let count = read(ends[0], &chunk, chunk.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            output += chunk[0..<count]
        }
        // A process that ignores SIGCHLD (the owner) has its children reaped for it: then
        // waitpid fails with ECHILD and the answer alone decides.
        var exit: Int32 = 0
        while waitpid(pid, &exit, 0) < 0, errno == EINTR {}
        do {
            return try JSONDecoder().decode(ConfigOutcome.self, from: Data(output))
        } catch {
            let how = exit & 0x7F != 0 ? "was killed by signal \(exit & 0x7F)" : "gave an unreadable answer"
            throw failure("the config reader (\(reader)) \(how)")
        }
    }
}
