// A fleet with Ansible (docs/fleet.md): the collection in packaging/ansible, built and installed
// with ansible-galaxy, and the documentation's playbook, read from the page at test time and run
// with the real ansible-playbook against two desktops. Each desktop is a real sshd on 127.0.0.1
// with a port of its own, whose commands see `WINDOW_BANNER_ROOT` (the host's spool, never the
// machine's /run) and the built window-banner on PATH. Oracles: the PLAY RECAP's counts, the
// spool files window-banner wrote on each host, the module's messages. Nothing of the machine's
// own Ansible or ssh setup is read or written: the controller's home, configuration, temporary
// and ControlPath directories and known hosts are the test's.

import Foundation
import Glibc
import ProcessTestSupport
import Testing
import WaylandTestSupport
import X11TestSupport

/// The page whose first ```yaml block is the playbook the tests run.
private let playbookDocument = "docs/fleet.md"

extension WindowBannerCLITests {
    @Suite(
        "A fleet with Ansible",
        .needsRoot("running sshd and window-banner broadcast"),
        .needsProgram("/usr/bin/ansible-playbook", package: "ansible-core"),
        .needsProgram("/usr/sbin/sshd", package: "openssh-server"),
        .needsProgram("/usr/bin/ssh-keygen", package: "openssh-client"))
    struct FleetTests {
        @Test func thePlaybookSetsTheBroadcastOnEveryDesktopOnceChecksAndClears() throws {
            let controller = try AnsibleController()
            defer { withExtendedLifetime(controller) {} }
            let programs = URL(fileURLWithPath: windowBannerExecutable()).deletingLastPathComponent().path
            let hosts = [try controller.startHost("first", programs: programs), try controller.startHost("second", programs: programs)]
            let playbook = try AnsibleController.documentedPlaybook()
            let title = try #require(AnsibleController.value(of: "title", in: playbook), "the playbook sets no title")
            #expect(playbook.contains("for: 8h"), "the documented playbook no longer lasts 8h:\n\(playbook)")

            // Each host's desktops: one user on an Xvfb and openbox, another on a headless sway,
            // each with the monitor its session starts (the autostart entry's, sway's exec line).
            let user = try DesktopUser()
            let desktops = try hosts.map { try HostDesktops(root: $0.root, x11User: user.uid) }
            defer { for desktops in desktops { desktops.end() } }

            let first = try controller.run(playbook, on: hosts)
            #expect(first.status == 0, "\(first)")
            for (host, desktops) in zip(hosts, desktops) {
                // Compact on these landscape screens: 18 px.
                #expect(desktops.x11.fixture.waitForBanner(height: 18), "\(host.name): the X11 session shows no banner")
                #expect(desktops.awaitSway(top: 18), "\(host.name): the sway session reserves no space")
            }
            // Someone who logs in after the play gets it too.
            let later = try HostDesktops.LaterLogin(root: hosts[0].root, uid: user.uid)
            defer { later.end() }
            #expect(later.owner.fixture.waitForBanner(height: 18), "a later login shows no banner")
            var spools: [String: Data] = [:]
            for host in hosts {
                #expect(first.recap[host.name]?["changed"] == 1, "\(host.name): \(first)")
                let file = host.spoolFile("maintenance")
                let data = try #require(FileManager.default.contents(atPath: file), "\(host.name): no \(file)")
                spools[host.name] = data
                let broadcast = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
                #expect((broadcast["settings"] as? [String: Any])?["title"] as? String == title, "\(host.name): \(broadcast)")
                // `for: 8h` counts from this run.
                let end = try #require(broadcast["until"] as? Double)
                #expect(abs(end - Date().timeIntervalSince1970 - 8 * 3600) < 300, "\(host.name): until \(end)")
            }

            // The same words again: nothing changes, the end time included.
            let again = try controller.run(playbook, on: hosts)
            #expect(again.status == 0, "\(again)")
            for host in hosts {
                #expect(again.recap[host.name]?["changed"] == 0, "\(host.name): \(again)")
                #expect(FileManager.default.contents(atPath: host.spoolFile("maintenance")) == spools[host.name], "\(host.name): the second run rewrote the broadcast")
            }

            // Check mode with new words: each host says it would change, and the diff shows them.
            let moved = AnsibleController.edited(playbook, ["title": ["title: Maintenance moved to 19:00"]])
            let check = try controller.run(moved, on: hosts, options: ["--check", "--diff"])
            #expect(check.status == 0, "\(check)")
            #expect(check.output.contains("\"title\": \"Maintenance moved to 19:00\""), "\(check)")
            for host in hosts {
                #expect(check.recap[host.name]?["changed"] == 1, "\(host.name): \(check)")
                #expect(FileManager.default.contents(atPath: host.spoolFile("maintenance")) == spools[host.name], "\(host.name): check mode changed the broadcast")
            }

            let absent = AnsibleController.edited(playbook, ["title": ["state: absent"], "for": []])
            let cleared = try controller.run(absent, on: hosts)
            #expect(cleared.status == 0, "\(cleared)")
            for host in hosts {
                #expect(cleared.recap[host.name]?["changed"] == 1, "\(host.name): \(cleared)")
                #expect(access(host.spoolFile("maintenance"), F_OK) != 0, "\(host.name): the broadcast is still in the spool")
            }
            for (host, desktops) in zip(hosts, desktops) {
                #expect(desktops.x11.fixture.waitForRestoredDesktop(), "\(host.name): the X11 session keeps the banner")
                #expect(desktops.awaitSway(top: 0), "\(host.name): the sway session keeps the space")
            }
            #expect(later.owner.fixture.waitForRestoredDesktop())
            let clearedAgain = try controller.run(absent, on: hosts)
            #expect(clearedAgain.status == 0, "\(clearedAgain)")
            for host in hosts {
                #expect(clearedAgain.recap[host.name]?["changed"] == 0, "\(host.name): \(clearedAgain)")
            }
        }

