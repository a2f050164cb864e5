import Foundation
import InkModel

/// One channel of an InkML `traceFormat`, with what `channelProperties` says about it.
struct InkMLChannel: Sendable {
    var name: String
    var type: String = "decimal"
    var units: String?
    var defaultValue: Double = 0
    var min: Double?
    var max: Double?
    /// "-ve": the axis points the other way (Y up).
    var negative = false
    var intermittent = false
    /// Values per unit (`resolution`, e.g. 1000 per "in").
    var resolution: (value: Double, units: String)?

    /// Millimetres per value for X and Y, or nil when neither units nor a resolution say.
    /// Integer channels with a resolution count device steps whatever their `units` say:
    /// Windows Journal writes units="cm" with "1000 per cm" and values in 1/1000 cm.
    var millimetresPerValue: Double? {
        let stepped = resolution.flatMap { r in r.value > 0 ? InkMLUnits.perLength(r.units).map { $0 / r.value } : nil }
        if type == "integer", let stepped { return stepped }
        if let u = units?.lowercased(), u != "dev", u != "px", let mm = InkMLUnits.millimetres(u) { return mm }
        if let stepped { return stepped }
        if units?.lowercased() == "px" { return 25.4 / 96 }
        return nil
    }

    /// Milliseconds per value for T ("s", "ms"; no units: milliseconds, as Quire has always read it).
    var millisecondsPerValue: Double {
        switch units?.lowercased() {
        case "s", "sec": 1000
        case "us", "µs", "microsecond": 0.001
        case "min": 60_000
        default: 1
        }
    }
}

/// Length units of InkML (§ 4.1.3) in millimetres.
enum InkMLUnits {
    static func millimetres(_ units: String) -> Double? {
        switch units.lowercased() {
        case "mm": 1
        case "cm": 10
        case "m": 1000
        case "in", "inch": 25.4
        case "pt": 25.4 / 72
        case "pc": 25.4 / 6
        case "px": 25.4 / 96
        case "himetric": 0.01
        case "um", "µm": 0.001
        default: nil
        }
    }

    /// The length of one unit of a resolution's units ("1/in" -> 25.4), millimetres.
    static func perLength(_ units: String) -> Double? {
        var u = units.trimmingCharacters(in: .whitespaces)
        if u.hasPrefix("1/") { u.removeFirst(2) }
        if u.lowercased() == "dev" { return nil }
        return millimetres(u)
    }
}

/// Decodes the points of one `<trace>`: explicit values, first (') and second (") differences,
/// `!` back to explicit, `?` (unknown), `*` (as before), T/F for booleans, numbers in any
/// notation Double reads, written with or without spaces between them ("3-5" is 3 and -5).
struct InkMLTraceDecoder {
    enum Mode { case explicit, first, second }
    let channels: [InkMLChannel]
    let regular: Int
    private var mode: [Mode]
    private var last: [Double?]
    private var beforeLast: [Double?]
    private var lastCoded: [Double]
    /// Per point decoded, each channel's value as an exact integer where the trace wrote it as an
    /// explicit integer literal (times: a Double loses milliseconds beyond 2^53, and Quire's own
    /// export may hold any Int64 time); nil otherwise.
    private(set) var exact: [[Int64?]] = []

    init(channels: [InkMLChannel]) {
        self.channels = channels
        regular = channels.filter { !$0.intermittent }.count
        mode = Array(repeating: .explicit, count: channels.count)
        last = Array(repeating: nil, count: channels.count)
        beforeLast = Array(repeating: nil, count: channels.count)
        lastCoded = Array(repeating: 0, count: channels.count)
    }

