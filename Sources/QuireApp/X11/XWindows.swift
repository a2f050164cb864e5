import CX11
import Foundation
import Quire

/// The app's top-level X window: title, class, WM_DELETE_WINDOW, full screen, the keyboard's
/// input method. Owns the window; `destroy()` takes it down.
final class XTopLevel {
    let x: XConnection
    let id: Window
    let inputContext: InputContext?
    private(set) var fullscreen: Bool

    init(x: XConnection, width: Int, height: Int, title: String, fullscreen: Bool) {
        self.x = x
        let d = x.display
        let black = quire_BlackPixel(d, x.screen), white = quire_WhitePixel(d, x.screen)
        let id = XCreateSimpleWindow(d, x.root, 0, 0, UInt32(width), UInt32(height), 0, black, white)
        self.id = id
        Self.storeTitle(x, id, title)
        if let hint = XAllocClassHint() {
            let name = strdup("quire"), cls = strdup("Quire")
            hint.pointee.res_name = name
            hint.pointee.res_class = cls
            XSetClassHint(d, id, hint)
            XFree(hint); free(name); free(cls)
        }
        var proto = x.atom("WM_DELETE_WINDOW")
        XSetWMProtocols(d, id, &proto, 1)
        if fullscreen {
            var state = [x.atom("_NET_WM_STATE_FULLSCREEN")]
            _ = state.withUnsafeMutableBytes {
                XChangeProperty(d, id, x.atom("_NET_WM_STATE"), Atom(XA_ATOM), 32, PropModeReplace, $0.baseAddress!.assumingMemoryBound(to: UInt8.self), 1)
            }
        }
        self.fullscreen = fullscreen
        XSelectInput(d, id, KeyPressMask | StructureNotifyMask | FocusChangeMask | PropertyChangeMask)
        inputContext = InputContext(x, window: id)
    }

    /// A child window that takes pointer and touch events and is painted through a Cairo surface.
    /// `parent` nil: a child of the top-level window.
    func createChild(of parent: XChildWindow? = nil, frame: Rect, keepContent: Bool = false,
                     structureEvents: Bool = false) throws -> XChildWindow {
        try XChildWindow(x: x, parent: parent?.id ?? id, frame: frame, keepContent: keepContent, structureEvents: structureEvents)
    }

    /// Maps the top-level's children, then the window itself.
    /// The title: WM_NAME and, in UTF-8, _NET_WM_NAME.
    func setTitle(_ title: String) { Self.storeTitle(x, id, title) }

    private static func storeTitle(_ x: XConnection, _ id: Window, _ title: String) {
        XStoreName(x.display, id, title)
        var utf8 = Array(title.utf8)
        XChangeProperty(x.display, id, x.atom("_NET_WM_NAME"), x.atom("UTF8_STRING"), 8, PropModeReplace, &utf8, Int32(utf8.count))
    }

    func show() {
        XMapSubwindows(x.display, id)
        XMapWindow(x.display, id)
        XFlush(x.display)
    }

    func takeFocus() { XSetInputFocus(x.display, id, RevertToParent, 0) }

    /// Full screen through the window manager (EWMH) and, without one, by resizing to the screen.
    func setFullscreen(_ on: Bool, restoreSize: (width: Int, height: Int)) {
        fullscreen = on
        var ev = XEvent()
        ev.xclient.type = ClientMessage
        ev.xclient.window = id
        ev.xclient.message_type = x.atom("_NET_WM_STATE")
        ev.xclient.format = 32
        ev.xclient.data.l.0 = on ? 1 : 0
        ev.xclient.data.l.1 = Int(x.atom("_NET_WM_STATE_FULLSCREEN"))
        XSendEvent(x.display, x.root, 0, SubstructureRedirectMask | SubstructureNotifyMask, &ev)
        let s = x.screenSize
        if on {
            XMoveResizeWindow(x.display, id, 0, 0, UInt32(s.width), UInt32(s.height))
        } else {
            XResizeWindow(x.display, id, UInt32(restoreSize.width), UInt32(restoreSize.height))
        }
    }

    func destroy() {
        XDestroyWindow(x.display, id)
        XFlush(x.display)
    }
}

/// A child X window with the Cairo surface that paints it. Pointer and touch events (XI2) of all
/// devices are selected on it, and Expose.
final class XChildWindow: PaintedWindow {
    // The surfaces come first: stored properties are released in order, and a surface must go
    // before the connection it draws through can close.
    let surface: CairoSurface
    /// Further surfaces on this window, resized with it.
    private var overlays: [CairoSurface] = []
    private let x: XConnection
    let id: WindowID
    private var size: (width: Int, height: Int)

    /// `keepContent`: no background for the server to paint (the app repaints everything itself).
    init(x: XConnection, parent: Window, frame: Rect, keepContent: Bool, structureEvents: Bool) throws {
        self.x = x
        let d = x.display
        let black = quire_BlackPixel(d, x.screen), white = quire_WhitePixel(d, x.screen)
        let w = max(1, Int(frame.width)), h = max(1, Int(frame.height))
        let window = XCreateSimpleWindow(d, parent, Int32(frame.x), Int32(frame.y), UInt32(w), UInt32(h), 0, black, white)
        id = window
        size = (w, h)
        if keepContent { XSetWindowBackgroundPixmap(d, window, 0) }
        XSelectInput(d, window, ExposureMask | (structureEvents ? StructureNotifyMask : 0))
        x.selectXI(window: window, events: [XI_ButtonPress, XI_ButtonRelease, XI_Motion, XI_TouchBegin, XI_TouchUpdate, XI_TouchEnd])
        surface = try Self.makeSurface(x, window, w, h)
    }

    private static func makeSurface(_ x: XConnection, _ window: Window, _ w: Int, _ h: Int) throws -> CairoSurface {
        let visual = UnsafeMutableRawPointer(quire_DefaultVisual(x.display, x.screen)!)
        return try CairoSurface.xlib(display: x.display, drawable: UInt(window), visual: visual, width: w, height: h)
    }

    /// A second surface on the same window (drawing over what the first one paints).
    func makeOverlaySurface() throws -> CairoSurface {
        let s = try Self.makeSurface(x, id, size.width, size.height)
        overlays.append(s)
        return s
    }

    func setFrame(_ frame: Rect) {
        let w = max(1, Int(frame.width)), h = max(1, Int(frame.height))
        XMoveResizeWindow(x.display, id, Int32(frame.x), Int32(frame.y), UInt32(w), UInt32(h))
        size = (w, h)
        surface.setXlibSize(width: w, height: h)
        for s in overlays { s.setXlibSize(width: w, height: h) }
    }

    func showRaised() { XMapRaised(x.display, id) }
    func raise() { XRaiseWindow(x.display, id) }
    func hide() { XUnmapWindow(x.display, id) }
}
