// Icons from disk: an icon theme name becomes a PNG file (the freedesktop icon theme lookup
// over the directories an IconSearchPath lists), and a PNG file becomes premultiplied pixels
// (libpng's simplified API). Every file-system call for icons is made here; what a value
// means, which of a theme's sizes fits and how pixels are scaled is BannerCore's
// (BannerIcon.swift). Start reading at `IconLibrary.resolve`.

import BannerCore
import CPNG
import Glibc

/// Where icon theme names are looked up: the freedesktop icon theme directories, then
/// directories of unthemed `NAME.png` files.
public struct IconSearchPath: Sendable, Hashable {
    /// Directories holding icon themes (each an `icons` directory with `hicolor/`, `Adwaita/`
    /// …), searched in order for every theme of ``IconThemeRule/themes``.
    public var themeDirectories: [String]
    /// Directories of plain `NAME.png` files, searched in order after the themes (a program's
    /// own icons, then the data directories' `pixmaps`).
    public var plainDirectories: [String]

    public init(themeDirectories: [String], plainDirectories: [String] = []) {
        self.themeDirectories = themeDirectories
        self.plainDirectories = plainDirectories
    }

    /// The XDG base data directories of `environment`: see ``XDGBaseDirectories/data(environment:)``.
    public static func dataDirectories(environment: [String: String]) -> [String] {
        XDGBaseDirectories.data(environment: environment)
    }

    /// The freedesktop search path: `~/.icons`, then `icons/` in each of `dataDirectories`
    /// for the themes; `ownDirectories` (a program's shipped icons) and `pixmaps/` in each data
    /// directory after them.
    public static func standard(dataDirectories: [String], home: String?, ownDirectories: [String] = []) -> IconSearchPath {
        let homeIcons = home.flatMap { $0.hasPrefix("/") ? [joined($0, ".icons")] : nil } ?? []
        return IconSearchPath(
            themeDirectories: homeIcons + dataDirectories.map { joined($0, "icons") },
            plainDirectories: ownDirectories + dataDirectories.map { joined($0, "pixmaps") })
    }

    /// ``standard(dataDirectories:home:ownDirectories:)`` for the variables in `environment`.
    public static func standard(environment: [String: String], ownDirectories: [String] = []) -> IconSearchPath {
        standard(dataDirectories: dataDirectories(environment: environment), home: environment["HOME"], ownDirectories: ownDirectories)
    }

    /// This process's search path (`XDG_DATA_HOME`, `XDG_DATA_DIRS`, `HOME`).
    public static var processDefault: IconSearchPath {
        var environment: [String: String] = [:]
        for name in ["XDG_DATA_HOME", "XDG_DATA_DIRS", "HOME"] {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        return standard(environment: environment)
    }

    static func joined(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}

/// Why an icon cannot be shown. The banner shows without it: callers print this as a warning.
public enum IconProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// No `NAME.png` in the themes or the plain directories.
    case notFound(String)
    /// The theme has the name only as an SVG (at `path`), which is not read.
    case onlySVG(String, path: String)
    /// The file cannot be opened or is not a usable PNG.
    case unreadable(path: String, reason: String)

    public var description: String {
        switch self {
        case .notFound(let name):
            "icon '\(name.printable)' not found (no \(name.printable).png in the \(IconThemeRule.themes.joined(separator: " or ")) icon theme)"
        case .onlySVG(let name, let path):
            "icon '\(name.printable)' is only an SVG (\(path.printable)), and SVG icons are not supported: give a PNG"
        case .unreadable(let path, let reason):
            "cannot read icon '\(path.printable)': \(reason)"
        }
    }
}

/// Finds icons and keeps the last few decoded, so a banner shown again does not read its file
/// again (a changed file is read anew).
final class IconLibrary {
    /// The search path for names when the caller gives none.
    var searchPath: IconSearchPath
    private var decoded: [String: (stamp: FileStamp, bitmap: IconBitmap)] = [:]
    private static let cacheSize = 8

    init(searchPath: IconSearchPath) {
        self.searchPath = searchPath
    }

    /// The PNG file `icon` stands for, as an absolute path, checked by decoding it: a theme
    /// name in the size that suits an icon drawn `size` px tall, a relative path taken from
    /// `directory` (nil: this process's working directory).
    func resolve(_ icon: BannerIcon, size: Int, searchPath: IconSearchPath?, directory: String?) -> Result<String, IconProblem> {
        let path: String
        switch icon.source {
        case .file(let file):
            path = file.hasPrefix("/") ? file : IconSearchPath.joined(directory ?? Self.workingDirectory, file)
        case .named(let name):
            switch IconTheme(searchPath: searchPath ?? self.searchPath).file(named: name, size: size) {
            case .success(let found): path = found
            case .failure(let problem): return .failure(problem)
            }
        }
        do {
            _ = try bitmap(atPath: path)
            return .success(path)
        } catch {
            return .failure(error)
        }
    }

    /// The decoded pixels of the PNG at `path`.
    func bitmap(atPath path: String) throws(IconProblem) -> IconBitmap {
        if let cached = decoded[path], FileStamp(path: path) == cached.stamp { return cached.bitmap }
        let file = try PNGFile.read(path: path)
        let bitmap = try PNGFile.decode(file.bytes, path: path)
        if decoded.count >= Self.cacheSize { decoded.removeAll() }
        decoded[path] = (file.stamp, bitmap)
        return bitmap
    }

