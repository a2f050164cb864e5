import CX11
import Foundation

/// The X input method's context for the window that takes keys: dead keys and Compose sequences
/// (´ then e is é) and layouts whose keysyms are not Latin-1 (Cyrillic, Greek, Latin-2) come out
/// as UTF-8 text, which `XLookupString` alone cannot give. Holds the connection so the display
/// outlives the context.
final class InputContext {
    private let x: XConnection
    private let im: XIM
    private let ic: XIC

    /// nil when the X library has no input method for any UTF-8 locale: keys are then looked up
    /// without one (Latin-1 and Unicode keysyms still type).
    init?(_ x: XConnection, window: Window) {
        // Input methods and their Compose tables follow LC_CTYPE, which a Swift process leaves at
        // "C"; the user's locale when it is UTF-8, else C.UTF-8 (every Compose file is UTF-8).
        if setlocale(LC_CTYPE, "") == nil || String(cString: nl_langinfo(nl_item(CODESET))) != "UTF-8" || XSupportsLocale() == 0 {
            setlocale(LC_CTYPE, "C.UTF-8")
        }
        guard XSupportsLocale() != 0 else { return nil }
        XSetLocaleModifiers("")  // honours XMODIFIERS (@im=ibus, ...)
        guard let im = XOpenIM(x.display, nil, nil, nil) else { return nil }
        guard let ic = quire_CreateIC(im, window) else {
            XCloseIM(im)
            return nil
        }
        self.x = x
        self.im = im
        self.ic = ic
    }

    deinit {
        XDestroyIC(ic)
        XCloseIM(im)
    }

    /// True when the input method took the event (a dead key, a step of a Compose sequence):
    /// the caller must then ignore it.
    func filter(_ ev: inout XEvent) -> Bool { XFilterEvent(&ev, 0) != 0 }

    func setFocus(_ focused: Bool) {
        if focused { XSetICFocus(ic) } else { XUnsetICFocus(ic) }
    }

    /// The text a key press commits (UTF-8; empty for none) and its keysym (0 for none, as after
    /// a Compose sequence).
    func lookup(_ k: inout XKeyEvent) -> (text: String, keysym: KeySym) {
        var keysym: KeySym = 0
        var status: Int32 = 0
        var buf = [CChar](repeating: 0, count: 64)
        var n = Xutf8LookupString(ic, &k, &buf, Int32(buf.count), &keysym, &status)
        if status == XBufferOverflow {
            buf = [CChar](repeating: 0, count: Int(n) + 1)
            n = Xutf8LookupString(ic, &k, &buf, Int32(buf.count), &keysym, &status)
        }
        let hasText = status == XLookupChars || status == XLookupBoth
        let hasKeysym = status == XLookupKeySym || status == XLookupBoth
        let text = hasText && n > 0 ? String(decoding: buf.prefix(Int(n)).map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        return (text, hasKeysym ? keysym : 0)
    }
}
