// Icons from disk: an icon theme name becomes a PNG file (the freedesktop icon theme lookup
// over the directories an IconSearchPath lists), and a PNG file becomes premultiplied pixels
// at the size it is drawn at (CPNG: libpng's progressive reader, rows box-filtered as they
// arrive; large files on a worker thread for the owner). Every file-system call for icons is made here; what a value
// means, which of a theme's sizes fits and how pixels are scaled is BannerCore's
// (BannerIcon.swift). Start reading at `IconLibrary.locate`.

import BannerCore
import CPNG
import Glibc
import Reactor

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
    /// No `NAME.png` (or scalable `NAME.svg`) in the themes, nor `NAME.png` in the plain directories.
    case notFound(String)
    /// The file cannot be opened or is not a usable PNG (or SVG).
    case unreadable(path: String, reason: String)

    public var description: String {
        switch self {
        case .notFound(let name):
            "icon '\(name.printable)' not found (no \(name.printable).png in the \(IconThemeRule.themes.joined(separator: " or ")) icon theme)"
        case .unreadable(let path, let reason):
            "cannot read icon '\(path.printable)': \(reason)"
        }
    }
}

/// Finds icons and keeps the last eight used, scaled to the sizes they are drawn at — never at
/// the file's own size — so a banner shown again does not read its file again (a changed file
/// is read anew).
public final class IconLibrary {
    /// The search path for names when the caller gives none.
    public var searchPath: IconSearchPath
    /// The desktop's icon theme, searched before Adwaita and hicolor (``IconThemeRule/themes(desktop:)``);
    /// nil when the desktop names none.
    public var desktopTheme: String?
    private var scaled: [String: (stamp: FileStamp, bySide: [Int: IconBitmap])] = [:]
    /// The paths in `scaled`, least recently used first: the icon on screen stays kept.
    private var recentPaths: [String] = []
    private static let cacheSize = 8
    /// Decodes under way on worker threads, by path: each with the callers waiting for it.
    private var decoding: [String: [(IconProblem?) -> Void]] = [:]
    /// Images of more pixels than this are decoded on a worker thread when the caller can
    /// wait (``prepareInBackground(path:sides:loop:completion:)``): a 512x512 icon takes a
    /// few milliseconds, well inside a frame slot; a 4096x4096 one about a hundred.
    static let inlineDecodePixels = 512 * 512

    public init(searchPath: IconSearchPath) {
        self.searchPath = searchPath
    }

    /// The PNG file `icon` stands for, as an absolute path, not read yet: a theme name in the
    /// size that suits an icon drawn `size` px tall, a relative path taken from `directory`
    /// (nil: this process's working directory).
    public func locate(_ icon: BannerIcon, size: Int, searchPath: IconSearchPath?, directory: String?) -> Result<String, IconProblem> {
        switch icon.source {
        case .file(let file):
            .success(file.hasPrefix("/") ? file : IconSearchPath.joined(directory ?? Self.workingDirectory, file))
        case .named(let name):
            IconTheme(searchPath: searchPath ?? self.searchPath, themes: IconThemeRule.themes(desktop: desktopTheme)).file(named: name, size: size)
        }
    }

    /// True when `path` is decoded at every one of `sides` and has not changed since.
    public func isReady(path: String, sides: [Int]) -> Bool {
        guard let cached = scaled[path], FileStamp(path: path) == cached.stamp else { return false }
        return sides.allSatisfy { cached.bySide[$0] != nil }
    }

    /// Decodes `path` now at each of `sides` it is not cached at.
    public func prepare(path: String, sides: [Int]) throws(IconProblem) {
        guard !isReady(path: path, sides: sides) else { return }
        let decoded = try PNGFile.decode(path: path, sides: sides)
        store(decoded, path: path)
    }

    /// Decodes `path` at `sides` on a worker thread when it is large or an SVG (a small PNG at once), and
    /// calls `completion` from `loop` with the outcome; the decoded squares are cached. The
    /// loop goes on drawing frames meanwhile.
    public func prepareInBackground(path: String, sides: [Int], loop: EventLoop, completion: @escaping (IconProblem?) -> Void) {
        if isReady(path: path, sides: sides) { return completion(nil) }
        // An SVG's cost is not known before librsvg has parsed it.
        guard PNGFile.isSVG(path) || (PNGFile.pixelCount(path: path) ?? 0) > Self.inlineDecodePixels else {
            do throws(IconProblem) {
                try prepare(path: path, sides: sides)
                completion(nil)
            } catch {
                completion(error)
            }
            return
        }
        if decoding[path] != nil {
            decoding[path]?.append(completion)
            return
        }
        decoding[path] = [completion]
        PNGFile.decodeInBackground(path: path, sides: sides, loop: loop) { [weak self] outcome in
            guard let self else { return }
            var problem: IconProblem?
            switch outcome {
            case .success(let decoded): store(decoded, path: path)
            case .failure(let failure): problem = failure
            }
            for waiter in decoding.removeValue(forKey: path) ?? [] { waiter(problem) }
        }
    }

