import Foundation
import InkModel
import Quire
import Testing
@testable import QuireApp
@testable import QuireForms

/// The kiosk window's logic without a display: the layout of a form on screens of several sizes,
/// Submit enabled only for a valid form, submitting and the thank-you screen, a store that cannot
/// be written, Clear, picking a candidate, and the idle reset on an injected clock. Real
/// handwriting of one writer goes through each field's editor.
@Suite(.serialized) struct KioskTests {
    static let spec = #"""
        {"id": "pickup", "version": 1, "title": "Pickup", "fields": [
          {"id": "name", "kind": "text", "required": true},
          {"id": "tracking", "kind": "number", "required": true, "regex": "[0-9]{4,}"},
          {"id": "note", "kind": "text"},
          {"id": "signature", "kind": "signature", "required": true}]}
        """#

    /// A clock the test moves (seconds).
    final class Clock: @unchecked Sendable {
        var t = 1000.0
        func now() -> Double { t }
    }

    func kiosk(_ f: FormFixture, clock: Clock, store: String? = nil) -> KioskController {
        let path = store ?? f.dir.path("s.sqlite")
        return KioskController(form: f.form, now: clock.now, openStore: { try SubmissionStore(path: path) })
    }

    /// Lets recognition finish and the screen read the values, as the window's loop does.
    func settle(_ k: KioskController) throws {
        try k.form.waitForIdle()
        _ = k.refresh()
    }

    // MARK: layout

    @Test func everyFieldFitsOnOneScreenAtItsShape() throws {
        let spec = try FormSpec.parse(try FileIO.readFile(repositoryRoot.appendingPathComponent("Resources/forms/clinic-checkin.json").path, maxBytes: 1 << 20))
        let inputs = spec.fields.map { KioskLayout.Input(place: $0.place) }
        let sizes: [(Int, Int, Double)] = [(1024, 768, 1.0), (1920, 1080, 1.0), (2560, 1600, 2.0), (800, 480, 1.0)]
        for (w, h, scale) in sizes {
            let l = KioskLayout(fields: inputs, width: w, height: h, scale: scale)
            let screen = Rect(x: 0, y: 0, width: Double(w), height: Double(h))
            let pageRight = l.fields.map { $0.box.maxX }.max() ?? 0
            for (f, box) in zip(spec.fields, l.fields) {
                let inside = [box.box, box.value, box.clear].allSatisfy { r in
                    r.x >= screen.x && r.y >= screen.y && r.maxX <= screen.maxX && r.maxY <= screen.maxY
                }
                #expect(inside, "\(f.id) at \(w)x\(h)")
                let between = box.box.y >= l.title.maxY && box.box.maxY <= l.submit.y
                #expect(between, "\(f.id) between the title and the buttons")
                let labelAbove = box.label.maxY <= box.box.y + 0.5 && box.label.y >= l.title.maxY - 0.5
                #expect(labelAbove, "\(f.id)'s label above its box")
                let s = l.pixelsPerMillimetre
                let shape = abs(box.box.width - f.place.width * s) <= 1 && abs(box.box.height - f.place.height * s) <= 1
                #expect(shape, "\(f.id) keeps its shape (one scale for the whole page)")
                #expect(box.value.x >= pageRight, "values beside the page")
            }
            for (a, b) in zip(l.fields, l.fields.dropFirst()) {
                #expect(!a.box.intersects(b.box) && a.clear.maxY <= b.clear.y, "no overlap at \(w)x\(h)")
            }
            #expect(!l.submit.intersects(l.clearAll) && l.submit.maxX <= Double(w) && l.submit.maxY <= Double(h))
        }
        // Boxes for a pen or a finger: on a 1024x768 screen each recognised field is at least 1 cm high.
        let l = KioskLayout(fields: inputs, width: 1024, height: 768, scale: 1)
        #expect(l.fields.allSatisfy { $0.box.height >= 38 })
        #expect(l.target(at: Point(x: l.submit.midX, y: l.submit.midY)) == .submit)
        #expect(l.target(at: Point(x: l.clearAll.midX, y: l.clearAll.midY)) == .clearAll)
        #expect(l.target(at: Point(x: l.fields[2].clear.midX, y: l.fields[2].clear.midY)) == .clear(2))
        #expect(l.target(at: Point(x: l.fields[1].value.midX, y: l.fields[1].value.midY)) == .value(1))
        #expect(l.target(at: Point(x: l.fields[0].box.midX, y: l.fields[0].box.midY)) == nil, "a box is its canvas's")
    }

    // MARK: values and submit

    @Test func submitIsEnabledOnlyWhenEveryFieldIsValidThenThanksAndReset() throws {
        let f = try FormFixture(Self.spec)
        defer { f.form.close() }
        let clock = Clock()
        let k = kiosk(f, clock: clock)
        #expect(k.states["name"]?.status == .empty(required: true) && k.states["note"]?.status == .empty(required: false))
        #expect(!k.canSubmit, "an empty form with required fields")
        try write(["Karen"], into: "name", of: f.form)
        _ = k.refresh()
        #expect(k.states["name"]?.status == .reading || k.states["name"]?.status == .valid)
        try settle(k)
        #expect(k.states["name"] == .init(text: "Karen", status: .valid, alternatives: k.states["name"]!.alternatives))
        // One digit: a number, but not the pattern's four or more.
        try write(["5"], into: "tracking", of: f.form)
        try write(["Karen"], into: "signature", of: f.form)
        try settle(k)
        #expect(k.states["tracking"]?.text == "5")
        #expect(k.states["tracking"]?.status == .invalid("does not match the pattern [0-9]{4,}"))
        #expect(k.states["signature"]?.status == .valid && k.states["signature"]?.text == "Signed")
        #expect(!k.canSubmit, "one invalid field")
        #expect(!k.submit(), "Submit does nothing while it is disabled")
        #expect(try SubmissionStore(path: f.dir.path("s.sqlite")).submissions().isEmpty)

        k.clear("tracking")
        try settle(k)
        #expect(k.states["tracking"]?.status == .empty(required: true))
        try write(["78901"], into: "tracking", of: f.form)
        try settle(k)
        #expect(k.states["tracking"]?.status == .valid && k.states["tracking"]?.text == "78901")
        #expect(k.canSubmit)

        #expect(k.submit())
        guard case .thanks(let id, let until) = k.screen else { Issue.record("no thank-you screen"); return }
        #expect(until == clock.t + k.thanksSeconds)
        #expect(!k.canSubmit && !k.hasInk, "the form is cleared for the next person")
        let all = try SubmissionStore(path: f.dir.path("s.sqlite")).submissions()
        #expect(all.map(\.id) == [id])
        #expect(all.first?.fields.map(\.value) == [.string("Karen"), .string("78901"), .null, all.first!.fields[3].value])
        #expect(all.first?.fields[3].svg?.contains("<svg") == true)
        #expect(!f.form.package.metadata.hasKey(Form.pendingKey), "the submission was handed on")

        clock.t = until - 0.1
        #expect(!k.tick() && k.screen != .form)
        clock.t = until
        #expect(k.tick() && k.screen == .form)
        try settle(k)
        #expect(k.states["name"]?.status == .empty(required: true) && !k.canSubmit)
    }

    @Test func aStoreThatCannotBeWrittenIsShownInWordsAndTheInkStays() throws {
        let f = try FormFixture(Self.spec)
        defer { f.form.close() }
        let k = kiosk(f, clock: Clock(), store: f.dir.path("no-such-folder/s.sqlite"))
        try write(["Karen"], into: "name", of: f.form)
        try write(["78901"], into: "tracking", of: f.form)
        try write(["Karen"], into: "signature", of: f.form)
        try settle(k)
        #expect(k.canSubmit)
        #expect(!k.submit())
        #expect(k.screen == .form && k.hasInk && k.canSubmit)
        let m = try #require(k.message)
        #expect(m.hasPrefix("Not submitted: ") && m.contains("no-such-folder"), "\(m)")
    }

    @Test func clearAllEmptiesEveryField() throws {
        let f = try FormFixture(Self.spec)
        defer { f.form.close() }
        let k = kiosk(f, clock: Clock())
        try write(["Karen"], into: "name", of: f.form)
        try write(["Emma"], into: "note", of: f.form)
        try settle(k)
        #expect(k.states["note"]?.status == .valid)
        k.clearAll()
        try settle(k)
        #expect(!k.hasInk && k.states["name"]?.status == .empty(required: true) && k.states["note"]?.status == .empty(required: false))
    }

    @Test func pickingAReadingChangesTheValue() throws {
        let f = try FormFixture(Self.spec)
        defer { f.form.close() }
        let k = kiosk(f, clock: Clock())
        try write(["Karen"], into: "name", of: f.form)
        try settle(k)
        let alts = try #require(k.states["name"]?.alternatives)
        try #require(alts.count > 1, "the recognizer offers other readings")
        #expect(alts[0].text == k.states["name"]?.text && alts[0].word == nil)
        k.pick("name", alts[1])
        try settle(k)
        #expect(k.states["name"]?.text == alts[1].text)
        let v = try f.form.value("name")
        #expect(v.value == .string(alts[1].text), "the record takes the picked reading")
    }

    // MARK: idle reset

    @Test func anIdleHalfFilledFormIsClearedAfterACountdownThatInputCancels() throws {
        let f = try FormFixture(Self.spec)
        defer { f.form.close() }
        let clock = Clock()
        let k = kiosk(f, clock: clock)
        let idle = k.idleResetSeconds
        #expect(idle == 60, "the default of forms.idle-reset-seconds")
        // An empty form waits forever.
        clock.t += idle * 3
        #expect(!k.tick() && k.countdown == nil && k.nextDeadline == nil)

        k.noteInput()
        let start = clock.t
        try write(["Karen"], into: "name", of: f.form)
        try settle(k)
        #expect(k.nextDeadline == start + idle - 10)
        clock.t = start + idle - 10.5
        #expect(k.countdown == nil && !k.tick())
        clock.t = start + idle - 4.2
        #expect(k.countdown == 5, "the countdown shows the whole seconds left")
        // Any input cancels it.
        k.noteInput()
        #expect(k.countdown == nil)
        let restart = clock.t
        clock.t = restart + idle - 0.01
        #expect(!k.tick() && k.hasInk && k.countdown == 1)
        clock.t = restart + idle
        #expect(k.tick())
        #expect(!k.hasInk && k.screen == .form)
        #expect(k.message?.contains("cleared after 60 s without input") == true)
        #expect(try SubmissionStore(path: f.dir.path("s.sqlite")).submissions().isEmpty, "nothing was submitted")
    }

    @Test func theIdleTimeIsConfigurable() throws {
        let f = try FormFixture(#"{"id": "f", "version": 1, "title": "F", "configuration": {"forms.idle-reset-seconds": 9, "forms.thanks-seconds": 2}, "fields": [{"id": "a", "kind": "text"}]}"#)
        defer { f.form.close() }
        let clock = Clock()
        let k = kiosk(f, clock: clock)
        #expect(k.idleResetSeconds == 9 && k.thanksSeconds == 2 && k.countdownSeconds == 3)
        try write(["Karen"], into: "a", of: f.form)
        try settle(k)
        k.noteInput()
        clock.t += 6.5
        #expect(k.countdown == 3)
        clock.t += 2.5
        #expect(k.tick() && !k.hasInk)
    }
}
