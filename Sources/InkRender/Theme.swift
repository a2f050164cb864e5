import Foundation
import InkModel

/// A colour with straight (non-premultiplied) alpha, components 0...1.
public struct RGBA: Hashable, Sendable {
    public var r: Double, g: Double, b: Double, a: Double
    public init(r: Double, g: Double, b: Double, a: Double = 1) { self.r = r; self.g = g; self.b = b; self.a = a }

    /// Parses "#rgb", "#rrggbb" or "#rrggbbaa"; nil for anything else.
    public init?(hex: String) {
        var s = Substring(hex.trimmingCharacters(in: .whitespaces))
        guard s.first == "#" else { return nil }
        s = s.dropFirst()
        if s.count == 3 { s = Substring(s.map { "\($0)\($0)" }.joined()) }
        guard s.count == 6 || s.count == 8, let v = UInt32(s, radix: 16) else { return nil }
        let full = s.count == 6 ? (v << 8) | 0xff : v
        r = Double((full >> 24) & 0xff) / 255; g = Double((full >> 16) & 0xff) / 255
        b = Double((full >> 8) & 0xff) / 255; a = Double(full & 0xff) / 255
    }

    public static let black = RGBA(r: 0, g: 0, b: 0)
    public static let white = RGBA(r: 1, g: 1, b: 1)

    public func withAlpha(_ alpha: Double) -> RGBA { RGBA(r: r, g: g, b: b, a: alpha) }
}

/// Colours, widths and fonts of everything the renderer draws.
///
/// Loaded from `Resources/theme.json`; `Theme(json:base:)` merges a partial JSON object over another
/// theme so that applications override only what they care about. Widths and sizes are millimetres.
public struct Theme: Hashable, Sendable {
    public var background: RGBA
    public var penColor: RGBA
    public var penWidth: Double
    public var highlighterColor: RGBA
    public var highlighterWidth: Double
    /// Opacity of highlighter ink, applied on top of the colour's own alpha.
    public var highlighterAlpha: Double
    public var guideColor: RGBA
    public var guideWidth: Double
    /// Space kept free at the left and right of Text blocks; the left margin line is drawn there.
    public var margin: Double
    public var marginColor: RGBA
    public var selectionColor: RGBA
    public var selectionFillAlpha: Double
    /// Selection outline width in view pixels (it should not grow with zoom).
    public var selectionWidth: Double
    public var lassoColor: RGBA
    public var lassoFillAlpha: Double
    public var lassoWidth: Double
    public var textColor: RGBA
    public var textFont: FontSpec
    /// The solver's results beside math (`math.answer`).
    public var mathAnswerColor: RGBA
    /// Math diagnostics (division by zero, …) (`math.error`).
    public var mathErrorColor: RGBA
    public var placeholderColor: RGBA
    public var placeholderCrossColor: RGBA
    public var debugBlockColor: RGBA
    public var debugWordColor: RGBA
    public var debugCharColor: RGBA
    public var debugBaselineColor: RGBA
    public var debugLabelColor: RGBA
    public var debugFont: FontSpec

    /// The theme compiled into the library, identical to the shipped `Resources/theme.json`; used
    /// when the resource cannot be found so that rendering never depends on the file system.
    public static let builtIn: Theme = {
        // The literal is valid by construction; a failure here is a programming error caught by tests.
        (try? Theme(object: builtInJSON)) ?? Theme(fallback: ())
    }()

    /// `Resources/theme.json` merged over `builtIn`; `builtIn` if the file is missing or invalid.
    public static let `default`: Theme = {
        guard let url = try? QuireResources.url("theme.json"), let data = try? Data(contentsOf: url),
              let t = try? Theme(json: data, base: builtIn) else { return builtIn }
        return t
    }()

    /// Merges a (possibly partial) JSON theme object over `base`.
    public init(json: Data, base: Theme = .default) throws {
        let v = try JSONValue.parse(json, what: "theme")
        guard case .object = v else { throw QuireError(.invalidJSON, "a theme must be a JSON object") }
        try self.init(object: Theme.merge(base.jsonObject, v))
    }

    /// Same as `init(json:base:)` with the JSON as a string.
    public init(json: String, base: Theme = .default) throws {
        try self.init(json: Data(json.utf8), base: base)
    }

