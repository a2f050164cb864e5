import Foundation

/// What a physical input device is used as.
public enum DeviceKind: String, Sendable, CaseIterable {
    case pen, eraser, touch, mouse, ignore
}

/// What Quire knows about one physical (slave) XInput2 device.
public struct InputDevice: Equatable, Sendable {
    public var id: Int
    public var name: String
    public var kind: DeviceKind
    /// Valuator number of the pressure axis ("Abs Pressure" / "Abs MT Pressure") and its range.
    public var pressureAxis: Int?
    public var pressureMin: Double = 0
    public var pressureMax: Double = 1
    public var enabled = true

    public init(id: Int, name: String, kind: DeviceKind, pressureAxis: Int? = nil, pressureMin: Double = 0, pressureMax: Double = 1) {
        self.id = id; self.name = name; self.kind = kind
        self.pressureAxis = pressureAxis; self.pressureMin = pressureMin; self.pressureMax = pressureMax
    }

    /// Pressure normalised to 0...1 (nil when the device has no pressure axis).
    public func normalizedPressure(_ raw: Double) -> Double {
        guard pressureMax > pressureMin, raw.isFinite else { return 0 }
        return min(1, max(0, (raw - pressureMin) / (pressureMax - pressureMin)))
    }
}

/// The facts X tells about a device that decide its kind.
public struct DeviceTraits: Sendable {
    public var name: String
    /// The "Wacom Tool Type" property's atom name ("STYLUS", "ERASER", "TOUCH", "PAD", "CURSOR"), if any.
    public var wacomToolType: String?
    public var hasPressure: Bool
    public var hasDirectTouch: Bool
    public var isPointer: Bool
    public init(name: String, wacomToolType: String? = nil, hasPressure: Bool = false, hasDirectTouch: Bool = false, isPointer: Bool = true) {
        self.name = name; self.wacomToolType = wacomToolType; self.hasPressure = hasPressure
        self.hasDirectTouch = hasDirectTouch; self.isPointer = isPointer
    }
}

public enum DeviceClassifier {
    /// Parses `input.devices` entries of the form "name substring=kind" (case-insensitive match).
    public static func overrides(_ entries: [String]) -> [(String, DeviceKind)] {
        entries.compactMap { e in
            guard let eq = e.lastIndex(of: "=") else { return nil }
            let name = e[..<eq].trimmingCharacters(in: .whitespaces).lowercased()
            guard !name.isEmpty, let kind = DeviceKind(rawValue: e[e.index(after: eq)...].trimmingCharacters(in: .whitespaces).lowercased()) else { return nil }
            return (name, kind)
        }
    }

    /// Decides a device's kind: the configuration's override first, then the Wacom tool type,
    /// then direct touch, then a pressure axis with the name telling eraser from pen, else mouse.
    public static func classify(_ t: DeviceTraits, overrides: [(String, DeviceKind)] = []) -> DeviceKind {
        let name = t.name.lowercased()
        if let o = overrides.first(where: { name.contains($0.0) }) { return o.1 }
        guard t.isPointer else { return .ignore }
        switch t.wacomToolType?.uppercased() {
        case "ERASER": return .eraser
        case "STYLUS": return .pen
        case "TOUCH": return t.hasDirectTouch ? .touch : .mouse
        case "PAD": return .ignore
        default: break
        }
        if t.hasDirectTouch { return .touch }
        if name.contains("eraser") { return .eraser }
        if t.hasPressure || name.contains("stylus") || name.contains(" pen") || name.hasPrefix("pen") { return .pen }
        return .mouse
    }
}
