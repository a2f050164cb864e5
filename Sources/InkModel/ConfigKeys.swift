/// A configuration key with its value type and default, declared once below; read it with
/// `configuration[.textGuidesSpacing]`. The defaults equal `Resources/configuration.json`: they
/// apply when a user's configuration removes a key or gives it a value of another type.
public struct ConfigKey<Value: Sendable>: Sendable {
    /// The dotted key (`text.guides.spacing`).
    public let name: String
    public let defaultValue: Value
    private let get: @Sendable (ParameterSet, String, Value) throws -> Value

    private init(_ name: String, _ def: Value, _ get: @escaping @Sendable (ParameterSet, String, Value) throws -> Value) {
        self.name = name; self.defaultValue = def; self.get = get
    }

    /// The value `set` holds for this key, or the default when unset; throws `typeMismatch` when
    /// the key holds a value of another type.
    public func read(_ set: ParameterSet) throws -> Value { try get(set, name, defaultValue) }
}

extension ConfigKey where Value == Bool {
    public init(_ name: String, default def: Bool) { self.init(name, def) { try $0.getBoolean($1, default: $2) } }
}
extension ConfigKey where Value == Double {
    public init(_ name: String, default def: Double) { self.init(name, def) { try $0.getNumber($1, default: $2) } }
}
extension ConfigKey where Value == Int {
    /// A count, size or time, clamped to `range` as `ParameterSet.getInteger` does.
    public init(_ name: String, default def: Int, in range: ClosedRange<Int> = 0...Int.max) {
        self.init(name, def) { try $0.getInteger($1, default: $2, in: range) }
    }
}
extension ConfigKey where Value == String {
    public init(_ name: String, default def: String) { self.init(name, def) { try $0.getString($1, default: $2) } }
}
extension ConfigKey where Value == [String] {
    public init(_ name: String, default def: [String]) { self.init(name, def) { try $0.getStringArray($1, default: $2) } }
}

extension ParameterSet {
    /// The value for `key`; its default when unset or when the set holds a value of another type
    /// (a bad user setting must not stop the editor).
    public subscript<Value>(key: ConfigKey<Value>) -> Value { (try? key.read(self)) ?? key.defaultValue }
}

// MARK: - The keys

extension ConfigKey where Value == Bool {
    /// Lined guides in Text blocks: drawn, snapped to, and used to split ink into lines.
    public static let textGuidesEnable = ConfigKey("text.guides.enable", default: true)
    /// Edit gestures (scratch-out, strike-through, …) take effect at all.
    public static let gestureEnable = ConfigKey("gesture.enable", default: true)
    /// A double tap on a block converts it.
    public static let convertOnDoubleTap = ConfigKey("convert.convert-on-double-tap", default: true)
    /// Image export draws the guides of Text blocks.
    public static let exportImageGuides = ConfigKey("export.image.guides", default: false)
    /// Ink width follows pen pressure.
    public static let rendererInkPressure = ConfigKey("renderer.ink.pressure", default: true)
    /// The renderer outlines block and word boxes (debugging).
    public static let rendererDebugBoxes = ConfigKey("renderer.debug.boxes", default: false)
    /// The renderer extends the stroke being drawn by a predicted tail.
    public static let rendererPredictionEnable = ConfigKey("renderer.prediction.enable", default: false)
    /// The app ignores touch while the pen is near or shortly after it lifts.
    public static let inputPalmRejectionEnable = ConfigKey("input.palm-rejection.enable", default: true)
    /// Math is computed: results after a trailing `=` and at `?` (see `mathSolverNumericalComputation`).
    public static let mathSolverEnable = ConfigKey("math.solver.enable", default: true)
    /// The solved expression keeps products written without a sign as written (`2x`); false adds `×`.
    public static let mathSolverDisplayImplicitMultiply = ConfigKey("math.solver.display-implicit-multiply", default: true)

    /// The eraser removes only the touched part of a stroke in parts of `type` (else whole strokes).
    public static func erasePrecisely(_ type: PartType) -> ConfigKey {
        ConfigKey(type.configPrefix + ".eraser.erase-precisely", default: false)
    }
}

