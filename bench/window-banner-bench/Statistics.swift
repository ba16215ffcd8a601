// Summaries of samples (min / median / max, mean and p99 where the issue asks for them), number
// formatting, and a small JSON writer: the benchmark's output without Foundation.

/// min / median / max (and mean, p99) of a set of samples.
struct Summary {
    let count: Int
    let min: Double
    let median: Double
    let max: Double
    let mean: Double
    let p99: Double

    init?(_ samples: [Double]) {
        guard !samples.isEmpty else { return nil }
        let sorted = samples.sorted()
        count = sorted.count
        min = sorted[0]
        max = sorted[sorted.count - 1]
        median = sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        mean = sorted.reduce(0, +) / Double(sorted.count)
        // Nearest rank: the smallest sample with at least 99 % of the samples at or below it.
        p99 = sorted[Swift.max(0, Int((0.99 * Double(sorted.count)).rounded(.up)) - 1)]
    }

    var json: JSON {
        .object([
            ("n", .number(Double(count))), ("min", .number(min)), ("median", .number(median)), ("max", .number(max)),
            ("mean", .number(mean)), ("p99", .number(p99)),
        ])
    }
}

/// `value` with `digits` decimals, without Foundation's String(format:).
func fixed(_ value: Double, _ digits: Int = 1) -> String {
    guard value.isFinite else { return "–" }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    let whole = Int(scaled / scale)
    var text = (value < 0 && scaled > 0 ? "-" : "") + String(whole)
    if digits > 0 {
        let fraction = String(Int(scaled) - whole * Int(scale))
        text += "." + String(repeating: "0", count: digits - fraction.count) + fraction
    }
    return text
}

/// A JSON value, written with two-space indentation.
indirect enum JSON {
    case number(Double)
    case string(String)
    case bool(Bool)
    case null
    case array([JSON])
    case object([(String, JSON)])

    func rendered(_ indent: String = "") -> String {
        let inner = indent + "  "
        switch self {
        case .number(let value):
            guard value.isFinite else { return "null" }
            return value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : fixed(value, 3)
        case .string(let text): return Self.quoted(text)
        case .bool(let value): return value ? "true" : "false"
        case .null: return "null"
        case .array(let values):
            if values.isEmpty { return "[]" }
            if values.allSatisfy({ if case .number = $0 { true } else { false } }) {
                return "[" + values.map { $0.rendered() }.joined(separator: ", ") + "]"
            }
            return "[\n" + values.map { inner + $0.rendered(inner) }.joined(separator: ",\n") + "\n" + indent + "]"
        case .object(let members):
            if members.isEmpty { return "{}" }
            return "{\n" + members.map { inner + Self.quoted($0.0) + ": " + $0.1.rendered(inner) }.joined(separator: ",\n") + "\n" + indent + "}"
        }
    }

    private static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
