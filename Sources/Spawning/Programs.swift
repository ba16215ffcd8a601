// Where this program and the ones installed beside it are: the binaries always travel together,
// so each runs the others of its own version.

import Glibc

/// The text of the last error (strerror(errno)).
package func errorText() -> String { String(cString: strerror(errno)) }

/// This program's own path (/proc/self/exe, symlinks resolved), or argv[0] when that cannot
/// be read.
package func selfExecutable() -> String {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard count > 0 else { return CommandLine.arguments[0] }
    return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// The program `name` in this program's directory: the binaries always travel together, so
/// each runs the others of its own version.
package func programBeside(named name: String) -> String {
    let own = selfExecutable()
    return own.hasSuffix("/" + name) ? own : directory(of: own) + "/" + name
}

/// The directory part of `path` ("/" for a file at the root, "." for a bare name).
package func directory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
}