    private static var workingDirectory: String {
        guard let path = getcwd(nil, 0) else { return "/" }
        defer { free(path) }
        return String(cString: path)
    }
}

/// The freedesktop icon theme lookup for one search path: for each theme in order, every size
/// directory (`48x48`, `24x24@2`) and context (`apps`, `status`, …) below each theme directory,
/// the best size winning (IconThemeRule); then the plain directories.
struct IconTheme {
    let searchPath: IconSearchPath

    /// `name`'s PNG in the size that suits an icon drawn `size` px tall.
    func file(named name: String, size: Int) -> Result<String, IconProblem> {
        let fileName = name + ".png"
        var svg: String?
        for theme in IconThemeRule.themes {
            var candidates: [(size: Int, path: String)] = []
            for base in searchPath.themeDirectories {
                let themeDirectory = IconSearchPath.joined(base, theme)
                for sizeDirectory in Self.entries(of: themeDirectory) {
                    let sizePath = IconSearchPath.joined(themeDirectory, sizeDirectory)
                    guard let pixels = IconThemeRule.pixelSize(ofDirectory: sizeDirectory) else {
                        if svg == nil, sizeDirectory == "scalable" {
                            svg = Self.entries(of: sizePath).lazy
                                .map { IconSearchPath.joined(IconSearchPath.joined(sizePath, $0), name + ".svg") }
                                .first(where: Self.isRegularFile)
                        }
                        continue
                    }
                    for context in Self.entries(of: sizePath) {
                        let candidate = IconSearchPath.joined(IconSearchPath.joined(sizePath, context), fileName)
                        if Self.isRegularFile(candidate) { candidates.append((pixels, candidate)) }
                    }
                }
            }
            // Equal sizes keep search order: the first theme directory wins.
            if let best = IconThemeRule.preferenceOrder(candidates.map(\.size), needed: size).first,
               let found = candidates.first(where: { $0.size == best }) {
                return .success(found.path)
            }
        }
        for directory in searchPath.plainDirectories {
            let candidate = IconSearchPath.joined(directory, fileName)
            if Self.isRegularFile(candidate) { return .success(candidate) }
        }
        if let svg { return .failure(.onlySVG(name, path: svg)) }
        return .failure(.notFound(name))
    }

    /// The names in `directory` other than `.` and `..`; none when it cannot be read.
    static func entries(of directory: String) -> [String] {
        guard let handle = opendir(directory) else { return [] }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    static func isRegularFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
    }
}

/// Which file, and when it last changed: tells a cached decode (or a parsed config) from a
/// stale one.
public struct FileStamp: Equatable, Sendable {
    var device: UInt
    var inode: UInt
    var size: Int
    var seconds: Int
    var nanoseconds: Int

    /// The stamp of the file at `path` now; nil when it cannot be looked at.
    public init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        self.init(status)
    }

    init(_ status: stat) {
        device = UInt(status.st_dev)
        inode = UInt(status.st_ino)
        size = Int(status.st_size)
        seconds = status.st_mtim.tv_sec
        nanoseconds = status.st_mtim.tv_nsec
    }
}

/// Reading and decoding one PNG file, with limits: an icon is small, and a FIFO, a device or
/// a huge file given by mistake must not stall or swamp the process that draws banners.
enum PNGFile {
    /// Larger files are refused unread.
    static let maximumBytes = 16 << 20
    /// Wider or taller images are refused before their pixels are decoded.
    static let maximumSide = 4096

    /// The whole file, if it is a regular file of at most ``maximumBytes``.
    static func read(path: String) throws(IconProblem) -> (bytes: [UInt8], stamp: FileStamp) {
        // Non-blocking: opening a FIFO must not wait for a writer.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw .unreadable(path: path, reason: "not a regular file") }
        guard status.st_size <= maximumBytes else {
            throw .unreadable(path: path, reason: "\(status.st_size) bytes; icons of at most \(maximumBytes >> 20) MiB are read")
        }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { buffer in
                Glibc.read(fd, buffer.baseAddress! + filled, buffer.count - filled)
            }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
            if count == 0 { break }
            filled += count
        }
        return (Array(bytes[0..<filled]), FileStamp(status))
    }

    /// `bytes` as a PNG, through libpng's simplified API: 8-bit RGBA whatever the file's
    /// format (palette, grey, 16-bit, tRNS), then premultiplied.
    static func decode(_ bytes: [UInt8], path: String) throws(IconProblem) -> IconBitmap {
        var image = png_image()
        image.version = wb_PNG_IMAGE_VERSION()
        let begun = bytes.withUnsafeBytes { buffer in
            png_image_begin_read_from_memory(&image, buffer.baseAddress, buffer.count)
        }
        guard begun != 0 else { throw .unreadable(path: path, reason: reason(image, fallback: "not a PNG file")) }
        let width = Int(image.width)
        let height = Int(image.height)
        guard width > 0, height > 0, width <= maximumSide, height <= maximumSide else {
            png_image_free(&image)
            throw .unreadable(path: path, reason: "\(width)x\(height) px; icons of at most \(maximumSide)x\(maximumSide) are read")
        }
        image.format = wb_PNG_FORMAT_RGBA()
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        let finished = rgba.withUnsafeMutableBytes { buffer in
            png_image_finish_read(&image, nil, buffer.baseAddress, 0, nil)
        }
        guard finished != 0 else { throw .unreadable(path: path, reason: reason(image, fallback: "damaged PNG data")) }
        return IconBitmap(width: width, height: height, straightRGBA: rgba)
    }

    private static func reason(_ image: png_image, fallback: String) -> String {
        var copy = image
        let message = String(cString: wb_png_image_message(&copy))
        return message.isEmpty ? fallback : "libpng: " + message
    }
}
