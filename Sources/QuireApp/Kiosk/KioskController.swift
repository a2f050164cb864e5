import Foundation
import Quire
import QuireForms

/// What a kiosk form shows and does, without a window: each field's value as it is on screen,
/// Submit (enabled only when every field is valid and read), the thank-you screen and the reset
/// after it, Clear, picking a candidate, and the idle reset with its countdown. Time comes from an
/// injected clock (seconds), so the timers are tested without waiting.
final class KioskController: EditorDelegate {
    /// A field as the screen shows it.
    struct FieldState: Equatable {
        enum Status: Equatable {
            /// Nothing written (`required` says whether that is allowed).
            case empty(required: Bool)
            /// Ink waits for its recognition.
            case reading
            case valid
            /// Not valid, and why, in words.
            case invalid(String)
        }
        var text: String = ""
        var status: Status
        var alternatives: [FieldValues.Alternative] = []
    }

    enum Screen: Equatable {
        case form
        /// After a submit: thanks until `until` (clock seconds), then the empty form.
        case thanks(submission: UUID, until: Double)
    }

    let form: Form
    private let now: () -> Double
    private let openStore: () throws -> SubmissionStore
    private var store: SubmissionStore?
    /// Field ids in spec order.
    let fieldIds: [String]
    private(set) var states: [String: FieldState] = [:]
    private(set) var screen: Screen = .form
    /// A line for the status area (a submit that failed, a reset that happened); nil: none.
    private(set) var message: String?
    /// Fields whose ink changed since their value was last read.
    private var stale: Set<String> = []
    private var lastInput: Double
    let idleResetSeconds: Double
    let thanksSeconds: Double
    /// Called with a description of what just happened (for the trace and tests).
    var onEvent: (String, JSONValue) -> Void = { _, _ in }

    init(form: Form, now: @escaping () -> Double, openStore: @escaping () throws -> SubmissionStore) {
        self.form = form
        self.now = now
        self.openStore = openStore
        fieldIds = form.spec.fields.map(\.id)
        idleResetSeconds = max(1, form.configuration[.formsIdleResetSeconds])
        thanksSeconds = max(0.5, form.configuration[.formsThanksSeconds])
        lastInput = now()
        for id in fieldIds {
            form.editors[id]?.addDelegate(self)
            stale.insert(id)
        }
        _ = refresh()
    }

    // MARK: values

    func contentChanged(_ editor: Editor, blockIds: [String]) {
        if let id = fieldIds.first(where: { form.editors[$0] === editor }) { stale.insert(id) }
    }

    /// Reads again the values of fields whose ink changed and whose recognition is done (a
    /// field still being read shows so); returns the ids whose display changed.
    func refresh() -> [String] {
        var changed: [String] = []
        for id in fieldIds where stale.contains(id) {
            guard let e = form.editors[id] else { continue }
            var s: FieldState
            if !e.isIdle {
                s = states[id] ?? FieldState(status: .reading)
                s.status = .reading
            } else {
                stale.remove(id)
                s = Self.state(of: try? form.currentValue(id), field: try? form.field(id), editor: e)
            }
            if s != states[id] {
                states[id] = s
                changed.append(id)
                if s.status != .reading { onEvent("field", Self.json(id, s)) }
            }
        }
        return changed
    }

    static func state(of v: FieldValue?, field f: FieldSpec?, editor e: Editor) -> FieldState {
        let hasInk = !(e.part?.model.strokes.isEmpty ?? true)
        guard let v, let f else { return FieldState(status: .invalid("the field could not be read")) }
        if !hasInk { return FieldState(status: .empty(required: f.required && v.error != nil)) }
        var text: String
        switch v.value {
        case .string(let t): text = f.kind.isRecognized ? t : ""
        case .bool(let b): text = b ? "Yes" : "No"
        default: text = ""
        }
        if f.kind == .signature || f.kind == .drawing { text = f.kind == .signature ? "Signed" : "Drawn" }
        var alts: [FieldValues.Alternative] = []
        if f.kind.isRecognized, let root = e.rootBlock {
            alts = FieldValues.alternatives(root.words, best: root.text)
        }
        return FieldState(text: text, status: v.error.map { .invalid($0) } ?? .valid, alternatives: alts)
    }

