import Foundation
import Quire

/// The pens' choices: colours (the theme's ink colour first, then a fixed palette, then the
/// user's custom colour), widths, and the highlighter's colours. What the user picks for each
/// tool is kept in `$XDG_CONFIG_HOME/quire/pens.json` and set on the editor's `ToolController`,
/// so every stroke stores it and every export carries it.
struct PenPalette {
    struct Swatch: Equatable { var name: String; var color: String }

    /// Pen ink colours: the theme's pen colour leads (so a themed app writes in its own ink).
    static func penColors(theme: Theme) -> [Swatch] {
        [Swatch(name: "Ink", color: hex(theme.penColor)), Swatch(name: "Blue", color: "#1565c0"), Swatch(name: "Red", color: "#c62828"),
         Swatch(name: "Green", color: "#2e7d32"), Swatch(name: "Purple", color: "#6a1b9a"), Swatch(name: "Orange", color: "#ef6c00")]
    }

    /// Highlighter colours (translucent), the theme's first.
    static func highlighterColors(theme: Theme) -> [Swatch] {
        [Swatch(name: "Yellow", color: hex(theme.highlighterColor)), Swatch(name: "Green", color: "#76ff0380"),
         Swatch(name: "Pink", color: "#ff408180"), Swatch(name: "Blue", color: "#40c4ff80")]
    }

    /// Widths in millimetres by name, per tool.
    static func widths(for tool: Tool) -> [(String, Float)] {
        tool == .highlighter ? [("Narrow", 3), ("Medium", 5), ("Broad", 8)] : [("Fine", 0.35), ("Medium", 0.6), ("Bold", 1.2)]
    }

    /// The palette as menu items: colours (with the custom one) each with its swatch, the
    /// custom colour chooser, then widths; the current choices marked.
    static func menuItems(tool: Tool, style: (color: String, width: Float), theme: Theme, custom: String?) -> [OverlayMenu.Item] {
        var colors = tool == .highlighter ? highlighterColors(theme: theme) : penColors(theme: theme)
        if let custom { colors.append(Swatch(name: "Custom " + custom, color: custom)) }
        let current = style.color.isEmpty ? colors[0].color : style.color
        var items = colors.map { OverlayMenu.Item(label: $0.name, action: .penStyle(color: $0.color, width: nil), enabled: true,
                                                  current: $0.color.lowercased() == current.lowercased(), swatch: $0.color) }
        items.append(OverlayMenu.Item(label: "More colours\u{2026}", action: .colourGrid(at: nil), enabled: true))
        let w = style.width == 0 ? (tool == .highlighter ? Float(theme.highlighterWidth) : Float(theme.penWidth)) : style.width
        items += widths(for: tool).map { name, mm in
            OverlayMenu.Item(label: "\(name) (\(mm) mm)", action: .penStyle(color: nil, width: mm), enabled: true, current: abs(mm - w) < 0.01)
        }
        return items
    }

    /// True for a colour of the fixed palette of `tool` (not one to keep as the custom colour).
    static func isPreset(_ color: String, tool: Tool, theme: Theme) -> Bool {
        let fixed = tool == .highlighter ? highlighterColors(theme: theme) : penColors(theme: theme)
        return fixed.contains { $0.color.lowercased() == color.lowercased() }
    }

    // MARK: the custom colour chooser

    /// Columns of the chooser's grid: one per hue.
    static let gridColumns = 12