    /// One value per channel for each point; nil for an intermittent channel never given.
    mutating func decode(_ text: String, describe: (String) -> String) throws -> [[Double?]] {
        var out: [[Double?]] = []
        let bytes = Array(text.utf8)
        var start = 0
        var k = 0
        while start <= bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: ",") { end += 1 }
            let slice = bytes[start..<end]
            if slice.contains(where: { !Self.isSpace($0) }) {
                out.append(try point(slice, index: k, describe: describe))
                k += 1
            } else if end < bytes.count {
                throw QuireError(.importError, describe("point \(k + 1) is empty (two commas in a row)"))
            }
            start = end + 1
        }
        return out
    }

    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

    private enum Token { case number(Double, exact: Int64?), unknown, same }

    private mutating func point(_ s: ArraySlice<UInt8>, index k: Int, describe: (String) -> String) throws -> [Double?] {
        var values: [(Mode?, Token)] = []
        var pending: Mode?
        var i = s.startIndex
        func bad(_ why: String) -> QuireError {
            let shown = String(decoding: s.prefix(60), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            return QuireError(.importError, describe("point \(k + 1) ('\(shown)'): \(why)"))
        }
        while i < s.endIndex {
            let c = s[i]
            if Self.isSpace(c) { i += 1; continue }
            switch c {
            case UInt8(ascii: "!"): pending = .explicit; i += 1; continue
            case UInt8(ascii: "'"): pending = .first; i += 1; continue
            case UInt8(ascii: "\""): pending = .second; i += 1; continue
            case UInt8(ascii: "?"): values.append((pending, .unknown)); i += 1
            case UInt8(ascii: "*"): values.append((pending, .same)); i += 1
            case UInt8(ascii: "T"): values.append((pending, .number(1, exact: nil))); i += 1
            case UInt8(ascii: "F"): values.append((pending, .number(0, exact: nil))); i += 1
            default:
                let j = Self.numberEnd(s, from: i)
                guard j > i, let v = Double(String(decoding: s[i..<j], as: UTF8.self)), v.isFinite else {
                    throw bad("'\(String(decoding: s[i..<min(s.endIndex, max(j, i + 1))], as: UTF8.self))' is not a number")
                }
                values.append((pending, .number(v, exact: Int64(String(decoding: s[i..<j], as: UTF8.self)))))
                i = j
            }
            pending = nil
        }
        guard values.count >= regular else {
            throw bad("\(values.count) value\(values.count == 1 ? "" : "s") for \(regular) channels (\(channels.prefix(regular).map(\.name).joined(separator: " ")))")
        }
        guard values.count <= channels.count else {
            throw bad("\(values.count) values for \(channels.count) channels (\(channels.map(\.name).joined(separator: " ")))")
        }
        var out: [Double?] = Array(repeating: nil, count: channels.count)
        var exactOut: [Int64?] = Array(repeating: nil, count: channels.count)
        defer { exact.append(exactOut) }
        for (c, (m, tok)) in values.enumerated() {
            if let m { mode[c] = m }
            let coded: Double?
            switch tok {
            case .number(let v, let e):
                coded = v
                if (m ?? mode[c]) == .explicit { exactOut[c] = e }
            case .same: coded = lastCoded[c]
            case .unknown: coded = nil
            }
            guard let coded else {
                // Unknown: the channel keeps its last value (or its default), differences stop.
                out[c] = last[c] ?? channels[c].defaultValue
                continue
            }
            lastCoded[c] = coded
            let prev = last[c] ?? 0
            let value: Double
            switch mode[c] {
            case .explicit: value = coded
            case .first: value = prev + coded
            case .second:
                let velocity = (last[c] != nil && beforeLast[c] != nil) ? prev - beforeLast[c]! : 0
                value = prev + velocity + coded
            }
            guard value.isFinite else { throw bad("channel \(channels[c].name) overflows") }
            beforeLast[c] = last[c]
            last[c] = value
            out[c] = value
        }
        // Intermittent channels left out keep the value they last had.
        for c in values.count..<channels.count { out[c] = last[c] }
        return out
    }

    /// Where a number starting at `i` ends: sign, digits, a point, digits, an exponent.
    static func numberEnd(_ s: ArraySlice<UInt8>, from start: Int) -> Int {
        var i = start
        func digit(_ k: Int) -> Bool { k < s.endIndex && s[k] >= 0x30 && s[k] <= 0x39 }
        if i < s.endIndex, s[i] == UInt8(ascii: "-") || s[i] == UInt8(ascii: "+") { i += 1 }
        var digits = 0
        while digit(i) { i += 1; digits += 1 }
        if i < s.endIndex, s[i] == UInt8(ascii: ".") { i += 1; while digit(i) { i += 1; digits += 1 } }
        guard digits > 0 else { return start }
        if i < s.endIndex, s[i] == UInt8(ascii: "e") || s[i] == UInt8(ascii: "E") {
            var j = i + 1
            if j < s.endIndex, s[j] == UInt8(ascii: "-") || s[j] == UInt8(ascii: "+") { j += 1 }
            if digit(j) { while digit(j) { j += 1 }; i = j }
        }
        return i
    }
}

/// Colours as InkML and Xournal++ write them, to Quire's "#rrggbb" / "#rrggbbaa".
enum InkColor {
    static let names: [String: String] = [
        "black": "#000000", "white": "#ffffff", "red": "#ff0000", "green": "#008000", "blue": "#0000ff",
        "yellow": "#ffff00", "orange": "#ffa500", "gray": "#808080", "grey": "#808080", "magenta": "#ff00ff",
        "cyan": "#00ffff", "purple": "#800080", "lightblue": "#add8e6", "lightgreen": "#90ee90", "pink": "#ffc0cb",
    ]

    /// "#RGB", "#RRGGBB", "#RRGGBBAA" or a colour name, lower-cased; nil if unreadable.
    static func normalized(_ s: String) -> String? {
        let t = s.trimmingCharacters(in: .whitespaces).lowercased()
        if let n = names[t] { return n }
        guard t.hasPrefix("#") else { return nil }
        let hex = t.dropFirst()
        guard hex.allSatisfy(\.isHexDigit) else { return nil }
        switch hex.count {
        case 3: return "#" + hex.map { "\($0)\($0)" }.joined()
        case 6, 8: return t
        default: return nil
        }
    }

    /// "#rrggbbaa" with the alpha dropped when opaque.
    static func withAlpha(_ rgb: String, _ alpha: Int) -> String {
        let base = String(rgb.prefix(7))
        return alpha >= 255 ? base : base + String(format: "%02x", max(0, alpha))
    }
}
