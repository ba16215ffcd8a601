// How an owner describes a banner to the client that replaces it (`handover`): as the
// `window-banner show` arguments that show it again. The command line is the one interface
// every version keeps, so an owner of any version can describe its banners to a client of any
// later one, which sends them on to the new owner as `show-arguments`.

import BannerCore

extension Handover {
    /// `request` (the fields of a `show`, as received) as the arguments of a `show` on
    /// `display` that brings the banner back: in `mode` (a transient banner's remaining time),
    /// behind the banner before it when `enqueue`. Neither `--once` (already counted) nor
    /// `--wait` (the waiting client stays with the old owner) is repeated.
    public static func describe(
        _ request: ShowRequest, environment: [String: String]?, display: String, mode: BannerMode, enqueue: Bool
    ) -> ShowArgumentsRequest {
        var arguments: [String] = []
        for (name, keyPath) in AppearanceSettings.fields {
            guard let value = request.settings[keyPath: keyPath] else { continue }
            switch name {
            // The two on/off settings are flags: `--close-button` or `--no-close-button`.
            case "close-button", "reduce-motion":
                arguments.append(value == "true" ? "--\(name)" : "--no-\(name)")
            // The secondary action is the second `--action` (the primary one comes first).
            case "secondary-action":
                arguments += ["--action", value]
            default:
                arguments += ["--\(name)", value]
            }
        }
        if let style = request.style { arguments += ["--style", style] }
        switch mode {
        case .sticky: arguments.append("--sticky")
        case .transient(let seconds): arguments += ["--timeout", BannerFont.format(seconds)]
        }
        arguments += ["--monitor", request.monitor, "--display", display]
        if let id = request.id { arguments += ["--id", id] }
        if enqueue { arguments.append("--enqueue") }
        if request.private == true { arguments.append("--private") }
        if request.configPath == nil { arguments.append("--no-config") }
        if let command = request.onClick { arguments += ["--on-click", "--"] + command }
        let variables = (environment ?? [:]).merging(request.locale ?? [:]) { $1 }
        return ShowArgumentsRequest(arguments: arguments, environment: variables, directory: request.directory)
    }
}