    /// The chooser's colours, row by row: twelve hues (every 30°, red first) at five lightnesses
    /// from dark to light, then twelve greys from black to white. The highlighter's are
    /// translucent ("80" alpha), as its palette's are.
    static func gridColors(tool: Tool) -> [Swatch] {
        let alpha = tool == .highlighter ? "80" : ""
        var out: [Swatch] = []
        for (row, light) in [0.25, 0.37, 0.5, 0.63, 0.76].enumerated() {
            for i in 0 ..< gridColumns {
                let hue = Double(i) * 360 / Double(gridColumns)
                out.append(Swatch(name: "Hue \(Int(hue)) row \(row + 1)", color: hex(hsl(hue, 0.85, light)) + alpha))
            }
        }
        for i in 0 ..< gridColumns {
            let v = Double(i) / Double(gridColumns - 1)
            out.append(Swatch(name: "Grey \(Int((v * 100).rounded()))%", color: hex(RGBA(r: v, g: v, b: v)) + alpha))
        }
        return out
    }

    /// The grid as popup items (`OverlayMenu.columns` = `gridColumns`); `current` is ringed.
    static func gridItems(tool: Tool, current: String) -> [OverlayMenu.Item] {
        gridColors(tool: tool).map {
            OverlayMenu.Item(label: $0.name, action: .penStyle(color: $0.color, width: nil), enabled: true,
                             current: $0.color.lowercased() == current.lowercased(), swatch: $0.color)
        }
    }

    /// HSL to RGB: hue in degrees, saturation and lightness 0...1.
    static func hsl(_ h: Double, _ s: Double, _ l: Double) -> RGBA {
        let c = (1 - abs(2 * l - 1)) * s
        let hp = (h.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360) / 60
        let x = c * (1 - abs(hp.truncatingRemainder(dividingBy: 2) - 1))
        let (r, g, b): (Double, Double, Double) = switch Int(hp) {
        case 0: (c, x, 0)
        case 1: (x, c, 0)
        case 2: (0, c, x)
        case 3: (0, x, c)
        case 4: (x, 0, c)
        default: (c, 0, x)
        }
        let m = l - c / 2
        return RGBA(r: r + m, g: g + m, b: b + m)
    }

    static func hex(_ c: RGBA) -> String {
        func b(_ v: Double) -> String { String(format: "%02x", Int((max(0, min(1, v)) * 255).rounded())) }
        return "#" + b(c.r) + b(c.g) + b(c.b) + (c.a < 1 ? b(c.a) : "")
    }

    /// "#rrggbb" or "#rrggbbaa"; a custom colour typed by the user must be one.
    static func isColor(_ s: String) -> Bool {
        (s.count == 7 || s.count == 9) && s.first == "#" && s.dropFirst().allSatisfy(\.isHexDigit)
    }
}

/// The pens' saved choices: per tool a colour and a width, and the custom colour.
struct PenSettings: Codable, Equatable {
    struct Style: Codable, Equatable { var color: String; var width: Float }
    var styles: [String: Style] = [:]
    var custom: String?

    static var defaultPath: String { XDG.configDir + "/pens.json" }

    /// What was saved at `path`; a missing or unreadable file gives the defaults (reported by `warn`).
    static func load(path: String = defaultPath, warn: (String) -> Void = { _ in }) -> PenSettings {
        guard FileManager.default.fileExists(atPath: path) else { return PenSettings() }
        do {
            var s = try JSONDecoder().decode(PenSettings.self, from: try FileIO.readFile(path, maxBytes: 1 << 16))
            // A hand-edited file must not put a colour or width into strokes that packages refuse.
            s.styles = s.styles.filter { Tool(rawValue: $0.key) != nil && (PenPalette.isColor($0.value.color) || $0.value.color.isEmpty)
                && $0.value.width.isFinite && $0.value.width >= 0 && $0.value.width <= 100 }
            if let c = s.custom, !PenPalette.isColor(c) { s.custom = nil }
            return s
        } catch {
            warn("ignoring \(path): \(error)")
            return PenSettings()
        }
    }

    func save(path: String = defaultPath) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys]
        try e.encode(self).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    /// Puts the saved styles on a tool controller.
    func apply(to tc: ToolController) {
        for (name, st) in styles { if let t = Tool(rawValue: name) { tc.setStyle(color: st.color, width: st.width, for: t) } }
    }
}
