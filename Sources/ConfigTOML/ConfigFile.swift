// Reading the config file's bytes: the only system calls in this module, straight to Glibc
// so that reading a small file costs no Foundation.

import BannerConfig
import Glibc

/// The config file as bytes, and the bytes as text.
enum ConfigFile {
    /// The whole file at `path`, or nil when there is none (ENOENT). Wraps open(2) with
    /// O_NONBLOCK, so a FIFO at the path is refused by fstat(2) instead of blocking, then read(2).
    static func read(path: String) throws(ConfigError) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        if fd < 0 {
            let code = errno
            if code == ENOENT { return nil }
            throw unreadable(path, systemMessage(code))
        }
        defer { close(fd) }

        var status = stat()
        guard fstat(fd, &status) == 0 else { throw unreadable(path, systemMessage(errno)) }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw unreadable(path, "is a directory")
        default: throw unreadable(path, "not a regular file")
        }
        let limit = BannerConfig.maximumFileSize
        let tooBig = unreadable(path, "larger than \(limit >> 20) MiB; not a config file")
        if status.st_size > limit { throw tooBig }

        // The size from fstat is only a hint: the file may grow while it is read.
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count == 0 { return bytes }
            if count < 0 {
                if errno == EINTR { continue }
                throw unreadable(path, systemMessage(errno))
            }
            bytes += chunk[..<count]
            if bytes.count > limit { throw tooBig }
        }
    }

    /// `bytes` as a String; invalid UTF-8 is an error at its line and byte column, because
    /// the TOML parser would otherwise see a repaired file the user never wrote.
    static func decodeUTF8(_ bytes: [UInt8], file: String) throws(ConfigError) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        var parser = Unicode.UTF8.ForwardParser()
        var input = bytes.makeIterator()
        var offset = 0
        while case .valid(let scalar) = parser.parseScalar(from: &input) { offset += scalar.count }
        let before = bytes[..<offset]
        let line = before.count(where: { $0 == UInt8(ascii: "\n") }) + 1
        let column = offset - (before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0) + 1
        throw ConfigError(kind: .syntax, file: file, line: line, column: column, message: "not valid UTF-8")
    }

    private static func unreadable(_ path: String, _ reason: String) -> ConfigError {
        ConfigError(kind: .unreadable, file: path, message: "cannot read: \(reason)")
    }

    /// strerror(3)'s text for `code`, e.g. "Permission denied".
    private static func systemMessage(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