        @Test func aHostWithAnOlderOrNoWindowBannerFailsSayingSo() throws {
            let controller = try AnsibleController()
            defer { withExtendedLifetime(controller) {} }
            let standIns = controller.directory + "/old-programs"
            mkdir(standIns, 0o755)
            try AnsibleController.write("""
                #!/bin/sh
                # window-banner 0.1.0, which has no broadcast command.
                [ "$1" = --version ] && { echo 0.1.0; exit 0; }
                echo "window-banner: unknown command '$1'" >&2
                exit 64
                """, to: standIns + "/window-banner", executable: true)
            let host = try controller.startHost("old", programs: standIns)
            let playbook = try AnsibleController.documentedPlaybook()

            let old = try controller.run(playbook, on: [host])
            #expect(old.status == 2, "\(old)")
            #expect(old.recap["old"]?["failed"] == 1, "\(old)")
            #expect(old.output.contains("\"msg\": \"window-banner 0.1.0 is installed (\(standIns)/window-banner); broadcast needs window-banner 0.2.0 or later\""), "\(old)")

            let missing = AnsibleController.edited(playbook, ["id": ["id: maintenance", "executable: \(controller.directory)/nowhere/window-banner"]])
            let none = try controller.run(missing, on: [host])
            #expect(none.status == 2, "\(none)")
            #expect(none.output.contains("\"msg\": \"window-banner is not installed on this host: no executable \(controller.directory)/nowhere/window-banner\""), "\(none)")
            #expect(access(host.spoolFile("maintenance"), F_OK) != 0)
        }

