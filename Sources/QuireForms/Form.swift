import Foundation
import InkModel
import InkRender
import Quire

/// An open form: a package whose metadata holds the spec and which has one part per field, each
/// with its own editor. An editor's configuration cascades field → form → engine: the form's keys
/// sit in one `Configuration` over the engine's, each field's (its kind's defaults, then the
/// spec's `configuration`) in its editor's own.
public final class Form {
    public let spec: FormSpec
    public let package: ContentPackage
    public let engine: Engine
    /// The form-level configuration (spec `configuration`), parent of every field editor's.
    public let configuration: Configuration
    /// Field id → the field's editor (its part attached).
    public private(set) var editors: [String: Editor] = [:]
    /// `forms.on-submit` as read at the first submit (see `FormSubmit.swift`).
    var submitHookCache: SubmitHook??

    /// Package metadata keys.
    static let specKey = "quire.form.spec"
    static let fieldKey = "quire.form.field"
    static let pendingKey = "quire.form.pending-submission"

    /// Creates a form package from a validated spec; fails if the file exists.
    public static func create(path: String, spec: FormSpec, engine: Engine) throws -> Form {
        let pkg = try engine.createPackage(path)
        do {
            try pkg.metadata.setString(try spec.json.serialized(), forKey: specKey)
            for f in spec.fields {
                let part = try pkg.createPart(type: f.kind.partType.rawValue)
                try part.metadata.setString(f.id, forKey: fieldKey)
            }
            try pkg.save()
            return try Form(package: pkg, engine: engine)
        } catch {
            pkg.close()
            try? engine.deletePackage(path)
            throw error
        }
    }

    /// Whether the package at `path` is a form (its metadata holds a spec); false for a missing
    /// or unreadable file.
    public static func isForm(path: String, engine: Engine) -> Bool {
        guard FileManager.default.fileExists(atPath: path), let pkg = try? engine.openPackage(path) else { return false }
        defer { pkg.close() }
        return pkg.metadata.hasKey(specKey)
    }

    /// Opens a form package. `renderer` gives each field's editor its renderer (a window draws
    /// every field in a view of its own); nil, the default: headless editors.
    public static func open(path: String, engine: Engine, renderer: ((FieldSpec) -> Renderer?)? = nil) throws -> Form {
        let pkg = try engine.openPackage(path)
        do { return try Form(package: pkg, engine: engine, renderer: renderer) } catch { pkg.close(); throw error }
    }

    private init(package pkg: ContentPackage, engine: Engine, renderer: ((FieldSpec) -> Renderer?)? = nil) throws {
        guard let text = try? pkg.metadata.getString(Self.specKey) else {
            throw QuireError(.invalidArgument, "'\(pkg.path)' is not a form (no \(Self.specKey) in its metadata); create one with quire form new")
        }
        spec = try FormSpec.parse(Data(text.utf8), source: "form spec in '\(pkg.path)'")
        package = pkg
        self.engine = engine
        configuration = Configuration(parent: engine.configuration)
        try configuration.inject(json: try JSONValue.object(spec.configuration).serialized())
        var parts: [String: ContentPart] = [:]
        for i in 0..<pkg.partCount {
            let p = try pkg.part(at: i)
            if let id = try? p.metadata.getString(Self.fieldKey) { parts[id] = p }
        }
        let metrics = CairoFontMetrics()
        for f in spec.fields {
            guard let part = parts[f.id], part.kind == f.kind.partType else {
                throw QuireError(.corruptPackage, "form '\(pkg.path)': field '\(f.id)' has no \(f.kind.partType.rawValue) part")
            }
            let editor = engine.createEditor(configurationParent: configuration, renderer: renderer?(f), fontMetricsProvider: metrics)
            try configure(editor.configuration, for: f)
            if !f.kind.isRecognized { editor.recognizer = nil }
            // Millimetres to pixels at 96 dpi, the box's size: the view shows the field whole.
            try editor.setViewSize(width: max(16, Int(f.place.width * 96 / 25.4)), height: max(16, Int(f.place.height * 96 / 25.4)))
            try editor.setPart(part)
            editors[f.id] = editor
        }
    }

    /// The field's configuration: its kind's defaults, then its own keys from the spec.
    private func configure(_ c: Configuration, for f: FieldSpec) throws {
        var keys: [String: JSONValue] = [:]
        switch f.kind {
        case .text, .choice: keys["text.guides.enable"] = .bool(false)
        case .multiline: break
        case .number:
            keys["text.guides.enable"] = .bool(false)
            keys["text.configuration.charset"] = .string(FieldValues.numberCharacters)
            keys["text.configuration.lexicon-mode"] = .string("off")
        case .date:
            keys["text.guides.enable"] = .bool(false)
            keys["text.configuration.charset"] = .string("0123456789/-.")
            keys["text.configuration.lexicon-mode"] = .string("off")
        case .checkbox, .signature, .drawing:
            keys["gesture.enable"] = .bool(false)
        }
        if f.kind == .choice {
            keys["text.configuration.lexicon-mode"] = .string("require")
            if !f.options.isEmpty {
                // The recognizer reads a word list from a file: the options are written to one
                // beside the package's working state, rewritten at every open.
                let words = f.options.flatMap { $0.split(separator: " ").map(String.init) }
                try FileIO.writeAtomically(Data((words.joined(separator: "\n") + "\n").utf8), to: wordListPath(f))
                keys["text.configuration.lexicon"] = .string(wordListPath(f))
                keys["text.configuration.system-lexicon"] = .bool(false)
            }
        }
        for (k, v) in f.configuration { keys[k] = v }
        try c.inject(json: try JSONValue.object(keys).serialized())
    }