    private init(fallback: Void) {
        background = .white; penColor = .black; penWidth = 0.6
        highlighterColor = RGBA(r: 1, g: 0.83, b: 0); highlighterWidth = 5; highlighterAlpha = 0.4
        guideColor = RGBA(r: 0.7, g: 0.8, b: 0.9); guideWidth = 0.15; margin = 4
        marginColor = RGBA(r: 0.9, g: 0.7, b: 0.7)
        selectionColor = RGBA(r: 0.18, g: 0.49, b: 0.88); selectionFillAlpha = 0.12; selectionWidth = 1.5
        lassoColor = selectionColor; lassoFillAlpha = 0.08; lassoWidth = 1
        textColor = RGBA(r: 0.12, g: 0.12, b: 0.12); textFont = FontSpec(family: "DejaVu Sans", size: 5)
        mathAnswerColor = RGBA(r: 0.1, g: 0.5, b: 0.22); mathErrorColor = RGBA(r: 0.75, g: 0.22, b: 0.17)
        placeholderColor = RGBA(r: 0.78, g: 0.78, b: 0.78); placeholderCrossColor = RGBA(r: 0.5, g: 0.5, b: 0.5)
        debugBlockColor = RGBA(r: 0.6, g: 0.35, b: 0.7); debugWordColor = RGBA(r: 0.9, g: 0.5, b: 0.13)
        debugCharColor = RGBA(r: 0.15, g: 0.68, b: 0.38); debugBaselineColor = RGBA(r: 0.9, g: 0.3, b: 0.24)
        debugLabelColor = RGBA(r: 0.75, g: 0.22, b: 0.17); debugFont = FontSpec(family: "DejaVu Sans", size: 2.2)
    }

    private init(object v: JSONValue) throws {
        func color(_ path: [String]) throws -> RGBA {
            guard let s = Theme.lookup(v, path)?.stringValue, let c = RGBA(hex: s) else {
                throw QuireError(.invalidArgument, "theme: '\(path.joined(separator: "."))' must be a colour like \"#rrggbb\"")
            }
            return c
        }
        func number(_ path: [String], _ range: ClosedRange<Double>) throws -> Double {
            guard let n = Theme.lookup(v, path)?.doubleValue, n.isFinite, range.contains(n) else {
                throw QuireError(.invalidArgument, "theme: '\(path.joined(separator: "."))' must be a number in \(range)")
            }
            return n
        }
        func font(_ path: [String]) throws -> FontSpec {
            guard let family = Theme.lookup(v, path + ["family"])?.stringValue, !family.isEmpty else {
                throw QuireError(.invalidArgument, "theme: '\((path + ["family"]).joined(separator: "."))' must be a font family")
            }
            return FontSpec(family: family, size: try number(path + ["size"], 0.1...500),
                            bold: Theme.lookup(v, path + ["bold"])?.boolValue ?? false,
                            italic: Theme.lookup(v, path + ["italic"])?.boolValue ?? false)
        }
        background = try color(["background"])
        penColor = try color(["pen", "color"]); penWidth = try number(["pen", "width"], 0.01...100)
        highlighterColor = try color(["highlighter", "color"])
        highlighterWidth = try number(["highlighter", "width"], 0.01...100)
        highlighterAlpha = try number(["highlighter", "alpha"], 0...1)
        guideColor = try color(["guides", "color"]); guideWidth = try number(["guides", "width"], 0.001...10)
        margin = try number(["guides", "margin"], 0...1000); marginColor = try color(["guides", "margin-color"])
        selectionColor = try color(["selection", "color"])
        selectionFillAlpha = try number(["selection", "fill-alpha"], 0...1)
        selectionWidth = try number(["selection", "width"], 0...100)
        lassoColor = try color(["lasso", "color"]); lassoFillAlpha = try number(["lasso", "fill-alpha"], 0...1)
        lassoWidth = try number(["lasso", "width"], 0...100)
        textColor = try color(["text", "color"]); textFont = try font(["text", "font"])
        mathAnswerColor = try color(["math", "answer"]); mathErrorColor = try color(["math", "error"])
        placeholderColor = try color(["image", "placeholder"])
        placeholderCrossColor = try color(["image", "placeholder-cross"])
        debugBlockColor = try color(["debug", "block"]); debugWordColor = try color(["debug", "word"])
        debugCharColor = try color(["debug", "char"]); debugBaselineColor = try color(["debug", "baseline"])
        debugLabelColor = try color(["debug", "label"]); debugFont = try font(["debug", "font"])
    }

