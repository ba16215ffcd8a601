// The font fontconfig matched for each request, remembered across processes, so that a new owner
// draws its first banner without waiting for fontconfig's start-up (reading every config file
// and font cache: about 5 ms, the longest step before a session's first banner). The next
// owner opens the remembered file at once; fontconfig starts beside it, and once it has, its own
// answer is compared with what was drawn (FontLibrary.checkRemembered): a different answer
// replaces the memory and the banners are laid out again in the right font.
//
// One file per request under $XDG_CACHE_HOME/window-banner/fonts (else ~/.cache/…): the
// request as fontconfig writes it, after the fingerprint of everything else fontconfig's answer
// depends on (its version, its environment, the stamps of its config files, font directories
// and caches), then the matched pattern and the stamp of its font file. A file that does not
// hold exactly that for this request — another request, a changed fingerprint, a font file
// changed since, anything unreadable or over 64 KiB — is no memory.

import CText
import Glibc

enum RememberedMatches {
    /// Where the memory lives; nil: nowhere (no home, no cache directory).
    static let directory: String? = {
        let base: String
        if let cache = getenv("XDG_CACHE_HOME"), cache.pointee == UInt8(ascii: "/") {
            base = String(cString: cache)
        } else if let home = getenv("HOME"), home.pointee == UInt8(ascii: "/") {
            base = String(cString: home) + "/.cache"
        } else {
            return nil
        }
        return base + "/window-banner/fonts"
    }()

    /// Whether an earlier process remembered anything at all.
    static var hasMemory: Bool {
        guard let directory else { return false }
        return access(directory, F_OK) == 0
    }

    /// Requests are spread over this many files: the memory never grows beyond them.
    static let slots: UInt64 = 64
    /// A larger file is no memory.
    static let maximumSize = 65_536
    private static let magic = "window-banner remembered font 1"

    /// Everything besides the request that fontconfig's answer depends on: its version, the
    /// environment it reads, and the stamps (size, change time) of its configuration, font
    /// directories and caches. Read once per process.
    static let fingerprint: String = {
        func variable(_ name: String) -> String { getenv(name).map { String(cString: $0) } ?? "" }
        let home = variable("HOME")
        let configHome = variable("XDG_CONFIG_HOME").isEmpty ? home + "/.config" : variable("XDG_CONFIG_HOME")
        let dataHome = variable("XDG_DATA_HOME").isEmpty ? home + "/.local/share" : variable("XDG_DATA_HOME")
        let cacheHome = variable("XDG_CACHE_HOME").isEmpty ? home + "/.cache" : variable("XDG_CACHE_HOME")
        let configFile = variable("FONTCONFIG_FILE").isEmpty ? "/etc/fonts/fonts.conf" : variable("FONTCONFIG_FILE")
        let paths = [
            configFile, "/etc/fonts/conf.d", "/etc/fonts/fonts.conf",
            configHome + "/fontconfig", configHome + "/fontconfig/fonts.conf", configHome + "/fontconfig/conf.d",
            home + "/.fonts.conf", home + "/.fonts.conf.d", home + "/.fonts",
            dataHome + "/fonts", "/usr/share/fonts", "/usr/local/share/fonts",
            "/var/cache/fontconfig", cacheHome + "/fontconfig",
        ]
        let environment = ["FONTCONFIG_FILE", "FONTCONFIG_PATH", "FONTCONFIG_SYSROOT", "FC_LANG", "LC_ALL", "LC_CTYPE", "LANG", "HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"]
        return (["fontconfig \(FcGetVersion())"]
            + environment.map { "\($0)=\(variable($0))" }
            + paths.map { "\($0) \(stamp($0) ?? "-")" }).joined(separator: "\n")
    }()

    /// A file's size and change time, or nil when it cannot be read.
    static func stamp(_ path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return "\(status.st_size) \(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec) \(status.st_ctim.tv_sec).\(status.st_ctim.tv_nsec) \(status.st_ino)"
    }

    /// The file a request's memory is kept in.
    static func path(for request: String) -> String? {
        guard let directory else { return nil }
        // FNV-1a, 64 bits: stable across runs and versions, unlike Hasher.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in request.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return directory + "/slot-\(hash % slots)"
    }

    /// The matched pattern remembered for `request` (as `FcNameUnparse` wrote it), if it still
    /// holds: same fingerprint, and its font file unchanged.
    static func recall(_ request: String) -> String? {
        guard let (matched, pattern) = recallPattern(request) else { return nil }
        FcPatternDestroy(pattern)
        return matched
    }

    /// The same, and the pattern read back (the caller's to destroy).
    static func recallPattern(_ request: String) -> (String, OpaquePointer)? {
        guard let path = path(for: request), let text = contents(of: path) else { return nil }
        let parts = text.split(separator: "\u{0}", omittingEmptySubsequences: false)
        guard parts.count == 5, parts[0] == magic, parts[1] == fingerprint, parts[2] == request else { return nil }
        let matched = String(parts[3])
        guard let pattern = FcNameParse(matched) else { return nil }
        guard let file = fontFile(of: pattern), stamp(file) == String(parts[4]) else {
            FcPatternDestroy(pattern)
            return nil
        }
        return (matched, pattern)
    }

    /// Remembers `matched` (as `FcNameUnparse` wrote it) for `request`; nothing when it cannot.
    static func remember(_ matched: String, for request: String) {
        guard let directory, let path = path(for: request), let file = fontFile(of: matched), let fileStamp = stamp(file) else { return }
        let text = [magic, fingerprint, request, matched, fileStamp].joined(separator: "\u{0}")
        guard text.utf8.count <= maximumSize, makeDirectories(directory) else { return }
        let temporary = path + ".\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        if written == bytes.count, rename(temporary, path) == 0 { return }
        unlink(temporary)
    }

    /// Forgets what was remembered for `request` (fontconfig's answer cannot be kept).
    static func forget(_ request: String) {
        guard let path = path(for: request) else { return }
        unlink(path)
    }

    /// The font file a remembered pattern names.
    static func fontFile(of matched: String) -> String? {
        guard let pattern = FcNameParse(matched) else { return nil }
        defer { FcPatternDestroy(pattern) }
        return fontFile(of: pattern)
    }

    static func fontFile(of pattern: OpaquePointer) -> String? {
        var file: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(pattern, wb_FC_FILE(), 0, &file) == FcResultMatch, let file else { return nil }
        return String(cString: file)
    }

    /// A file's text, if it is no larger than `maximumSize`.
    private static func contents(of path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: maximumSize + 1)
        var count = 0
        while count < bytes.count {
            let got = bytes.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return -1 }
                return read(fd, base + count, buffer.count - count)
            }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { break }
            count += got
        }
        guard count <= maximumSize else { return nil }
        return String(validating: bytes[..<count], as: UTF8.self)
    }

    private static func makeDirectories(_ path: String) -> Bool {
        var built = ""
        for part in path.split(separator: "/") {
            built += "/" + part
            if mkdir(built, 0o700) != 0, errno != EEXIST { return false }
        }
        return true
    }
}
