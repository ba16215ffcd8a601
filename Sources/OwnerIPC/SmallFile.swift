// Small files written whole and read with a bound: the owner's state (OwnerState), and the
// broadcast spool with what each session says of it (BannerMonitor's BroadcastSpool). A write
// goes to a hidden temporary file beside the target, is synced and renamed over it, then the
// directory is synced: a crash leaves the old file or the new one, never half of either. A read
// stops at its limit, whatever the file grew to meanwhile.

import Glibc

package enum SmallFile {
    /// A file that could not be written: one line.
    package struct WriteError: Error, CustomStringConvertible {
        package let description: String
        package init(_ description: String) { self.description = description }
    }

    /// A file that could not be read.
    package enum ReadError: Error, Equatable {
        /// Larger than the limit.
        case tooLarge
        /// read(2) failed: strerror's text.
        case failed(String)
    }

    /// Writes `bytes` to `path` (mode `mode`), replacing it atomically.
    package static func write(_ bytes: [UInt8], to path: String, mode: mode_t) throws(WriteError) {
        let slash = path.lastIndex(of: "/") ?? path.startIndex
        let directory = String(path[..<slash])
        let temporary = directory + "/." + path[path.index(after: slash)...] + ".\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, mode)
        guard fd >= 0 else { throw WriteError("cannot write \(temporary): \(String(cString: strerror(errno)))") }
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else {
                let why = String(cString: strerror(errno))
                close(fd)
                unlink(temporary)
                throw WriteError("cannot write \(temporary): \(why)")
            }
            offset += written
        }
        _ = fchmod(fd, mode)
        let synced = fsync(fd) == 0
        close(fd)
        guard synced, rename(temporary, path) == 0 else {
            let why = String(cString: strerror(errno))
            unlink(temporary)
            throw WriteError("cannot write \(path): \(why)")
        }
        let directoryFD = open(directory.isEmpty ? "/" : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryFD >= 0 {
            fsync(directoryFD)
            close(directoryFD)
        }
    }

    /// Everything `fd` holds, at most `limit` bytes.
    package static func read(_ fd: Int32, limit: Int) throws(ReadError) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = Glibc.read(fd, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw .failed(String(cString: strerror(errno))) }
            guard count > 0 else { return bytes }
            bytes += buffer[0..<count]
            guard bytes.count <= limit else { throw .tooLarge }
        }
    }
}