        @Test func ansibleDocShowsTheModule() throws {
            let controller = try AnsibleController()
            defer { withExtendedLifetime(controller) {} }
            let doc = try Subprocess(executable: "/usr/bin/ansible-doc", arguments: ["windowbanner.desktop.broadcast"], environment: controller.environment)
            #expect(doc.waitForExit(timeout: 60) == 0, "\(doc.standardError)")
            for heading in ["> WINDOWBANNER.DESKTOP.BROADCAST", "= id", "- duration", "aliases: [for]", "EXAMPLES:", "RETURN VALUES:", "- sessions"] {
                #expect(doc.standardOutput.contains(heading), "ansible-doc shows no \(heading):\n\(doc.standardOutput)")
            }
            #expect(doc.standardError == "", "\(doc.standardError)")
        }
    }
}

/// An Ansible controller of the test's own: a directory holding its home, configuration, temporary
/// and ControlPath directories, the collection built from packaging/ansible and installed, and
/// the client key its hosts accept. Releasing it stops its hosts and removes the directory.
final class AnsibleController {
    let directory: String
    /// What every ansible command runs with: nothing from the machine's ~/.ansible or /etc/ansible.
    let environment: [String: String]
    private var hosts: [FleetHost] = []

    init() throws {
        var template = Array("/tmp/wb-fleet-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw TestFailure("mkdtemp failed") }
        directory = String(cString: made)
        // The hosts' desktops run as other users, who must reach each host's spools (in hosts/).
        chmod(directory, 0o711)
        for name in ["home", "ansible", "local-tmp", "remote-tmp", "cp", "dist", "collections", "hosts"] {
            mkdir(directory + "/" + name, name == "hosts" ? 0o711 : 0o700)
        }
        try Self.write("", to: directory + "/ansible.cfg")
        environment = [
            "PATH": "/usr/bin:/bin", "HOME": directory + "/home", "LC_ALL": "C.UTF-8",
            "ANSIBLE_CONFIG": directory + "/ansible.cfg", "ANSIBLE_HOME": directory + "/ansible",
            "ANSIBLE_COLLECTIONS_PATH": directory + "/collections",
            "ANSIBLE_LOCAL_TEMP": directory + "/local-tmp", "ANSIBLE_REMOTE_TEMP": directory + "/remote-tmp",
            "ANSIBLE_SSH_CONTROL_PATH_DIR": directory + "/cp", "ANSIBLE_HOST_KEY_CHECKING": "False", "ANSIBLE_NOCOLOR": "1",
        ]
        try Subprocess.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "fleet-test-controller", "-f", directory + "/client-key"])
        let packageRoot = WindowBannerCLITests.DocumentedExamplesTests.packageRoot
        try galaxy(["collection", "build", packageRoot + "/packaging/ansible", "--output-path", directory + "/dist"])
        let built = try FileManager.default.contentsOfDirectory(atPath: directory + "/dist").filter { $0.hasSuffix(".tar.gz") }
        guard built.count == 1 else { throw TestFailure("ansible-galaxy built \(built), not one collection") }
        try galaxy(["collection", "install", directory + "/dist/" + built[0], "-p", directory + "/collections"])
    }

    /// `ansible-galaxy ARGUMENTS`, which must succeed.
    private func galaxy(_ arguments: [String]) throws {
        let galaxy = try Subprocess(executable: "/usr/bin/ansible-galaxy", arguments: arguments, environment: environment)
        guard galaxy.waitForExit(timeout: 120) == 0 else {
            throw TestFailure("ansible-galaxy \(arguments.joined(separator: " ")) failed: \(galaxy.standardOutput)\(galaxy.standardError)")
        }
    }

    /// Starts a desktop named `name` whose commands find `programs` (a directory) first on PATH;
    /// it runs until the controller goes. Its `root` and `port` are all a test needs of it.
    func startHost(_ name: String, programs: String) throws -> FleetHost {
        let host = try FleetHost(name: name, in: directory + "/hosts", authorizedKeys: directory + "/client-key.pub", programs: programs)
        hosts.append(host)
        return host
    }

    /// One ansible-playbook run: its exit status, its output and the PLAY RECAP's counts per host.
    struct PlaybookRun: CustomStringConvertible {
        var status: Int32?
        var output: String
        var errors: String
        /// Each host's `ok=… changed=… failed=…`.
        var recap: [String: [String: Int]]
        var description: String { "ansible-playbook exited \(status.map(String.init) ?? "late"):\n\(output)\(errors)" }
    }

    /// Runs `playbook` on `hosts` (the inventory's group `desktops`) with `options`.
    func run(_ playbook: String, on hosts: [FleetHost], options: [String] = []) throws -> PlaybookRun {
        var inventory = "[desktops]\n"
        for host in hosts {
            inventory += "\(host.name) ansible_host=127.0.0.1 ansible_port=\(host.port)\n"
        }
        // root logs in, so `become: true` needs no sudo: Ansible skips becoming the user it is.
        inventory += """

            [desktops:vars]
            ansible_user=root
            ansible_ssh_private_key_file=\(directory)/client-key
            ansible_ssh_common_args='-o StrictHostKeyChecking=no -o UserKnownHostsFile=\(directory)/known_hosts'
            ansible_python_interpreter=/usr/bin/python3

            """
        try Self.write(inventory, to: directory + "/inventory")
        try Self.write(playbook, to: directory + "/playbook.yml")
        let process = try Subprocess(executable: "/usr/bin/ansible-playbook", arguments: ["-i", directory + "/inventory", directory + "/playbook.yml"] + options,
                                     environment: environment)
        process.closeStandardInput()
        let status = process.waitForExit(timeout: 180)
        return PlaybookRun(status: status, output: process.standardOutput, errors: process.standardError, recap: Self.recap(process.standardOutput))
    }

    /// The counts of each host's line after `PLAY RECAP`.
    static func recap(_ output: String) -> [String: [String: Int]] {
        guard let start = output.range(of: "PLAY RECAP") else { return [:] }
        var recap: [String: [String: Int]] = [:]
        for line in output[start.upperBound...].split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { continue }
            var counts: [String: Int] = [:]
            for field in parts[1].split(separator: " ") {
                let pair = field.split(separator: "=")
                if pair.count == 2, let count = Int(pair[1]) { counts[String(pair[0])] = count }
            }
            if !counts.isEmpty { recap[parts[0].trimmingCharacters(in: .whitespaces)] = counts }
        }
        return recap
    }

    /// The first ```yaml block of `playbookDocument`, as the page has it now.
    static func documentedPlaybook() throws -> String {
        let page = WindowBannerCLITests.DocumentedExamplesTests.packageRoot + "/" + playbookDocument
        let lines = try String(contentsOfFile: page, encoding: .utf8).components(separatedBy: "\n")
        guard let start = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "```yaml" }),
              let end = lines[(start + 1)...].firstIndex(where: { $0.hasPrefix("```") })
        else { throw TestFailure("\(playbookDocument) has no ```yaml block") }
        return lines[(start + 1)..<end].joined(separator: "\n") + "\n"
    }

    /// The value of the first `key:` line of `playbook`, without quotes.
    static func value(of key: String, in playbook: String) -> String? {
        for line in playbook.split(separator: "\n") {
            let text = line.trimmingCharacters(in: .whitespaces)
            guard text.hasPrefix(key + ":") else { continue }
            return text.dropFirst(key.count + 1).trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "'\""))
        }
        return nil
    }

    /// `playbook` with each `key:` line replaced by `edits[key]`'s lines, at its indentation
    /// (none: the line goes).
    static func edited(_ playbook: String, _ edits: [String: [String]]) -> String {
        var lines: [String] = []
        for line in playbook.components(separatedBy: "\n") {
            let text = line.trimmingCharacters(in: .whitespaces)
            guard let key = edits.keys.first(where: { text.hasPrefix($0 + ":") }), let replacement = edits[key] else {
                lines.append(line)
                continue
            }
            let indentation = String(line.prefix { $0 == " " })
            lines += replacement.map { indentation + $0 }
        }
        return lines.joined(separator: "\n")
    }

    static func write(_ text: String, to path: String, executable: Bool = false) throws {
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, executable ? 0o755 : 0o600)
    }

    deinit {
        // The connection ssh keeps open to each host (ControlPersist) is a master process in a
        // session of its own, out of reach of any process group: each is asked to exit through
        // its socket.
        for socket in (try? FileManager.default.contentsOfDirectory(atPath: directory + "/cp")) ?? [] {
            _ = try? Subprocess.run("/usr/bin/ssh", ["-o", "ControlPath=\(directory)/cp/\(socket)", "-O", "exit", "fleet-host"])
        }
        for host in hosts { host.stop() }
        _ = try? Subprocess.run("/bin/rm", ["-rf", directory])
    }
}

