// X11 colour names ("navy", "dark orange") on a display server that has none: the same table
// the X server reads, /usr/share/X11/rgb.txt (x11-common), so a style means the same colour on
// both backends.

import BannerCore
import Glibc

public enum NamedColours {
    /// rgb.txt's places, Debian's first.
    static let files = ["/usr/share/X11/rgb.txt", "/etc/X11/rgb.txt", "/usr/lib/X11/rgb.txt"]

    /// `colour` in pixels' terms: a name looked up in the table (once: `known` keeps it).
    public static func resolve(_ colour: BannerColor, remembering known: inout [String: RGBA]) throws(BannerValueError) -> RGBA {
        switch colour.value {
        case .rgba(let rgba):
            return rgba
        case .x11Name(let name):
            if let remembered = known[name] { return remembered }
            guard let rgba = lookup(name) else { throw .colour(name) }
            known[name] = rgba
            return rgba
        }
    }

    /// The colour named `name` (case and spaces ignored, as the X server compares them); nil for
    /// a name the table does not have, or when no table can be read.
    public static func lookup(_ name: String) -> RGBA? {
        let wanted = normalised(name)
        for path in files {
            guard let file = fopen(path, "r") else { continue }
            defer { fclose(file) }
            var line: UnsafeMutablePointer<CChar>?
            var capacity = 0
            defer { free(line) }
            while getline(&line, &capacity, file) > 0, let line {
                let text = String(cString: line)
                guard !text.hasPrefix("!") else { continue }
                let fields = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" })
                guard fields.count >= 4, let red = Int(fields[0]), let green = Int(fields[1]), let blue = Int(fields[2]),
                      normalised(fields[3...].joined(separator: " ")) == wanted else { continue }
                return RGBA(red: Double(red) / 255, green: Double(green) / 255, blue: Double(blue) / 255)
            }
            return nil
        }
        return nil
    }

    private static func normalised(_ name: String) -> String {
        name.lowercased().filter { $0 != " " }
    }
}
