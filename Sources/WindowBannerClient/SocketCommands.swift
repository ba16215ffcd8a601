// `show`, `dismiss` and `status`: one short command each for scripts. They hand the request to
// the display's owner process (starting it for `show`) and turn its answer into output and an
// exit code; the owner keeps the banner after they return.

import ArgumentParser
import BannerConfig
import BannerCore
import OwnerIPC
import OwnerProtocol
import ShowArguments
import Spawning

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

package struct DismissCommand: ParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "dismiss",
        abstract: "Slide the visible banner away (the next queued one, if any, takes its place).",
        discussion: """
        Without options: the visible banner on every monitor. Exits 0 also when there was \
        nothing to dismiss or no owner runs. Exit codes: 64 bad usage; 75 owner not reachable; \
        76 protocol version mismatch.
        """
    )

    @Option(parsing: .unconditional, help: ArgumentHelp("Only this monitor: a RandR monitor name, 'primary' or 'all'.", valueName: "name"))
    package var monitor: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Only banners shown with --id KEY, visible or queued.", valueName: "key"))
    package var id: String?

    @Flag(help: "Also clear the queue.")
    package var all = false

    @Flag(help: "Dismiss everything and stop the owner process.")
    package var quit = false

    @OptionGroup package var connection: ConnectionOptions

    package func run() throws {
        let fields = DismissRequest(monitor: monitor, id: id, all: all || quit)
        let request = OwnerRequest(quit ? .quit(fields) : .dismiss(fields))
        do {
            guard let exchange = try connection.client().exchange(request, start: false, configPath: nil) else { return }
            exchange.close()
            if let error = exchange.response.error { throw OwnerClient.failure(error) }
        } catch let failure as CommandFailure {
            throw failure.exit
        }
    }
}

package struct StatusCommand: ParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Print what the owner shows: banner, monitor, height, mode, remaining time, queue.",
        discussion: """
        Does not start an owner: with none running it reports no banner. The top-level JSON \
        fields describe the primary monitor's banner (or the first monitor showing one); \
        `monitors` lists each. --follow keeps running for a status bar: one line now, one per \
        change, and across owners that stop and start (docs/status-bars.md); --waybar prints \
        what waybar's custom module reads. Exit codes: 0 \
        (also when nothing shows, and for --follow on SIGINT, SIGTERM or a closed output); 64 \
        bad --format, or --waybar with --json or --format; 75 owner not reachable or silent; \
        76 protocol version mismatch.
        """
    )

    @Flag(help: "Print JSON instead of text.")
    package var json = false

    @Flag(help: "Keep running: a line now and one whenever the banner changes; never starts an owner, waits for the next one.")
    package var follow = false

    @Option(parsing: .unconditional, help: ArgumentHelp("One line from a template: {title} {subtitle} {style} {id} {remaining} {queue} {progress} {hidden}; empty when nothing shows.", valueName: "template"))
    package var format: String?

    @Flag(help: "Print waybar's JSON (a custom module with \"return-type\": \"json\"): text, tooltip, class, alt, percentage; markup-escaped.")
    package var waybar = false

    @OptionGroup package var connection: ConnectionOptions

    package func validate() throws {
        if json, format != nil { throw ValidationError("--format cannot be combined with --json") }
        if waybar, json || format != nil { throw ValidationError("--waybar cannot be combined with --\(json ? "json" : "format")") }
        if let format {
            do {
                _ = try StatusFormat(format)
            } catch {
                throw ValidationError(error.message)
            }
        }
    }

    package func run() throws {
        do {
            let template = try format.map(StatusFormat.init)
            if follow {
                let line: (OwnerStatus?) -> String = waybar ? { WaybarStatus($0).line } : json ? { StatusReport($0).jsonLine } : { (template ?? .title).line(for: $0) }
                let code = try StatusFollower(paths: try OwnerPaths.forDisplay(connection.display), timeout: try connection.replyTimeout(environment: processEnvironment()), line: line).run()
                throw ExitCode(code)
            }
            let status: OwnerStatus?
            let exchange = try connection.client().exchange(.status, start: false, configPath: nil)
            exchange?.close()
            if let error = exchange?.response.error { throw OwnerClient.failure(error) }
            status = exchange?.response.status
            if let template {
                print(template.line(for: status))
                return
            }
            if waybar {
                print(WaybarStatus(status).line)
                return
            }
            output(StatusReport(status))
        } catch let failure as CommandFailure {
            throw failure.exit
        }
    }

    private func output(_ report: StatusReport) {
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
            print(String(decoding: (try? encoder.encode(report)) ?? Data("{}".utf8), as: UTF8.self))
        } else {
            print(report.text)
        }
    }
}

package struct StatsCommand: ParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Print how often each banner key was shown and how its banners ended.",
        discussion: """
        A banner counts under its --id, else its --style, else "-". Counts survive owner \
        restarts ($XDG_STATE_HOME/window-banner/stats.json); with no owner running the file is \
        read directly. The \(BannerStats.maximumKeys) keys used most recently are kept. Columns: \
        shown, then one per way a banner ends (clicked, closed, swiped, action, \
        secondary-action, timeout, dismissed, replaced). Exit codes: 0; 75 owner not reachable; \
        76 protocol version mismatch.
        """
    )

    @Flag(help: "Print JSON instead of a table.")
    package var json = false

    @OptionGroup package var connection: ConnectionOptions

    package func run() throws {
        var keys: [String: BannerCounts] = [:]
        do {
            // Page by page, each the keys after the last one of the page before: the history
            // may hold more than one reply can carry.
            let client = try connection.client()
            var after: String?
            var asking = true
            var answered = false
            while asking, let exchange = try client.exchange(.stats(after: after), start: false, configPath: nil) {
                exchange.close()
                answered = true
                if let error = exchange.response.error { throw OwnerClient.failure(error) }
                let page = exchange.response.stats?.keys ?? [:]
                keys.merge(page) { $1 }
                after = page.keys.max()
                asking = exchange.response.more && after != nil
            }
            if !answered, let directory = OwnerStateFiles.defaultDirectory(environment: processEnvironment()) {
                switch OwnerStateFiles.stats(in: directory) {
                case .success(let stats): keys = stats.keys
                case .failure(let problem): Terminal.warning("\(directory)/stats.json is \(problem); the next owner keeps it aside")
                }
            }
        } catch let failure as CommandFailure {
            throw failure.exit
        }
        let stats = BannerStats(keys: keys)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
            print(String(decoding: (try? encoder.encode(stats)) ?? Data("{}".utf8), as: UTF8.self))
            return
        }
        let reasons: [BannerEndReason] = [.clicked, .closed, .swiped, .action, .secondaryAction, .timeout, .dismissed, .replaced]
        let header = ["key", "shown"] + reasons.map(\.rawValue)
        let rows = stats.keys.sorted { $0.key < $1.key }.map { key, counts in
            [key.printable, String(counts.impressions)] + reasons.map { String(counts.count($0)) }
        }
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        for row in [header] + rows {
            print(row.enumerated().map { column, text in
                column == 0 ? text.padding(toLength: widths[column]) : String(repeating: " ", count: widths[column] - text.count) + text
            }.joined(separator: "  "))
        }
    }
}

extension String {
    fileprivate func padding(toLength length: Int) -> String { self + String(repeating: " ", count: max(0, length - count)) }
}
