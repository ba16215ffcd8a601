// The build's programs where every user can run them. A checkout in a private (0700) directory,
// as home directories are on several distributions, cannot be entered by another user, so the
// programs a test runs as one (sway's unprivileged user, root's `--user` sessions) could not
// start from the build directory. Then the build's programs are linked (or, across file systems,
// copied) once per test process into a directory of their own under /tmp, laid out like a
// checkout — Package.swift, Resources, the programs — so they find their data files as they do
// in the build; it is removed when the test process exits. A checkout every user can enter is
// used as it is.

import Glibc
import Synchronization

public enum SharedPrograms {
    private static let shared = Mutex<String??>(nil)

    /// `program`, built in `buildDirectory`, at a path every user can run it from.
    public static func path(of program: String, builtIn buildDirectory: String) -> String {
        guard let directory = directory(for: buildDirectory) else { return buildDirectory + "/" + program }
        return directory + "/bin/" + program
    }

    /// Nil when `buildDirectory` is open to everyone, else the shared copy (made on first use).
    private static func directory(for buildDirectory: String) -> String? {
        shared.withLock { made in
            if let made { return made }
            let directory = isOpenToEveryone(buildDirectory) ? nil : makeCopy(of: buildDirectory)
            made = .some(directory)
            return directory
        }
    }

    /// Whether every directory from the root down to `path` can be entered by any user.
    private static func isOpenToEveryone(_ path: String) -> Bool {
        var prefix = ""
        for part in path.split(separator: "/") {
            prefix += "/" + part
            var info = stat()
            guard stat(prefix, &info) == 0, info.st_mode & S_IXOTH != 0 else { return false }
        }
        return true
    }

    private static func makeCopy(of buildDirectory: String) -> String? {
        var template = Array("/tmp/window-banner-programs-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { return nil }
        let directory = String(cString: made)
        chmod(directory, 0o755)
        mkdir(directory + "/bin", 0o755)
        atexit {
            SharedPrograms.shared.withLock { made in
                if case .some(.some(let directory)) = made { SharedPrograms.removeTree(directory) }
            }
        }
        // The package root: the nearest ancestor with a Package.swift.
        var root = buildDirectory
        while !root.isEmpty, access(root + "/Package.swift", F_OK) != 0 {
            root = String(root[..<(root.lastIndex(of: "/") ?? root.startIndex)])
        }
        if !root.isEmpty {
            close(open(directory + "/Package.swift", O_CREAT | O_WRONLY, 0o644))
            _ = (try? Subprocess(executable: "/bin/cp", arguments: ["-R", root + "/Resources", directory + "/Resources"], environment: [:]))?.waitForExit()
            _ = (try? Subprocess(executable: "/bin/chmod", arguments: ["-R", "a+rX", directory], environment: [:]))?.waitForExit()
        }
        guard let listing = opendir(buildDirectory) else { return directory }
        defer { closedir(listing) }
        while let entry = readdir(listing) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            let source = buildDirectory + "/" + name
            var info = stat()
            guard stat(source, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_mode & S_IXUSR != 0,
                  !name.hasSuffix(".xctest"), !name.hasSuffix(".so") else { continue }
            let target = directory + "/bin/" + name
            if link(source, target) != 0 {
                _ = (try? Subprocess(executable: "/bin/cp", arguments: [source, target], environment: [:]))?.waitForExit()
            }
            chmod(target, 0o755)
        }
        return directory
    }

    /// Removes `path` and, for a directory, all below it (symbolic links are not followed).
    private static func removeTree(_ path: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        if info.st_mode & S_IFMT == S_IFDIR, let listing = opendir(path) {
            var names: [String] = []
            while let entry = readdir(listing) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if name != ".", name != ".." { names.append(name) }
            }
            closedir(listing)
            for name in names { removeTree(path + "/" + name) }
            rmdir(path)
        } else {
            unlink(path)
        }
    }
}