    /// Where a choice field's options are written as a word list (removed on close).
    func wordListPath(_ f: FieldSpec) -> String {
        URL(fileURLWithPath: package.tempFolder).appendingPathComponent("choice-\(f.id).words").path
    }

    public func field(_ id: String) throws -> FieldSpec {
        guard let f = spec.fields.first(where: { $0.id == id }) else {
            throw QuireError(.invalidArgument, "form '\(spec.id)' has no field '\(id)' (fields: \(spec.fields.map(\.id).joined(separator: ", ")))")
        }
        return f
    }

    public func editor(_ fieldId: String) throws -> Editor {
        _ = try field(fieldId)
        return editors[fieldId]!
    }

    /// Writes a sample's ink into a field as pen input through the field's editor, after the ink
    /// already there: at its own size (scaled down, keeping its aspect, when it does not fit the
    /// line), a letter's gap after a single character, a word's gap after anything longer. A
    /// multiline field writes on its guide lines and goes on to the next one when a line is full.
    public func write(_ sample: InkSampleRecord, into fieldId: String) throws {
        let f = try field(fieldId)
        let e = try editor(fieldId)
        let b = sample.bounds
        guard !sample.strokes.isEmpty, b.width > 0 || b.height > 0 else {
            throw QuireError(.importError, "sample '\(sample.id)' has no ink")
        }
        let margin = min(3, f.place.height * 0.15)
        // Lines: a multiline field's are its guides (ink sits on the guide that ends the line);
        // any other field is one line inside its margins.
        let multiline = f.kind == .multiline && e.configuration[.textGuidesEnable]
        let spacing = e.configuration[.textGuidesSpacing]
        let lineHeight = multiline && spacing > 0.5 && spacing <= 1000 ? spacing : f.place.height - 2 * margin
        let firstTop = multiline ? 0 : margin
        let lines = multiline ? max(1, Int((f.place.height / lineHeight).rounded(.down))) : 1
        let scale = min(1, (lineHeight * 0.75) / max(b.height, 0.01), (f.place.width - 2 * margin) / max(b.width, 0.01))
        let w = b.width * scale, h = b.height * scale
        let m = e.part!.model
        var x = margin, line = 0
        if !m.strokes.isEmpty {
            let gap = sample.label.count == 1 ? max(0.8, h * 0.12) : max(2.5, h * 0.45)
            // The last line with ink, then the end of the ink on it.
            let maxY = m.strokes.values.map(\.bounds.maxY).max() ?? firstTop
            line = min(lines - 1, max(0, Int(((maxY - firstTop) / lineHeight).rounded(.down))))
            let top = firstTop + Double(line) * lineHeight
            let onLine = m.strokes.values.filter { $0.bounds.midY >= top && $0.bounds.midY < top + lineHeight }
            x = (onLine.map(\.bounds.maxX).max() ?? margin) + gap
            if x + w > f.place.width - margin {
                guard line + 1 < lines else {
                    throw QuireError(.invalidArgument, "no room left in field '\(f.id)' for sample '\(sample.id)'")
                }
                line += 1; x = margin
            }
        }
        let bottom = firstTop + Double(line) * lineHeight + lineHeight * (multiline ? 0.92 : 0.9)
        let traces = sample.strokes.map { s in
            ImportedTrace(samples: s.map { InkSample(x: x + ($0.x - b.x) * scale, y: bottom - h + ($0.y - b.y) * scale,
                                                     t: 1_700_000_000_000 + $0.t, f: 0.5) },
                          pointerType: .pen, tool: "pen")
        }
        try e.importTraces(traces)
    }

    /// Waits for every field's recognition.
    public func waitForIdle() throws {
        for e in editors.values { try e.waitForIdle() }
    }

    /// Every field's value and validity, in spec order.
    public func values() throws -> [FieldValue] {
        try waitForIdle()
        return try spec.fields.map { try FieldValues.value(of: $0, editor: editors[$0.id]!) }
    }

    /// One field's value, once its recognition is done.
    public func value(_ fieldId: String) throws -> FieldValue {
        let f = try field(fieldId)
        let e = editors[fieldId]!
        try e.waitForIdle()
        return try FieldValues.value(of: f, editor: e)
    }

    /// One field's value as its editor holds it now, without waiting for recognition and without
    /// the signature's SVG and PNG (a window shows this after each result; `value` is the record's).
    public func currentValue(_ fieldId: String) throws -> FieldValue {
        try FieldValues.value(of: try field(fieldId), editor: editors[fieldId]!, images: false)
    }

    /// Clears every field (the form's next person starts from an empty form).
    public func clear() {
        for e in editors.values { e.clear() }
    }

    /// Saves the package.
    public func save() throws { try package.save() }

    public func close() {
        if case let hook?? = submitHookCache { hook.wait() }
        for e in editors.values { try? e.setPart(nil) }
        for f in spec.fields where f.kind == .choice && !f.options.isEmpty { try? FileManager.default.removeItem(atPath: wordListPath(f)) }
        package.close()
    }
}
