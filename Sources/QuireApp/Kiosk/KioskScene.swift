import Foundation
import Quire
import QuireForms

extension KioskController {
    /// What the form's window shows now, laid out by `layout` (the painter draws it).
    func scene(_ layout: KioskLayout) -> KioskScene {
        var fields: [KioskFieldPaint] = []
        for (f, l) in zip(form.spec.fields, layout.fields) {
            let st = states[f.id] ?? .init(status: .reading)
            var status = KioskFieldPaint.Status.empty, note = ""
            switch st.status {
            case .empty(let required): status = required ? .required : .empty; note = required ? "Required" : "Optional"
            case .reading: status = .reading; note = "Reading\u{2026}"
            case .valid: status = .valid; note = st.alternatives.count > 1 ? "Tap it for other readings" : ""
            case .invalid(let why): status = .invalid; note = Self.sentence(why)
            }
            fields.append(KioskFieldPaint(label: f.label + (f.required ? " *" : ""), labelFrame: l.label, box: l.box, value: st.text,
                                          valueFrame: l.value, note: note, noteFrame: l.error, clearFrame: l.clear, status: status))
        }
        var statusText = message ?? "", urgent = message?.hasPrefix("Not submitted") ?? false
        if let n = countdown {
            statusText = "No input for a while: this form is cleared in \(n) s. Touch the screen to keep it."
            urgent = true
        }
        var thanks: [String]?
        if case .thanks(let id, _) = screen {
            thanks = ["Thank you!", "Your form was received (reference \(id.uuidString.prefix(8).lowercased())).",
                      "The form is ready for the next person in a moment."]
        }
        return KioskScene(width: layout.width, height: layout.height, scale: layout.scale, title: form.spec.title,
                          titleFrame: layout.title, fields: fields, clearAllFrame: layout.clearAll, submitFrame: layout.submit,
                          submitEnabled: canSubmit, statusFrame: layout.status, statusText: statusText,
                          statusUrgent: urgent, labelFontSize: layout.labelFontSize, valueFontSize: layout.valueFontSize,
                          buttonFontSize: layout.buttonFontSize, thanks: thanks)
    }

    /// A reason as a person reads it: capitalised.
    static func sentence(_ s: String) -> String { s.prefix(1).uppercased() + s.dropFirst() }
}

/// The kiosk's path from a field's last pen-up to its value on screen, without a window, for
/// `quire bench forms`: the same controller, layout and painter as the window, on an image surface.
public final class KioskScreenBenchmark {
    private let controller: KioskController
    private let layout: KioskLayout
    private let surface: CairoSurface

    public init(form: Form, width: Int = 1280, height: Int = 800) throws {
        controller = KioskController(form: form, now: { Double(monotonicNs()) / 1e9 }, openStore: {
            throw QuireError(.invalidArgument, "the screen benchmark submits nothing")
        })
        layout = KioskLayout(fields: form.spec.fields.map { .init(place: $0.place) }, width: width, height: height, scale: 1)
        surface = try CairoSurface(width: width, height: height)
        KioskPainter.draw(controller.scene(layout), on: surface)
    }

    /// Milliseconds from now (call it right after the last pen-up of `fieldId`) until the field's
    /// new value is painted, as the window's loop does it: results applied as they arrive, the
    /// value read, the screen drawn.
    public func msToScreen(_ fieldId: String) throws -> Double {
        let start = monotonicNs()
        guard let e = controller.form.editors[fieldId] else { throw QuireError(.invalidArgument, "no field '\(fieldId)'") }
        while true {
            e.processPendingResults()
            if controller.refresh().contains(fieldId), controller.states[fieldId]?.status != .reading { break }
            if e.isIdle, !controller.refresh().contains(fieldId), controller.states[fieldId]?.status != .reading { break }
            usleep(200)
        }
        KioskPainter.draw(controller.scene(layout), on: surface)
        return Double(monotonicNs() - start) / 1e6
    }
}
