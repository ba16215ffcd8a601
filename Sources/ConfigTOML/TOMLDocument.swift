// A TOML document as toml++ (Debian's libtomlplusplus, through CTomlPlusPlus) parsed it, in one
// pass: every value with the line its key is written on, each table's entries in file order.
// The reader asks it for values by key and for the line of a key path; a syntax error comes
// with toml++'s own line and column.

import CTomlPlusPlus

/// One value of the document.
final class TOMLNode {
    enum Kind: Sendable {
        case table, array, string, integer, float, boolean, date, time, dateTime
    }

    let kind: Kind
    /// Where its key is written (an array element: where it is), 1-based.
    let line: Int
    private(set) var string: String?
    private(set) var integer: Int64?
    private(set) var float: Double?
    private(set) var boolean: Bool?
    /// A table's entries, in the order their keys are written.
    fileprivate(set) var entries: [(key: String, node: TOMLNode)] = []
    /// An array's elements.
    fileprivate(set) var elements: [TOMLNode] = []

    fileprivate init(_ node: wbtoml_node) {
        line = Int(node.line)
        switch node.kind {
        case WBTOML_TABLE: kind = .table
        case WBTOML_ARRAY: kind = .array
        case WBTOML_STRING:
            kind = .string
            string = node.string.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: node.string_length), as: UTF8.self) } ?? ""
        case WBTOML_INTEGER:
            kind = .integer
            integer = node.integer
        case WBTOML_FLOAT:
            kind = .float
            float = node.floating
        case WBTOML_BOOLEAN:
            kind = .boolean
            boolean = node.boolean != 0
        case WBTOML_DATE: kind = .date
        case WBTOML_TIME: kind = .time
        default: kind = .dateTime
        }
    }

    fileprivate init(rootTable: ()) {
        kind = .table
        line = 1
    }

    /// A table's entry.
    subscript(key: String) -> TOMLNode? { entries.first { $0.key == key }?.node }
    /// The table's keys, in the order they are written.
    var keys: [String] { entries.map(\.key) }
    var table: TOMLNode? { kind == .table ? self : nil }
    var array: [TOMLNode]? { kind == .array ? elements : nil }
}

/// A parsed document: its root table and where each key path is written.
struct TOMLDocument {
    let root: TOMLNode
    private let lineOfPath: [[String]: Int]

    /// Why a text is no TOML: toml++'s description and position.
    struct SyntaxError: Error {
        let message: String
        let line: Int?
        let column: Int?
    }

    /// Parses `text`.
    init(parsing text: String) throws(SyntaxError) {
        final class Builder {
            let root = TOMLNode(rootTable: ())
            /// The open tables and arrays by depth (0: the root), and their key paths.
            var open: [(node: TOMLNode, path: [String])] = []
            var lineOfPath: [[String]: Int] = [:]
            init() { open = [(root, [])] }

            func add(_ raw: wbtoml_node) {
                let depth = Int(raw.depth)
                guard depth >= 1, depth <= open.count else { return }
                open.removeSubrange(depth...)
                let node = TOMLNode(raw)
                let parent = open[depth - 1]
                var path = parent.path
                if let key = raw.key {
                    let name = String(decoding: UnsafeRawBufferPointer(start: key, count: raw.key_length), as: UTF8.self)
                    path.append(name)
                    parent.node.entries.append((name, node))
                    lineOfPath[path] = node.line
                } else {
                    parent.node.elements.append(node)
                }
                if node.kind == .table || node.kind == .array { open.append((node, path)) }
            }
        }
        let builder = Builder()
        var message = [CChar](repeating: 0, count: 512)
        var line: UInt32 = 0
        var column: UInt32 = 0
        var utf8 = text
        let parsed = utf8.withUTF8 { bytes in
            withExtendedLifetime(builder) {
                wbtoml_parse(
                    bytes.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }, bytes.count,
                    { node, context in
                        guard let node, let context else { return }
                        Unmanaged<Builder>.fromOpaque(context).takeUnretainedValue().add(node.pointee)
                    },
                    Unmanaged.passUnretained(builder).toOpaque(), &message, message.count, &line, &column)
            }
        }
        guard parsed == 1 else {
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw SyntaxError(message: text, line: line > 0 ? Int(line) : nil, column: column > 0 ? Int(column) : nil)
        }
        root = builder.root
        lineOfPath = builder.lineOfPath
    }

    /// The 1-based line of the key at `path`, or of its nearest written ancestor.
    func line(of path: [String]) -> Int? {
        var prefix = path[...]
        while !prefix.isEmpty {
            if let line = lineOfPath[Array(prefix)] { return line }
            prefix = prefix.dropLast()
        }
        return nil
    }
}
