// The icon left of a banner's text, as the user named it: a PNG file, or a name in the
// freedesktop icon theme. The core decides what a value means, which of a theme's sizes fits
// best, where the icon goes (BannerLayout) and how its pixels are scaled (IconBitmap); finding
// and decoding the file is the runtime's I/O (BannerRuntime/Icons.swift).

/// An icon: a PNG file or an icon theme name.
public struct BannerIcon: Sendable, Hashable, CustomStringConvertible {
    public enum Source: Sendable, Hashable {
        /// A PNG file; a relative path is taken from the working directory of whoever asked.
        case file(String)
        /// A name looked up in the freedesktop icon theme (`network-offline`, no extension).
        case named(String)
    }

    public var source: Source

    public init(_ source: Source) {
        self.source = source
    }

    /// The PNG at `path`.
    public static func file(_ path: String) -> BannerIcon { BannerIcon(.file(path)) }
    /// The icon theme's `name`.
    public static func named(_ name: String) -> BannerIcon { BannerIcon(.named(name)) }

    /// The value that means "no icon, whatever the style says" (`--icon none`).
    public static let noneValue = "none"

    /// The longest value accepted: a path no longer than Linux's PATH_MAX.
    public static let maximumLength = 4096

    /// Reads a value as written: `none` is no icon (nil); a value with a `/` or ending in `.png`
    /// or `.svg` is a file; anything else is an icon theme name. Empty values, control characters and
    /// values over ``maximumLength`` bytes are refused.
    public static func parse(_ text: String) throws(BannerValueError) -> BannerIcon? {
        guard !text.isEmpty, text.utf8.count <= maximumLength,
              !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw .icon(text)
        }
        if text == noneValue { return nil }
        if text.contains("/") || text.lowercased().hasSuffix(".png") || text.lowercased().hasSuffix(".svg") { return .file(text) }
        return .named(text)
    }

    /// The path or the name, as given.
    public var description: String {
        switch source {
        case .file(let path): path
        case .named(let name): name
        }
    }
}

/// How an icon name is found in a freedesktop icon theme: which themes, and which of a theme's
/// size directories (`16x16`, `48x48`, `24x24@2`, …) to take it from. A theme's PNG icons come
/// first; its `scalable` SVG is taken when it has no PNG of the name.
public enum IconThemeRule {
    /// The themes searched, in order: GNOME's Adwaita where installed, then hicolor, the theme
    /// every other inherits from.
    public static let themes = ["Adwaita", "hicolor"]

    /// The themes searched when the desktop names its own icon theme (XSETTINGS'
    /// `Net/IconThemeName`): that one first, then ``themes``. A name that is not one directory's
    /// name (empty, a slash, `.`, `..`, control characters, over 255 bytes) is another client's
    /// mistake and ignored.
    public static func themes(desktop: String?) -> [String] {
        guard let desktop, !desktop.isEmpty, desktop.utf8.count <= 255, desktop != ".", desktop != "..",
              !desktop.contains("/"), !desktop.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }),
              !themes.contains(desktop) else { return themes }
        return [desktop] + themes
    }

    /// The pixel size of a theme's size directory from its name: `48x48` is 48, `24x24@2` is 48;
    /// nil for `scalable`, `symbolic` and anything else.
    public static func pixelSize(ofDirectory name: String) -> Int? {
        let parts = name.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
        let sides = parts[0].split(separator: "x", omittingEmptySubsequences: false)
        guard sides.count == 2, let width = Int(sides[0]), let height = Int(sides[1]), width == height, width > 0, width <= 4096 else {
            return nil
        }
        guard parts.count == 2 else { return width }
        guard let factor = Int(parts[1]), factor >= 1, factor <= 8 else { return nil }
        return width * factor
    }

    /// `sizes` best first for an icon drawn `needed` px tall: the smallest size at least that
    /// big (scaling down keeps detail), then the larger ones, then the smaller ones from the
    /// largest down (scaling up blurs).
    public static func preferenceOrder(_ sizes: [Int], needed: Int) -> [Int] {
        let unique = Array(Set(sizes))
        return unique.filter { $0 >= needed }.sorted() + unique.filter { $0 < needed }.sorted(by: >)
    }
}

/// An icon's pixels, premultiplied by their alpha as XRender composites them: one `UInt32`
/// per pixel, `0xAARRGGBB`, rows top to bottom.
public struct IconBitmap: Sendable, Hashable {
    public let width: Int
    public let height: Int
    public let pixels: [UInt32]

