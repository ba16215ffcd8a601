// The XDG base directory rules this project follows, kept apart from the code that uses them
// (icon lookup in BannerX11, the client that sends its data directories to the owner).

/// Where the XDG base directory spec says to look.
public enum XDGBaseDirectories {
    /// `$XDG_DATA_HOME` (else `~/.local/share`), then each of `$XDG_DATA_DIRS` (else
    /// `/usr/local/share:/usr/share`): the base directories the XDG spec searches, in order.
    /// Relative entries are ignored, as the spec says.
    public static func data(environment: [String: String]) -> [String] {
        var directories: [String] = []
        if let dataHome = environment["XDG_DATA_HOME"], dataHome.hasPrefix("/") {
            directories.append(dataHome)
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            directories.append(home.hasSuffix("/") ? home + ".local/share" : home + "/.local/share")
        }
        let dataDirs = environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share"
        directories += dataDirs.split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        return directories
    }
}
