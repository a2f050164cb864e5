import CX11
import Foundation
import Quire

/// The X11 CLIPBOARD selection, both sides: owning it after a copy (answering other clients'
/// requests from memory) and asking its owner for data on paste (TARGETS first, then the best
/// type). Everything runs on the event loop; requests time out instead of waiting forever.
final class XClipboard: ClipboardTransport {
    private let x: XConnection
    private let window: Window
    /// What we offer, by target name (MIME type or X name such as UTF8_STRING).
    private(set) var offers: [String: Data] = [:]
    private var ownTime: Time = 0

    private enum Pending { case targets, data(String) }
    private var pending: (step: Pending, started: Date, done: ((String, Data)?) -> Void)?

    /// Types Quire pastes, best first.
    static let pasteOrder = [MimeType.quireClipboard.typeName, "image/png", "text/plain;charset=utf-8", "UTF8_STRING", "text/plain", "STRING"]
    /// Largest property we write or read in one piece (no INCR transfers).
    private let maxBytes: Int

    init(x: XConnection, window: Window) {
        self.x = x
        self.window = window
        let words = max(XExtendedMaxRequestSize(x.display), XMaxRequestSize(x.display))
        maxBytes = max(64 << 10, Int(words) * 4 - 1024)
    }

    var clipboardAtom: Atom { x.atom("CLIPBOARD") }

    /// Takes the CLIPBOARD with these offers. Returns false when the X server did not give it.
    @discardableResult
    func own(_ offers: [String: Data], time: Time) -> Bool {
        self.offers = offers
        ownTime = time
        XSetSelectionOwner(x.display, clipboardAtom, window, time)
        return XGetSelectionOwner(x.display, clipboardAtom) == window
    }

    var ownsClipboard: Bool { !offers.isEmpty && XGetSelectionOwner(x.display, clipboardAtom) == window }

    func ownedOffer(_ type: String) -> Data? { ownsClipboard ? offers[type] : nil }

    func handleClear(_ e: XSelectionClearEvent) {
        if e.selection == clipboardAtom { offers = [:] }
    }

    /// Answers another client's request for our clipboard.
    func handleRequest(_ e: XSelectionRequestEvent) {
        var reply = XSelectionEvent()
        reply.type = SelectionNotify
        reply.display = e.display
        reply.requestor = e.requestor
        reply.selection = e.selection
        reply.target = e.target
        reply.time = e.time
        reply.property = 0
        let property = e.property != 0 ? e.property : e.target  // obsolete clients pass None
        if e.selection == clipboardAtom, !offers.isEmpty {
            let target = x.atomName(e.target) ?? ""
            if target == "TARGETS" {
                var atoms: [Atom] = ["TARGETS", "TIMESTAMP"].map { x.atom($0) } + offers.keys.sorted().map { x.atom($0) }
                XChangeProperty(x.display, e.requestor, property, Atom(XA_ATOM), 32, PropModeReplace,
                                atoms.withUnsafeMutableBytes { $0.baseAddress!.assumingMemoryBound(to: UInt8.self) }, Int32(atoms.count))
                reply.property = property
            } else if target == "TIMESTAMP" {
                var t = [UInt(ownTime)]
                XChangeProperty(x.display, e.requestor, property, Atom(XA_INTEGER), 32, PropModeReplace,
                                t.withUnsafeMutableBytes { $0.baseAddress!.assumingMemoryBound(to: UInt8.self) }, 1)
                reply.property = property
            } else if let data = offers[target], data.count <= maxBytes {
                var bytes = [UInt8](data)
                if bytes.isEmpty { bytes = [] }
                XChangeProperty(x.display, e.requestor, property, e.target, 8, PropModeReplace, &bytes, Int32(bytes.count))
                reply.property = property
            }
        }
        var ev = XEvent()
        ev.xselection = reply
        XSendEvent(x.display, e.requestor, 0, 0, &ev)
        XFlush(x.display)
    }

    /// Asks the clipboard's owner for its best pasteable type; `done` gets (type, data) or nil.
    func requestPaste(time: Time, done: @escaping ((String, Data)?) -> Void) {
        if let p = pending { p.done(nil) }
        pending = (.targets, Date(), done)
        XConvertSelection(x.display, clipboardAtom, x.atom("TARGETS"), x.atom("QUIRE_PASTE"), window, time)
        XFlush(x.display)
    }

    func handleNotify(_ e: XSelectionEvent) {
        guard e.selection == clipboardAtom, let p = pending else { return }
        guard e.property != 0, let (type, data) = readProperty(e.property) else {
            pending = nil
            p.done(nil)
            return
        }
        switch p.step {
        case .targets:
            guard type == Atom(XA_ATOM) else { pending = nil; p.done(nil); return }
            let names: [String] = data.withUnsafeBytes { raw in
                raw.bindMemory(to: UInt.self).compactMap { x.atomName(Atom($0)) }
            }
            guard let best = Self.pasteOrder.first(where: names.contains) else { pending = nil; p.done(nil); return }
            pending = (.data(best), Date(), p.done)
            XConvertSelection(x.display, clipboardAtom, x.atom(best), x.atom("QUIRE_PASTE"), window, e.time)
            XFlush(x.display)
        case .data(let name):
            pending = nil
            if type == x.atom("INCR") { p.done(nil); return }
            p.done((name, data))
        }
    }

    /// Gives up on a request the owner never answered.
    func expire(after seconds: TimeInterval = 2) {
        if let p = pending, Date().timeIntervalSince(p.started) > seconds {
            pending = nil
            p.done(nil)
        }
    }

    var hasPendingRequest: Bool { pending != nil }

    /// Reads and deletes a property of our window; 32-bit formats come back as C longs.
    private func readProperty(_ prop: Atom) -> (Atom, Data)? {
        var type: Atom = 0, format: Int32 = 0, items: UInt = 0, after: UInt = 0
        var ptr: UnsafeMutablePointer<UInt8>?
        let longs = maxBytes / 4
        guard XGetWindowProperty(x.display, window, prop, 0, longs, 1, Atom(AnyPropertyType), &type, &format, &items, &after, &ptr) == Success else { return nil }
        defer { if let ptr { XFree(ptr) } }
        guard after == 0, let ptr else { return nil }
        let unit = format == 32 ? MemoryLayout<UInt>.size : Int(format / 8)
        return (type, Data(bytes: ptr, count: Int(items) * max(1, unit)))
    }
}