    private static func lookup(_ v: JSONValue, _ path: [String]) -> JSONValue? {
        var cur: JSONValue? = v
        for k in path { cur = cur?[k] }
        return cur
    }

    /// Deep merge: objects merge key by key, anything else in `over` replaces.
    static func merge(_ base: JSONValue, _ over: JSONValue) -> JSONValue {
        guard case .object(var b) = base, case .object(let o) = over else { return over }
        for (k, v) in o { b[k] = b[k].map { merge($0, v) } ?? v }
        return .object(b)
    }

    /// This theme as a JSON object in the `theme.json` format.
    public var jsonObject: JSONValue {
        func c(_ x: RGBA) -> JSONValue {
            let v = [x.r, x.g, x.b, x.a].map { Int(($0 * 255).rounded()) }
            return .string(v[3] == 255 ? String(format: "#%02x%02x%02x", v[0], v[1], v[2])
                                       : String(format: "#%02x%02x%02x%02x", v[0], v[1], v[2], v[3]))
        }
        func f(_ s: FontSpec) -> JSONValue {
            .object(["family": .string(s.family), "size": .number(s.size), "bold": .bool(s.bold), "italic": .bool(s.italic)])
        }
        return .object([
            "background": c(background),
            "pen": .object(["color": c(penColor), "width": .number(penWidth)]),
            "highlighter": .object(["color": c(highlighterColor), "width": .number(highlighterWidth),
                                    "alpha": .number(highlighterAlpha)]),
            "guides": .object(["color": c(guideColor), "width": .number(guideWidth), "margin": .number(margin),
                               "margin-color": c(marginColor)]),
            "selection": .object(["color": c(selectionColor), "fill-alpha": .number(selectionFillAlpha),
                                  "width": .number(selectionWidth)]),
            "lasso": .object(["color": c(lassoColor), "fill-alpha": .number(lassoFillAlpha), "width": .number(lassoWidth)]),
            "text": .object(["color": c(textColor), "font": f(textFont)]),
            "math": .object(["answer": c(mathAnswerColor), "error": c(mathErrorColor)]),
            "image": .object(["placeholder": c(placeholderColor), "placeholder-cross": c(placeholderCrossColor)]),
            "debug": .object(["block": c(debugBlockColor), "word": c(debugWordColor), "char": c(debugCharColor),
                              "baseline": c(debugBaselineColor), "label": c(debugLabelColor), "font": f(debugFont)]),
        ])
    }

    /// The colour of a stroke: its own, or the theme's for its tool.
    func color(of stroke: InkStroke) -> RGBA { color(tool: stroke.tool, color: stroke.color) }

    func color(tool: String, color: String) -> RGBA {
        if !color.isEmpty, let c = RGBA(hex: color) { return c }
        return tool == "highlighter" ? highlighterColor : penColor
    }

    func width(tool: String, width: Float) -> Double {
        if width > 0, width.isFinite { return Double(width) }
        return tool == "highlighter" ? highlighterWidth : penWidth
    }
}

private let builtInJSON: JSONValue = .object([
    "background": .string("#ffffff"),
    "pen": .object(["color": .string("#1a1a2e"), "width": .number(0.6)]),
    "highlighter": .object(["color": .string("#ffd400"), "width": .number(5), "alpha": .number(0.4)]),
    "guides": .object(["color": .string("#b7c9e2"), "width": .number(0.15), "margin": .number(4),
                       "margin-color": .string("#e8b4b4")]),
    "selection": .object(["color": .string("#2f7de1"), "fill-alpha": .number(0.12), "width": .number(1.5)]),
    "lasso": .object(["color": .string("#2f7de1"), "fill-alpha": .number(0.08), "width": .number(1)]),
    "text": .object(["color": .string("#202020"),
                     "font": .object(["family": .string("DejaVu Sans"), "size": .number(5)])]),
    "math": .object(["answer": .string("#1a7f37"), "error": .string("#c0392b")]),
    "image": .object(["placeholder": .string("#c8c8c8"), "placeholder-cross": .string("#808080")]),
    "debug": .object(["block": .string("#9b59b6"), "word": .string("#e67e22"), "char": .string("#27ae60"),
                      "baseline": .string("#e74c3c"), "label": .string("#c0392b"),
                      "font": .object(["family": .string("DejaVu Sans"), "size": .number(2.2)])]),
])
