// Loading a config file without parsing TOML in this process: `window-banner-config PATH`
// (next to the running binary) reads and checks the file with ConfigTOML and answers with one
// JSON `ConfigOutcome` on stdout. The owner and the drawing commands stay free of TOMLKit,
// Foundation and the C++ runtime — about 3.5 MiB less resident and 1.5 ms less start-up — and
// a parser that crashes on a hostile file takes only the helper down. With no file there is
// nothing to parse and no helper is started.

import Glibc

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What `window-banner-config` answers: the config, or why the file cannot be used.
public struct ConfigOutcome: Codable, Sendable, Equatable {
    /// The file's settings merged over the built-in ones; nil when the file cannot be used.
    public var config: BannerConfig?
    /// Why the file cannot be used (file, line, key, message); nil when it can.
    public var error: ConfigError?

    /// A file that could be used.
    public init(config: BannerConfig) {
        self.config = config
        error = nil
    }

    /// A file that could not.
    public init(error: ConfigError) {
        config = nil
        self.error = error
    }
}

extension BannerConfig {
    /// The helper's file name; it is looked up in the running binary's directory.
    public static let helperName = "window-banner-config"

    /// The config in the file at `path` merged over `builtIn`; `builtIn` itself when there is
    /// no such file, since having none is the normal case. A file that exists but cannot be
    /// read (permissions, a directory, over `maximumFileSize`, not UTF-8) or parsed is an error
    /// naming the file and, where it can, the line.
    public static func load(path: String) throws(ConfigError) -> BannerConfig {
        var status = stat()
        if lstat(path, &status) != 0, errno == ENOENT { return builtIn }
        let outcome = try ConfigHelper.run(path: path)
        if let error = outcome.error { throw error }
        guard let config = outcome.config else {
            throw ConfigError(kind: .unreadable, file: path, message: "the config reader gave no answer")
        }
        return config
    }
}

/// Runs `window-banner-config` on one file and decodes its answer.
enum ConfigHelper {
    /// The largest answer read: a 1 MiB file cannot describe more.
    static let maximumOutput = 8 << 20

    static func run(path: String) throws(ConfigError) -> ConfigOutcome {
        let helper = directory(of: executablePath()) + "/" + BannerConfig.helperName
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw failure(path, "cannot create a pipe: \(systemMessage(errno))") }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        defer { close(ends[0]) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
        let arguments = [helper, path]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, helper, &actions, nil, &argv, environ)
        close(ends[1])
        guard spawned == 0 else { throw failure(path, "cannot start \(helper): \(systemMessage(spawned))") }

        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while output.count <= maximumOutput {
            let count = read(ends[0], &chunk, chunk.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            output += chunk[0..<count]
        }
        // A process that ignores SIGCHLD (the owner) has its children reaped for it: then
        // waitpid fails with ECHILD and the answer alone decides.
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        do {
            return try JSONDecoder().decode(ConfigOutcome.self, from: Data(output))
        } catch {
            let how = status & 0x7F != 0 ? "was killed by signal \(status & 0x7F)" : "gave an unreadable answer"
            throw failure(path, "the config reader (\(helper)) \(how)")
        }
    }

    private static func failure(_ path: String, _ message: String) -> ConfigError {
        ConfigError(kind: .unreadable, file: path, message: message)
    }

    private static func systemMessage(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// This process's binary (/proc/self/exe), or argv[0] when that cannot be read.
    private static func executablePath() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return CommandLine.arguments.first ?? "." }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
