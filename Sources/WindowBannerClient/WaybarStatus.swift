// `status --waybar`: the banner as waybar's `custom` module reads it with `"return-type":
// "json"` — one JSON object a line, whatever the title holds. waybar draws `text` and `tooltip`
// as Pango markup and only escapes them itself when told to (`"escape": true`, which waybar 0.9
// applies to `text` but not to `tooltip`), so both are escaped here: a title with `<`, `&` or
// quotes shows as typed and never breaks the bar.

import BannerCore
import OwnerIPC
import OwnerProtocol
import ShowArguments

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One state as waybar's custom module takes it (`waybar-custom(5)`, RETURN-TYPE).
package struct WaybarStatus: Encodable {
    /// The class and `alt` while no banner is shown.
    package static let noBanner = "none"
    /// The class every shown banner has, its style's name joining it.
    package static let banner = "banner"

    /// The title on one line, markup-escaped; empty (waybar hides the module) when none shows.
    package var text: String
    /// Title, subtitle and queue, a line each, markup-escaped; empty when none shows.
    package var tooltip: String
    /// The style's name (`offline`), `banner` for a banner without one, `none` with no banner:
    /// the key a `format-icons` object picks an icon by.
    package var alt: String
    /// CSS classes of the module: `none`; or `banner`, the style's name, and `locked` or
    /// `fullscreen` while the banner is presented but not on screen.
    package var `class`: [String]
    /// The progress bar in percent (`{percentage}`, `{icon}` from a `format-icons` list); absent
    /// without a progress bar.
    package var percentage: Int?

    /// The headline banner of `status` (nil: no owner), as `status --json` picks it.
    package init(_ status: OwnerStatus?) {
        let report = StatusReport(status)
        guard let title = report.title else {
            text = ""
            tooltip = ""
            alt = Self.noBanner
            `class` = [Self.noBanner]
            percentage = nil
            return
        }
        let style = report.style.map(StatusFormat.oneLine).flatMap { $0.isEmpty ? nil : $0 }
        text = Self.markup(StatusFormat.oneLine(title))
        var lines = [text]
        if let subtitle = report.subtitle { lines.append(Self.markup(StatusFormat.oneLine(subtitle))) }
        if report.queue > 0 { lines.append("\(report.queue) more queued") }
        switch report.hidden {
        case "locked": lines.append("hidden while the screen is locked")
        case "fullscreen": lines.append("waiting for a full-screen window to end")
        default: break
        }
        tooltip = lines.joined(separator: "\n")
        alt = style ?? Self.banner
        `class` = [Self.banner] + (style.map { [$0] } ?? []) + (report.hidden.map { [StatusFormat.oneLine($0)] } ?? [])
        percentage = report.progress.flatMap(StatusFormat.percent)
    }

    /// The object on one line: JSON's escapes keep quotes, backslashes and line breaks inside
    /// their strings, and the line has no raw line break of its own.
    package var line: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data(#"{"text":""}"#.utf8), as: UTF8.self)
    }

    /// `text` with the five characters Pango markup gives a meaning escaped, as GLib's
    /// `g_markup_escape_text` does.
    package static func markup(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "'": escaped += "&#39;"
            case "\"": escaped += "&quot;"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
