// A private network namespace per test (`ip netns add`) and the `ip` commands that change its
// network, for any suite whose program must see real rtnetlink changes: the program runs inside
// with `ip netns exec NAME …` (same files and environment, its own network). Every namespace is
// removed when its test ends, failed or not; ones left by a test process that crashed are swept
// by the next run. Needs root (or CAP_SYS_ADMIN + CAP_NET_ADMIN) and the veth driver.

import Glibc

/// A named network namespace owned by this test process.
public final class NetworkNamespace {
    private static let prefix = "netpath-test-"
    public let name: String
    private var removed = false

    public init() throws {
        Self.removeLeftovers()
        name = "\(Self.prefix)\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try Subprocess.run(Self.ip, ["netns", "add", name])
    }

    deinit { remove() }

    /// `ip -n NAME arguments…`; throws with ip's message when it fails.
    public func ip(_ arguments: String) throws {
        try Subprocess.run(Self.ip, ["-n", name] + arguments.split(separator: " ").map(String.init))
    }

    /// A veth pair, both ends up (veth has carrier only when its peer is up too).
    public func addVeth(_ interface: String = "veth0", peer: String = "peer0") throws {
        try ip("link add \(interface) type veth peer name \(peer)")
        try ip("link set \(peer) up")
        try ip("link set \(interface) up")
    }

    /// Runs each command in one `ip -batch` process: changes as fast as the kernel takes them.
    public func ipBatch(_ commands: [String]) throws {
        try Subprocess.run(Self.ip, ["-n", name, "-batch", "-"], input: commands.joined(separator: "\n") + "\n")
    }

    /// The default route `connectIPv4` adds, for deleting and adding it again.
    public static let ipv4DefaultRoute = "default via 10.1.0.1 dev veth0"

    /// veth0 up with 10.1.0.2/24 and an IPv4 default route via 10.1.0.1: a path to the internet
    /// as the kernel's tables tell it.
    public func connectIPv4() throws {
        try addVeth()
        try ip("addr add 10.1.0.2/24 dev veth0")
        try ip("route add \(Self.ipv4DefaultRoute)")
    }

    /// `arguments` run inside the namespace: `ip netns exec NAME arguments…`.
    public func command(_ arguments: [String]) -> [String] {
        [Self.ip, "netns", "exec", name] + arguments
    }

    /// `ip netns del NAME`; harmless twice. Processes still inside keep the namespace alive
    /// until they exit.
    public func remove() {
        guard !removed else { return }
        removed = true
        _ = try? Subprocess.run(Self.ip, ["netns", "del", name])
    }

    /// Deletes the namespaces of test processes that no longer exist.
    private static func removeLeftovers() {
        guard let list = try? Subprocess.run(ip, ["netns", "list"]) else { return }
        for line in list.split(separator: "\n") {
            guard let name = line.split(separator: " ").first, name.hasPrefix(prefix) else { continue }
            let owner = name.dropFirst(prefix.count).prefix { $0 != "-" }
            guard let pid = pid_t(owner), kill(pid, 0) != 0, errno == ESRCH else { continue }
            _ = try? Subprocess.run(ip, ["netns", "del", String(name)])
        }
    }

    /// iproute2's `ip`, wherever this distribution keeps it.
    public static let ip: String = ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"].first { access($0, X_OK) == 0 } ?? "ip"
}