    /// `path`'s icon scaled to a `side`×`side` square: from the cache, or decoded now.
    public func bitmap(atPath path: String, side: Int) throws(IconProblem) -> IconBitmap {
        try prepare(path: path, sides: [side])
        guard let bitmap = scaled[path]?.bySide[side] else { throw .unreadable(path: path, reason: "changed while it was read") }
        used(path)
        return bitmap
    }

    private func store(_ decoded: PNGFile.Decoded, path: String) {
        var entry = scaled[path].flatMap { $0.stamp == decoded.stamp ? $0 : nil } ?? (stamp: decoded.stamp, bySide: [:])
        entry.bySide.merge(decoded.bySide) { $1 }
        scaled[path] = entry
        used(path)
        if recentPaths.count > Self.cacheSize { scaled[recentPaths.removeFirst()] = nil }
    }

    private func used(_ path: String) {
        recentPaths.removeAll { $0 == path }
        recentPaths.append(path)
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
    /// The themes, in the order searched.
    var themes = IconThemeRule.themes

    /// `name`'s PNG in the size that suits an icon drawn `size` px tall, or its scalable SVG in
    /// a theme that has no PNG of it (many desktop themes are SVG only).
    func file(named name: String, size: Int) -> Result<String, IconProblem> {
        let fileName = name + ".png"
        for theme in themes {
            var svg: String?
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
            if let svg { return .success(svg) }
        }
        for directory in searchPath.plainDirectories {
            let candidate = IconSearchPath.joined(directory, fileName)
            if Self.isRegularFile(candidate) { return .success(candidate) }
        }
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
/// a huge file given by mistake must not stall or swamp the process that draws banners. The
/// file is streamed through libpng a block at a time and each row is box-filtered into the
/// squares asked for as it arrives (CPNG), so memory stays a few rows whatever the image's size.
/// An `.svg` file is drawn by librsvg into the same squares instead (CPNG's csvg.c), after the
/// same checks and at most ``maximumSVGBytes``.
enum PNGFile {
    /// Larger files are refused unread.
    static let maximumBytes = 16 << 20
    /// Images of more pixels are refused before any pixel is decoded: 4096x4096.
    static let maximumPixels = 4096 * 4096
    /// Wider or taller images are refused before any pixel is decoded.
    static let maximumSide = 8192
    /// Squares larger than this are not made (an icon is drawn as tall as a line of text).
    static let maximumSquare = 4096
    /// Larger SVG documents are refused: a theme's largest are a few hundred kilobytes.
    static let maximumSVGBytes = 4 << 20

    /// Whether `path` is drawn as an SVG document (by its `.svg` name) rather than decoded as a PNG.
    static func isSVG(_ path: String) -> Bool { path.lowercased().hasSuffix(".svg") }

    /// A file decoded into squares, by side.
    struct Decoded: Sendable {
        var stamp: FileStamp
        var bySide: [Int: IconBitmap]
    }

    /// The image's size from its header (the IHDR chunk in the first 24 bytes); nil when the
    /// file is not a readable PNG (decoding it then fails at once).
    static func size(path: String) -> (width: Int, height: Int)? {
        guard let (fd, _) = try? open(path: path) else { return nil }
        defer { close(fd) }
        var header = [UInt8](repeating: 0, count: 24)
        guard header.withUnsafeMutableBytes({ pread(fd, $0.baseAddress, 24, 0) }) == 24,
              header[12..<16].elementsEqual("IHDR".utf8) else { return nil }
        func bigEndian(_ at: Int) -> Int { header[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (bigEndian(16), bigEndian(20))
    }

    /// The image's pixel count from its header; see ``size(path:)``.
    static func pixelCount(path: String) -> Int? {
        size(path: path).map { $0.width * $0.height }
    }

    /// The file at `path`, opened, if it is a regular file of at most ``maximumBytes``.
    static func open(path: String) throws(IconProblem) -> (fd: Int32, stamp: FileStamp) {
        // Non-blocking: opening a FIFO must not wait for a writer.
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw .unreadable(path: path, reason: reason)
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw .unreadable(path: path, reason: "not a regular file")
        }
        guard status.st_size <= maximumBytes else {
            close(fd)
            throw .unreadable(path: path, reason: "\(status.st_size) bytes; icons of at most \(maximumBytes >> 20) MiB are read")
        }
        return (fd, FileStamp(status))
    }

    /// The PNG at `path` fitted into a square of each of `sides` (at most two), decoded now.
    static func decode(path: String, sides: [Int]) throws(IconProblem) -> Decoded {
        let (fd, stamp) = try open(path: path)
        defer { close(fd) }
        let job = Job(fd: fd, sides: sides, isSVG: isSVG(path))
        guard wb_png_decode(job.request) == 0 else { throw .unreadable(path: path, reason: job.failure) }
        return Decoded(stamp: stamp, bySide: job.bitmaps)
    }

    /// ``decode(path:sides:)`` on a worker thread; `completion` runs from `loop`. When no
    /// thread can be started, decodes now.
    static func decodeInBackground(path: String, sides: [Int], loop: EventLoop, completion: @escaping (Result<Decoded, IconProblem>) -> Void) {
        let opened: (fd: Int32, stamp: FileStamp)
        do throws(IconProblem) {
            opened = try open(path: path)
        } catch {
            return completion(.failure(error))
        }
        var ends: [Int32] = [0, 0]
        let job = Job(fd: opened.fd, sides: sides, isSVG: isSVG(path))
        let piped = pipe(&ends) == 0
        if piped { for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) } }
        guard piped, wb_png_decode_in_background(job.request, ends[1]) == 0 else {
            if piped {
                close(ends[0])
                close(ends[1])
            }
            close(opened.fd)
            return completion(Result { () throws(IconProblem) in try decode(path: path, sides: sides) })
        }
        var token: EventLoop.Token?
        token = loop.watch(fd: ends[0]) {
            if let token { loop.cancel(token) }
            close(ends[0])
            close(ends[1])
            close(opened.fd)
            // The worker wrote its byte after its last touch of the request.
            if job.succeeded {
                completion(.success(Decoded(stamp: opened.stamp, bySide: job.bitmaps)))
            } else {
                completion(.failure(.unreadable(path: path, reason: job.failure)))
            }
        }
    }

    /// One decode's request and the squares it fills, held in C memory that a worker thread
    /// can write while this object stays alive.
    private final class Job {
        let request: UnsafeMutablePointer<wb_png_request>
        let sides: [Int]
        private let buffers: [UnsafeMutablePointer<UInt32>]

        init(fd: Int32, sides requested: [Int], isSVG: Bool) {
            var unique: [Int] = []
            for side in requested.map({ min(max($0, 1), PNGFile.maximumSquare) }) where !unique.contains(side) { unique.append(side) }
            sides = Array(unique.prefix(Int(WB_PNG_MAXIMUM_TARGETS)))
            buffers = sides.map { UnsafeMutablePointer<UInt32>.allocate(capacity: $0 * $0) }
            request = .allocate(capacity: 1)
            request.initialize(to: wb_png_request())
            request.pointee.fd = fd
            request.pointee.is_svg = isSVG ? 1 : 0
            request.pointee.maximum_bytes = UInt64(isSVG ? PNGFile.maximumSVGBytes : PNGFile.maximumBytes)
            request.pointee.maximum_pixels = UInt64(PNGFile.maximumPixels)
            request.pointee.maximum_side = UInt32(PNGFile.maximumSide)
            request.pointee.target_count = Int32(sides.count)
            request.pointee.sides.0 = UInt32(sides[0])
            request.pointee.pixels.0 = buffers[0]
            if sides.count > 1 {
                request.pointee.sides.1 = UInt32(sides[1])
                request.pointee.pixels.1 = buffers[1]
            }
        }

        deinit {
            for buffer in buffers { buffer.deallocate() }
            request.deallocate()
        }

        /// Whether the decode finished with every square filled (the worker leaves `message` empty).
        var succeeded: Bool { request.pointee.message.0 == 0 && request.pointee.width > 0 }

        var failure: String {
            withUnsafeBytes(of: request.pointee.message) { bytes in
                String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
        }

        var bitmaps: [Int: IconBitmap] {
            var result: [Int: IconBitmap] = [:]
            for (side, buffer) in zip(sides, buffers) {
                result[side] = IconBitmap(width: side, height: side, premultiplied: Array(UnsafeBufferPointer(start: buffer, count: side * side)))
            }
            return result
        }
    }
}