    /// A bitmap of already premultiplied pixels; `pixels.count` must be `width * height`.
    public init(width: Int, height: Int, premultiplied pixels: [UInt32]) {
        precondition(width >= 0 && height >= 0 && pixels.count == width * height, "bitmap size and pixel count differ")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A bitmap from straight (not premultiplied) R, G, B, A bytes, as PNG stores them.
    public init(width: Int, height: Int, straightRGBA bytes: [UInt8]) {
        precondition(bytes.count == width * height * 4, "bitmap size and byte count differ")
        var pixels = [UInt32](repeating: 0, count: width * height)
        for index in pixels.indices {
            let alpha = UInt32(bytes[index * 4 + 3])
            func premultiplied(_ channel: UInt8) -> UInt32 { (UInt32(channel) * alpha + 127) / 255 }
            pixels[index] = alpha << 24 | premultiplied(bytes[index * 4]) << 16
                | premultiplied(bytes[index * 4 + 1]) << 8 | premultiplied(bytes[index * 4 + 2])
        }
        self.init(width: width, height: height, premultiplied: pixels)
    }

    /// The image fitted into a `side`×`side` square: scaled to keep its proportions, centred,
    /// the rest transparent. Each pixel is the average of the source pixels it covers (a box
    /// filter, weighted by how much of each it covers), so downscaling keeps thin lines and
    /// uniform areas keep their exact colour. This is the rule the runtime's decoder (CPNG)
    /// applies row by row as a file streams in, so that a large icon is never held at full
    /// size; a test holds the two together.
    public func scaled(toSquare side: Int) -> IconBitmap {
        guard side > 0 else { return IconBitmap(width: 0, height: 0, premultiplied: []) }
        guard width > 0, height > 0 else { return IconBitmap(width: side, height: side, premultiplied: .init(repeating: 0, count: side * side)) }
        if width == side, height == side { return self }
        let longest = max(width, height)
        let targetWidth = max(1, Int((Double(width * side) / Double(longest)).rounded()))
        let targetHeight = max(1, Int((Double(height * side) / Double(longest)).rounded()))
        let resampled = resampled(toWidth: targetWidth, height: targetHeight)
        var square = [UInt32](repeating: 0, count: side * side)
        let left = (side - targetWidth) / 2
        let top = (side - targetHeight) / 2
        for row in 0..<targetHeight {
            for column in 0..<targetWidth {
                square[(top + row) * side + left + column] = resampled[row * targetWidth + column]
            }
        }
        return IconBitmap(width: side, height: side, premultiplied: square)
    }

    /// Box-filtered to `newWidth`×`newHeight`: one pass across, one down, on premultiplied
    /// channels (so transparent pixels do not darken their neighbours).
    private func resampled(toWidth newWidth: Int, height newHeight: Int) -> [UInt32] {
        let across = Self.weights(from: width, to: newWidth)
        let down = Self.weights(from: height, to: newHeight)
        var rows = [Double](repeating: 0, count: newWidth * height * 4)
        for row in 0..<height {
            for (column, taps) in across.enumerated() {
                var sum = (0.0, 0.0, 0.0, 0.0)
                for (source, weight) in taps {
                    let pixel = pixels[row * width + source]
                    sum.0 += Double(pixel >> 24 & 0xFF) * weight
                    sum.1 += Double(pixel >> 16 & 0xFF) * weight
                    sum.2 += Double(pixel >> 8 & 0xFF) * weight
                    sum.3 += Double(pixel & 0xFF) * weight
                }
                let base = (row * newWidth + column) * 4
                rows[base] = sum.0
                rows[base + 1] = sum.1
                rows[base + 2] = sum.2
                rows[base + 3] = sum.3
            }
        }
        var result = [UInt32](repeating: 0, count: newWidth * newHeight)
        for (row, taps) in down.enumerated() {
            for column in 0..<newWidth {
                var channels = [0.0, 0.0, 0.0, 0.0]
                for (source, weight) in taps {
                    let base = (source * newWidth + column) * 4
                    for channel in 0..<4 { channels[channel] += rows[base + channel] * weight }
                }
                let alpha = UInt32(min(max(channels[0].rounded(), 0), 255))
                // Premultiplied colour never exceeds its alpha; rounding must not make it.
                let colour = channels[1...].map { min(UInt32(min(max($0.rounded(), 0), 255)), alpha) }
                result[row * newWidth + column] = alpha << 24 | colour[0] << 16 | colour[1] << 8 | colour[2]
            }
        }
        return result
    }

    /// For each of `count` destination cells, the source cells it covers and how much of it
    /// each one makes up (the weights sum to 1).
    private static func weights(from sourceCount: Int, to count: Int) -> [[(Int, Double)]] {
        let ratio = Double(sourceCount) / Double(count)
        return (0..<count).map { cell in
            let start = Double(cell) * ratio
            let end = start + ratio
            var taps: [(Int, Double)] = []
            var source = Int(start)
            while Double(source) < end, source < sourceCount {
                let covered = min(end, Double(source + 1)) - max(start, Double(source))
                if covered > 1e-9 { taps.append((source, covered / ratio)) }
                source += 1
            }
            return taps
        }
    }
}