    static func json(_ id: String, _ s: FieldState) -> JSONValue {
        var status = "valid", error: JSONValue = .null
        switch s.status {
        case .empty: status = "empty"
        case .reading: status = "reading"
        case .valid: break
        case .invalid(let why): status = "invalid"; error = .string(why)
        }
        return .object(["id": .string(id), "value": .string(s.text), "status": .string(status), "error": error,
                        "candidates": .array(s.alternatives.map { .string($0.text) })])
    }

    /// Every field read and valid (an empty field that is not required is valid).
    var canSubmit: Bool {
        guard screen == .form, stale.isEmpty else { return false }
        return fieldIds.allSatisfy { id in
            switch states[id]?.status {
            case .valid?, .empty(required: false)?: true
            default: false
            }
        }
    }

    /// Any field holds ink (the form is being filled).
    var hasInk: Bool { form.editors.values.contains { !($0.part?.model.strokes.isEmpty ?? true) } }

    // MARK: actions

    /// Any input from the person at the kiosk: the idle timer starts again.
    func noteInput() {
        lastInput = now()
    }

    /// Stores the form as one record (see `Form.submit`); the thank-you screen follows. A
    /// failure (the store cannot be written) is shown in words and the ink stays.
    @discardableResult
    func submit() -> Bool {
        guard canSubmit else { return false }
        do {
            if store == nil { store = try openStore() }
            let id = try form.submit(to: store!)
            try? form.finishSubmission()
            screen = .thanks(submission: id, until: now() + thanksSeconds)
            message = nil
            onEvent("submitted", .object(["submission": .string(id.uuidString.lowercased())]))
        } catch {
            store = nil  // opened again next time (the folder may have come back)
            message = "Not submitted: \(Self.words(error)). Please ask for help; your entries are kept."
            onEvent("submit-failed", .object(["error": .string(message!)]))
            return false
        }
        return true
    }

    static func words(_ error: Error) -> String {
        (error as? QuireError)?.message ?? "\(error)"
    }

    func clear(_ id: String) {
        form.editors[id]?.clear()
        message = nil
    }

    func clearAll() {
        form.clear()
        message = nil
    }

    /// Picks one of a field's readings (an alternative from its state).
    func pick(_ id: String, _ alt: FieldValues.Alternative) {
        guard let e = form.editors[id], let root = e.rootBlock, let w = alt.word, let c = alt.candidate else { return }
        do {
            try e.selectCandidate(WordRef(blockId: root.id, index: w), candidateIndex: c)
        } catch {
            message = "That reading could not be chosen: \(Self.words(error))"
        }
        stale.insert(id)
    }

    // MARK: timers

    /// Seconds of the countdown before an idle reset: the last 10 s, or the last third when shorter.
    var countdownSeconds: Double { min(10, idleResetSeconds / 3) }

    /// Whole seconds left before an idle reset, while the countdown shows; nil otherwise.
    var countdown: Int? {
        guard screen == .form, hasInk else { return nil }
        let left = lastInput + idleResetSeconds - now()
        guard left <= countdownSeconds else { return nil }
        return max(0, Int(left.rounded(.up)))
    }

    /// Runs the timers: ends the thank-you screen, clears an idle half-filled form. Returns true
    /// when the screen changed.
    func tick() -> Bool {
        let t = now()
        switch screen {
        case .thanks(_, let until):
            guard t >= until else { return false }
            endThanks()
            return true
        case .form:
            guard hasInk, t >= lastInput + idleResetSeconds else { return false }
            form.clear()
            message = "The form was cleared after \(Int(idleResetSeconds.rounded())) s without input."
            onEvent("idle-reset", .object([:]))
            lastInput = t
            return true
        }
    }

    /// The empty form again (after the thanks, or a tap on them).
    func endThanks() {
        guard case .thanks = screen else { return }
        screen = .form
        lastInput = now()
        onEvent("ready-for-next", .object([:]))
    }

    /// The next clock time at which `tick` or the countdown changes something; nil: none.
    var nextDeadline: Double? {
        switch screen {
        case .thanks(_, let until): return until
        case .form:
            guard hasInk else { return nil }
            let reset = lastInput + idleResetSeconds
            let t = now()
            if t < reset - countdownSeconds { return reset - countdownSeconds }
            // Each second of the countdown.
            return min(reset, t + max(0.05, (reset - t).truncatingRemainder(dividingBy: 1)))
        }
    }
}
