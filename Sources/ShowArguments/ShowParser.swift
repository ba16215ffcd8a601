// The one parser of `show` arguments as typed, for the client (`show` parsing while the owner it
// started loads) and the owner (`show-arguments`) alike: swift-argument-parser's ShowCommand,
// the display check, and the request built from them — one place, so both read a command line
// the same way (the ordinary path, `window-banner show` parsed as a command, runs the same
// ShowCommand). swift-argument-parser builds its whole parser by reflection on every parse —
// about a millisecond, most of what a warm `show` costs the owner before it draws. Scripts call
// `show` with the same flags over and over and vary only the text: so a parser that lives (the
// owner's) remembers the parse of each arrangement of flags, with the title, subtitle and
// progress left as placeholders, and fills in the values of the next call with that
// arrangement instead of parsing it again.
//
// The result is the parser's own: a first call of an arrangement is parsed in full (its errors
// word for word), and an arrangement is remembered only once a parse of it with placeholders
// put each placeholder where the value was (checked when nothing moves on screen, off the
// frame's way). The parser takes the value after these options as it is (`.unconditional`),
// so any other plain value there parses the same way; a value that could read as a flag or a
// help request is never replaced.

import OwnerIPC
import OwnerProtocol

package struct ShowParser: ShowArgumentsReader {
    package typealias Outcome = ShowArgumentsOutcome

    /// The options whose values change from call to call, and where each lands in the command.
    private static let variableOptions: [(option: String, value: any WritableKeyPath<ShowCommand, String?> & Sendable)] = [
        ("--title", \.appearance.title), ("--subtitle", \.appearance.subtitle), ("--progress", \.appearance.progress),
    ]

    /// Arrangements remembered at most: a script has a few; beyond that the oldest half goes.
    static let capacity = 32
    /// Arrangements waiting for their check at most.
    static let pendingCapacity = 4
    /// Longer argument lists are parsed every time and never kept.
    static let longestKept = 4096

    /// Arguments with placeholders → their parse.
    private var remembered: [[String]: ShowCommand] = [:]
    private var order: [[String]] = []
    /// Arrangements parsed once, to be checked by `learn()`.
    private var pending: [[String]] = []

    package init() {}

    /// `arguments` (what follows `show`) as `window-banner show` in `environment` and
    /// `directory` means them, for the owner of `display` (normalised, as OwnerPaths has it).
    package mutating func parse(_ arguments: [String], environment: [String: String], directory: String?, display: String) -> Outcome {
        let command: ShowCommand
        do {
            command = try self.command(for: arguments)
        } catch {
            guard ShowCommand.exitCode(for: error) != .success else { return .elsewhere }
            return .refused(ShowCommand.message(for: error).split(separator: "\n").joined(separator: " ") + " (see --help)")
        }
        guard let named = command.connection.display ?? OwnerPaths.sessionDisplay({ environment[$0] }),
              OwnerPaths.normalise(named) == display else { return .elsewhere }
        do {
            guard let show = try command.request(environment: environment, directory: directory).show else { return .elsewhere }
            return .request(show)
        } catch {
            return .refused(error.message)
        }
    }

    /// `arguments` parsed as `ShowCommand.parse` parses them; throws what it throws.
    mutating func command(for arguments: [String]) throws -> ShowCommand {
        guard let arrangement = Self.arrangement(of: arguments) else { return try ShowCommand.parse(arguments) }
        if var command = remembered[arrangement.placeholders] {
            for (slot, value) in arrangement.values { command[keyPath: Self.variableOptions[slot].value] = Optional(value) }
            return command
        }
        let command = try ShowCommand.parse(arguments)
        if arrangement.values.isEmpty {
            remember(command, for: arguments)
        } else if !pending.contains(arrangement.placeholders), pending.count < Self.pendingCapacity {
            pending.append(arrangement.placeholders)
        }
        return command
    }

    /// Checks the arrangements parsed since the last call: each is remembered when its
    /// placeholders parse into the options they stand for. Meant for when nothing moves.
    package mutating func learn() {
        let checking = pending
        pending = []
        for placeholders in checking where remembered[placeholders] == nil {
            guard let command = try? ShowCommand.parse(placeholders) else { continue }
            let landed = Self.variableOptions.indices.allSatisfy { slot in
                let placeholder = Self.placeholder(slot)
                let present = placeholders.contains { $0 == placeholder || $0.hasSuffix("=" + placeholder) }
                return (command[keyPath: Self.variableOptions[slot].value] == placeholder) == present
            }
            if landed { remember(command, for: placeholders) }
        }
    }

    private mutating func remember(_ command: ShowCommand, for key: [String]) {
        if remembered.count >= Self.capacity {
            for old in order.prefix(Self.capacity / 2) { remembered[old] = nil }
            order.removeFirst(Self.capacity / 2)
        }
        remembered[key] = command
        order.append(key)
    }

    /// A value no argument can hold (argv strings end at their first NUL), so it is never
    /// mistaken for a real one.
    private static func placeholder(_ slot: Int) -> String { "\u{0}\(slot)" }

    /// `arguments` with the value of each variable option replaced by its placeholder, and the
    /// values taken out (by slot); nil when these arguments are not for remembering: an option
    /// given twice, a value that is empty or reads as a flag or a help request, or a list too long.
    static func arrangement(of arguments: [String]) -> (placeholders: [String], values: [(slot: Int, value: String)])? {
        guard arguments.reduce(0, { $0 + $1.utf8.count }) <= longestKept else { return nil }
        var placeholders = arguments
        var values: [(slot: Int, value: String)] = []
        var index = arguments.startIndex
        while index < arguments.endIndex, arguments[index] != "--" {
            let argument = arguments[index]
            for (slot, variable) in variableOptions.enumerated() {
                var value: String?
                if argument == variable.option {
                    guard index + 1 < arguments.endIndex else { return nil }
                    index += 1
                    value = arguments[index]
                    placeholders[index] = placeholder(slot)
                } else if argument.hasPrefix(variable.option + "=") {
                    value = String(argument.dropFirst(variable.option.count + 1))
                    placeholders[index] = variable.option + "=" + placeholder(slot)
                }
                guard let value else { continue }
                // Empty: the parser takes `--subtitle=` with the next argument as its value.
                guard !values.contains(where: { $0.slot == slot }), !value.isEmpty, !value.hasPrefix("-"), value != "help",
                      !value.contains("\u{0}") else { return nil }
                values.append((slot, value))
                break
            }
            index += 1
        }
        return (placeholders, values)
    }
}
