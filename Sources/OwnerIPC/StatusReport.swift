// What `status` prints, as text, as JSON (`--json`) and one line at a time (`--follow --json`):
// the headline banner at the top level, every monitor below.

import BannerCore
import OwnerProtocol

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `status --json`: the headline banner at the top level, every monitor below.
package struct StatusReport: Encodable {
    package struct Owner: Encodable {
        var pid: Int
        var display: String
    }

    package var presented: Bool
    package var title: String?
    package var subtitle: String?
    package var id: String?
    package var monitor: String?
    package var height: Int?
    package var compact: Bool?
    package var mode: String?
    package var remaining: Double?
    /// Why the headline banner is not on screen (`locked`); nil when it shows.
    package var hidden: String?
    /// The headline banner's `--style`.
    package var style: String?
    /// The headline banner's progress bar, 0...1.
    package var progress: Double?
    /// The headline banner's action buttons' labels, the primary first.
    package var actions: [String]?
    /// Banners waiting, all monitors together.
    package var queue: Int
    package var owner: Owner?
    package var monitors: [MonitorStatus]
    /// The banners held back (`"held": "sharing"`: private ones while the screen is shared),
    /// oldest first; absent when none is.
    package var waiting: [HeldBannerStatus]?

    package init(_ status: OwnerStatus?) {
        let monitors = status?.monitors ?? []
        let headline = monitors.first { $0.primary && $0.title != nil } ?? monitors.first { $0.title != nil }
        presented = headline?.presented ?? false
        title = headline?.title
        subtitle = headline?.subtitle
        id = headline?.id
        monitor = headline?.monitor
        height = headline?.height
        compact = headline?.compact
        mode = headline?.mode
        remaining = headline?.remaining
        hidden = headline?.hidden
        style = headline?.style
        progress = headline?.progress
        actions = headline?.actions
        queue = monitors.reduce(0) { $0 + $1.queue }
        owner = status.map { Owner(pid: $0.pid, display: $0.display) }
        self.monitors = monitors
        waiting = status?.waiting
    }

    /// The report as one compact JSON line (`status --follow --json`).
    package var jsonLine: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: (try? encoder.encode(self)) ?? Data("{}".utf8), as: UTF8.self)
    }

    package var text: String {
        guard let owner else { return "no banner (no owner running)" }
        var lines = ["owner: pid \(owner.pid) on \(owner.display)"]
        for monitor in monitors {
            let name = monitor.monitor + (monitor.primary ? " (primary)" : "")
            guard let title = monitor.title else {
                lines.append("\(name): no banner")
                continue
            }
            var details = [monitor.mode ?? "sticky"]
            if let remaining = monitor.remaining { details.append("\(BannerFont.format(remaining)) s left") }
            if let height = monitor.height { details.append("\(height) px") }
            if monitor.compact == true { details.append("compact") }
            if monitor.hidden == "locked" { details.append("hidden: the screen is locked") }
            if let id = monitor.id { details.append("id \(id.printable)") }
            if let actions = monitor.actions { details.append("actions " + actions.map { "\"\($0.printable)\"" }.joined(separator: " / ")) }
            details.append("queue \(monitor.queue)")
            let text = monitor.subtitle.map { "\"\(title.printable)\" / \"\($0.printable)\"" } ?? "\"\(title.printable)\""
            lines.append("\(name): \(text) — \(details.joined(separator: ", "))")
        }
        for held in waiting ?? [] {
            let text = held.subtitle.map { "\"\(held.title.printable)\" / \"\($0.printable)\"" } ?? "\"\(held.title.printable)\""
            let why = held.held == "sharing" ? "held while the screen is shared" : "held (\(held.held.printable))"
            lines.append("\(why): \(text)" + (held.id.map { ", id \($0.printable)" } ?? "") + " on \(held.monitors.joined(separator: ", "))")
        }
        return lines.joined(separator: "\n")
    }
}
