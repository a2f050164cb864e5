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

    /// The palette as menu items: colours (with the custom one), then widths; the current
    /// choices marked.
    static func menuItems(tool: Tool, style: (color: String, width: Float), theme: Theme, custom: String?) -> [OverlayMenu.Item] {
        var colors = tool == .highlighter ? highlighterColors(theme: theme) : penColors(theme: theme)
        if let custom { colors.append(Swatch(name: "Custom " + custom, color: custom)) }
        let current = style.color.isEmpty ? colors[0].color : style.color
        var items = colors.map { OverlayMenu.Item(label: $0.name, action: .penStyle(color: $0.color, width: nil), enabled: true,
                                                  current: $0.color.lowercased() == current.lowercased()) }
        let w = style.width == 0 ? (tool == .highlighter ? Float(theme.highlighterWidth) : Float(theme.penWidth)) : style.width
        items += widths(for: tool).map { name, mm in
            OverlayMenu.Item(label: "\(name) (\(mm) mm)", action: .penStyle(color: nil, width: mm), enabled: true, current: abs(mm - w) < 0.01)
        }
        return items
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
