// What the desktop itself says about banners, where it can be read without a toolkit: GTK's
// settings.ini `gtk-enable-animations` (GNOME, Xfce, Cinnamon and MATE write it when the user
// turns animations off), the setting `--reduce-motion` follows when neither a flag nor the
// config file decides.

import Glibc

/// Desktop-wide preferences that banners follow by default.
public enum DesktopSettings {
    /// True when the user's GTK settings turn animations off (`gtk-enable-animations=false` or
    /// `0` in `[Settings]` of gtk-4.0 or gtk-3.0 settings.ini, the user's file before the
    /// system's).
    public static func prefersReducedMotion(environment: [String: String]) -> Bool {
        var directories: [String] = []
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            directories.append(config)
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            directories.append(home + "/.config")
        }
        directories += (environment["XDG_CONFIG_DIRS"] ?? "/etc/xdg").split(separator: ":").map(String.init) + ["/etc"]
        for directory in directories {
            for version in ["gtk-4.0", "gtk-3.0"] {
                guard let text = readSmallFile("\(directory)/\(version)/settings.ini") else { continue }
                if let animations = animationsSetting(in: text) { return !animations }
            }
        }
        return false
    }

    /// `gtk-enable-animations` in the `[Settings]` group of a settings.ini, nil when unset.
    static func animationsSetting(in text: String) -> Bool? {
        var inSettings = false
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: " \t")
            if line.hasPrefix("[") {
                inSettings = line == "[Settings]"
                continue
            }
            guard inSettings, !line.hasPrefix("#"), !line.hasPrefix(";"),
                  let equals = line.firstIndex(of: "=") else { continue }
            guard line[..<equals].trimmingCharacters(in: " \t") == "gtk-enable-animations" else { continue }
            switch line[line.index(after: equals)...].trimmingCharacters(in: " \t").lowercased() {
            case "false", "0", "no": return false
            case "true", "1", "yes": return true
            default: return nil
            }
        }
        return nil
    }

    private static func readSmallFile(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 256 * 1024 {
            let count = fread(&buffer, 1, buffer.count, file)
            guard count > 0 else { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension StringProtocol {
    fileprivate func trimmingCharacters(in set: String) -> String {
        var scalars = Substring(self)
        while let first = scalars.first, set.contains(first) { scalars.removeFirst() }
        while let last = scalars.last, set.contains(last) { scalars.removeLast() }
        return String(scalars)
    }
}