extension ConfigKey where Value == Double {
    /// Distance between guide lines, millimetres (the editor falls back to the default outside 0.5…1000).
    public static let textGuidesSpacing = ConfigKey("text.guides.spacing", default: 10)
    /// Vertical gap between the blocks of a Text Document, millimetres.
    public static let textDocumentBlockSpacing = ConfigKey("text-document.block-spacing", default: 4)
    /// Resolution of image export when the caller gives none.
    public static let exportImageDPI = ConfigKey("export.image.dpi", default: 150)
    /// The most pixels an imported image may have.
    public static let imageMaxPixels = ConfigKey("image.max-pixels", default: 40_000_000)
    /// Idle time before the app saves, seconds.
    public static let appAutosaveIdleSeconds = ConfigKey("app.autosave.idle-seconds", default: 3)
    /// A kiosk form with ink and no input for this long is cleared (a countdown shows first), seconds.
    public static let formsIdleResetSeconds = ConfigKey("forms.idle-reset-seconds", default: 60)
    /// How long a kiosk form's thank-you screen stays before the empty form is back, seconds.
    public static let formsThanksSeconds = ConfigKey("forms.thanks-seconds", default: 5)
}

extension ConfigKey where Value == Int {
    /// The largest image file `addImage` reads, bytes.
    public static let imageMaxFileSize = ConfigKey("image.max-file-size", default: 32 << 20)
    /// How long touch stays ignored after the pen leaves, milliseconds.
    public static let inputPalmRejectionTimeoutMs = ConfigKey("input.palm-rejection.timeout-ms", default: 600)
    /// Archive limits applied when a package is opened (a zip bomb is refused, not unpacked).
    public static let packageMaxEntries = ConfigKey("content-package.max-entries", default: 10_000)
    public static let packageMaxUncompressedSize = ConfigKey("content-package.max-uncompressed-size", default: 512 << 20)
    public static let packageMaxEntrySize = ConfigKey("content-package.max-entry-size", default: 256 << 20)
    /// Digits after the decimal point of a decimal result (0 to 15).
    public static let mathSolverFractionalPartDigits = ConfigKey("math.solver.fractional-part-digits", default: 3, in: 0...15)
}

extension ConfigKey where Value == String {
    /// Where packages keep their working state; empty: `<package path>-files`.
    public static let packageTempFolder = ConfigKey("content-package.temp-folder", default: "")
    /// Recognition configuration recorded in a part when first attached.
    public static let textConfigurationName = ConfigKey("text.configuration.name", default: "text")
    public static let textConfigurationBundle = ConfigKey("text.configuration.bundle", default: "en_US")
    /// Records every editing session of the app to this JSON-lines file (`quire replay` plays
    /// it back); empty: no recording. `quire edit --record` sets it for one session.
    public static let appRecord = ConfigKey("app.record", default: "")
    /// The app's key chord that leaves kiosk mode.
    public static let appKioskExitChord = ConfigKey("app.kiosk.exit-chord", default: "ctrl+alt+shift+q")
    /// The tool (a `Tool` raw value) a mouse and a touch screen start with in the app.
    public static let inputMouseTool = ConfigKey("input.mouse-tool", default: "pen")
    public static let inputTouchTool = ConfigKey("input.touch-tool", default: "hand")
    /// Angles of sin, cos and tan: `deg` or `rad`.
    public static let mathSolverAngleUnit = ConfigKey("math.solver.angle-unit", default: "deg")
}

extension ConfigKey where Value == [String] {
    /// Device class overrides in the app ("name=pen", …).
    public static let inputDevices = ConfigKey("input.devices", default: [])
    /// Where results are computed: `at-right-of-equal-sign` (`12+7=`), `at-question-mark` (`3+4=?`).
    public static let mathSolverNumericalComputation = ConfigKey("math.solver.numerical-computation",
                                                                 default: ["at-right-of-equal-sign", "at-question-mark"])

    /// The edit gestures enabled in parts of `type`.
    public static func penGestures(_ type: PartType) -> ConfigKey {
        ConfigKey(type.configPrefix + ".pen.gestures", default: [])
    }
}