/// One desktop of the fleet: an sshd on 127.0.0.1 that lets the controller's key in as root and
/// gives each command it runs `WINDOW_BANNER_ROOT` (this host's spools, below `root`) and a PATH
/// with `programs` first. It runs in mount and PID namespaces of its own: /run there is a
/// private tmpfs holding the /run/sshd sshd needs (the machine's own /run is not touched), and
/// its sessions, which put themselves in process groups of their own, end with it.
final class FleetHost {
    let name: String
    /// `WINDOW_BANNER_ROOT` of everything the host runs.
    let root: String
    let port: Int
    private let server: Subprocess

    init(name: String, in directory: String, authorizedKeys: String, programs: String) throws {
        self.name = name
        let home = directory + "/" + name
        root = home + "/root"
        mkdir(home, 0o755)
        mkdir(root, 0o755)
        try Subprocess.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "fleet-test-\(name)", "-f", home + "/host-key"])
        var environment = ["WINDOW_BANNER_ROOT=\(root)", "PATH=\(programs):/usr/sbin:/usr/bin:/sbin:/bin"]
        // Sessions get no environment from sshd's own: the test run's mark goes along by hand.
        if let marker = Subprocess.runMarker { environment.append(marker) }
        let script = #"mount -t tmpfs -o mode=755 tmpfs /run && mkdir -m 755 /run/sshd && exec /usr/sbin/sshd -D -e -f "$1" 2>&1"#
        var attempts: [String] = []
        // A free port can be taken between asking for it and sshd binding it: try another.
        for _ in 1...3 {
            let port = try Self.freePort()
            // StrictModes would refuse the authorized keys below /tmp, which everyone may write.
            try AnsibleController.write("""
                ListenAddress 127.0.0.1
                Port \(port)
                HostKey \(home)/host-key
                AuthorizedKeysFile \(authorizedKeys)
                StrictModes no
                PermitRootLogin prohibit-password
                PasswordAuthentication no
                KbdInteractiveAuthentication no
                PidFile none
                Subsystem sftp /usr/lib/openssh/sftp-server
                SetEnv \(environment.map { "\"\($0)\"" }.joined(separator: " "))

                """, to: home + "/sshd_config")
            let server = try Subprocess(
                executable: "/usr/bin/unshare",
                arguments: ["--mount", "--propagation", "private", "--pid", "--fork", "--kill-child", "/bin/sh", "-c", script, "sh", home + "/sshd_config"],
                environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"])
            var log: [String] = []
            while let line = server.readLine(timeout: 10) {
                log.append(line)
                guard line.hasPrefix("Server listening on") else { continue }
                self.port = port
                self.server = server
                return
            }
            server.killGroup()
            server.waitForExit(timeout: 5)
            attempts.append("port \(port): \(log.joined(separator: "\n"))")
        }
        throw TestFailure("sshd for \(name) did not start:\n\(attempts.joined(separator: "\n"))")
    }

    /// Where `broadcast set --id ID` puts the broadcast on this host.
    func spoolFile(_ id: String) -> String {
        root + "/run/window-banner/broadcasts/\(id).json"
    }

    /// A TCP port on 127.0.0.1 that nothing listens on now.
    static func freePort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw TestFailure("socket failed") }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
        }
        guard bound else { throw TestFailure("no free port: \(String(cString: strerror(errno)))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Ends sshd and, with its PID namespace, every session it started.
    func stop() {
        server.killGroup()
        server.waitForExit(timeout: 5)
    }

    deinit { stop() }
}

/// A user made for the test (an X11 desktop's), removed when released.
final class DesktopUser {
    let name = "wbfleet\(getpid() % 100_000)"
    let uid: uid_t

    init() throws {
        _ = try Subprocess.run("/usr/sbin/useradd", ["--system", "--no-create-home", "--home-dir", "/nonexistent", "--shell", "/usr/sbin/nologin", name])
        guard let entry = getpwnam(name) else { throw TestFailure("useradd made no \(name)") }
        uid = entry.pointee.pw_uid
    }

    deinit {
        // --force: a monitor of theirs still on its way out would keep userdel from it.
        _ = try? Subprocess.run("/usr/sbin/userdel", ["--force", name])
    }
}

/// One fleet host's graphical sessions, whose monitors read the host's spools (`root`): an X11
/// desktop of `x11User` with the monitor the XDG autostart entry starts, and a headless sway
/// (nobody's) whose config has docs/fleet.md's exec line. `end()` stops them.
final class HostDesktops {
    let x11: OwnerFixture
    private let monitor: Subprocess
    let sway: TestSway
    private let root: String
    private let directories: [String]

    init(root: String, x11User: uid_t) throws {
        self.root = root
        x11 = try OwnerFixture()
        let runtime = try WindowBannerCLITests.SessionFindingTests.runtimeDirectory(for: x11User)
        let state = try WindowBannerCLITests.SessionFindingTests.runtimeDirectory(for: x11User)
        directories = [runtime, state]
        monitor = try WindowBannerCLITests.BroadcastTests.startSession(x11, uid: x11User, runtime: runtime, state: state, root: root, bus: nil)
        sway = try TestSway(extraConfig: try WindowBannerCLITests.BroadcastTests.swayExecLine(root: root))
        _ = try sway.startFoot()
        _ = try sway.awaitWindowRect(appID: "foot") { $0 == SwayRect(x: 0, y: 0, width: 1280, height: 720) }
    }

    /// Waits until the tiled foot on sway starts `top` px down, the banner's space above it.
    func awaitSway(top: Int) -> Bool {
        (try? sway.awaitWindowRect(appID: "foot", timeout: 20) { $0 == SwayRect(x: 0, y: top, width: 1280, height: 720 - top) }) != nil
    }

    func end() {
        monitor.signal(SIGTERM)
        _ = monitor.waitForExit()
        monitor.killGroup()
        WindowBannerCLITests.BroadcastTests.endProcesses(under: root)
        for path in directories { _ = try? Subprocess.run("/bin/rm", ["-rf", path]) }
    }

    /// A login on a new X11 display of `uid`'s after the play.
    final class LaterLogin {
        let owner: OwnerFixture
        private let monitor: Subprocess
        private let directories: [String]

        init(root: String, uid: uid_t) throws {
            owner = try OwnerFixture()
            let runtime = try WindowBannerCLITests.SessionFindingTests.runtimeDirectory(for: uid)
            let state = try WindowBannerCLITests.SessionFindingTests.runtimeDirectory(for: uid)
            directories = [runtime, state]
            monitor = try WindowBannerCLITests.BroadcastTests.startSession(owner, uid: uid, runtime: runtime, state: state, root: root, bus: nil)
        }

        func end() {
            monitor.signal(SIGTERM)
            _ = monitor.waitForExit()
            monitor.killGroup()
            for path in directories { _ = try? Subprocess.run("/bin/rm", ["-rf", path]) }
        }
    }
}
