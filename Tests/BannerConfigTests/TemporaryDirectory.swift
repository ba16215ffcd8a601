// A fresh directory under /tmp per test, for files `BannerConfig.read(path:)` reads; written
// with Glibc like the module itself, removed by `remove()`.

import Glibc

struct TemporaryDirectory {
    let path: String
    private var created: [String] = []

    init() {
        var template = Array("/tmp/banner-config-test.XXXXXX".utf8CString)
        path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    }

    /// Writes `bytes` to `name` in the directory and returns its path.
    mutating func write(_ name: String, _ bytes: [UInt8]) -> String {
        let file = path + "/" + name
        let fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        precondition(fd >= 0, "cannot create \(file)")
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        precondition(written == bytes.count, "short write to \(file)")
        close(fd)
        created.append(file)
        return file
    }

    /// Writes `text` as UTF-8 to `name` and returns its path.
    mutating func write(_ name: String, _ text: String) -> String {
        write(name, Array(text.utf8))
    }

    /// Makes a directory `name` and returns its path.
    mutating func makeDirectory(_ name: String) -> String {
        let directory = path + "/" + name
        precondition(mkdir(directory, 0o700) == 0, "cannot create \(directory)")
        created.append(directory)
        return directory
    }

    /// Makes a FIFO `name` and returns its path.
    mutating func makeFIFO(_ name: String) -> String {
        let fifo = path + "/" + name
        precondition(mkfifo(fifo, 0o600) == 0, "cannot create \(fifo)")
        created.append(fifo)
        return fifo
    }

    func remove() {
        for entry in created.reversed() { _ = Glibc.remove(entry) }
        rmdir(path)
    }
}
