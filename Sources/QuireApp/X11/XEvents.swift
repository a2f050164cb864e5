import CX11
import Foundation
import Quire

/// Reads the X connection and decodes its events into `WindowEvent`s. Keeps the table of input
/// devices (XInput2) that pointer events are decoded with, answers the CLIPBOARD's selection
/// traffic, and feeds keys through the input method. Runs on the thread that owns the connection.
final class XEventSource {
    private let x: XConnection
    private let top: XTopLevel
    private let clipboard: XClipboard
    private(set) var devices: [Int: InputDevice] = [:]
    /// `input.devices` overrides of the devices' kinds.
    var overrides: [(String, DeviceKind)] = []

    init(x: XConnection, top: XTopLevel, clipboard: XClipboard) {
        self.x = x
        self.top = top
        self.clipboard = clipboard
        x.selectXI(window: x.root, events: [XI_HierarchyChanged, XI_DeviceChanged], deviceId: XIAllDevices)
    }

    /// Reads the devices again; returns the ids of those that went away or were disabled.
    @discardableResult
    func refreshDevices() -> [Int] {
        let list = x.queryDevices(overrides: overrides)
        let old = devices
        devices = Dictionary(uniqueKeysWithValues: list.map { ($0.id, $0) })
        if ProcessInfo.processInfo.environment["QUIRE_DEBUG_DEVICES"] != nil {
            for d in list { FileHandle.standardError.write(Data("quire: device \(d.id) '\(d.name)' -> \(d.kind.rawValue) pressure-axis=\(d.pressureAxis.map(String.init) ?? "none")\n".utf8)) }
        }
        return old.keys.filter { devices[$0] == nil || devices[$0]?.enabled == false }.sorted()
    }

    var hasPending: Bool { XPending(x.display) > 0 }

    /// Reads one event and hands what it means to `handle` (nothing, one or a few events).
    func next(_ handle: (WindowEvent) -> Void) {
        var ev = XEvent()
        XNextEvent(x.display, &ev)
        let received = monotonicNs()
        if ev.type == GenericEvent {
            decodeGeneric(&ev, received: received, handle)
            return
        }
        // Pen and touch (XI2 generic events) never go to the input method: the hot path skips it.
        if let ic = top.inputContext, ic.filter(&ev) { return }
        handle(.nonPointer)
        switch ev.type {
        case Expose:
            let e = ev.xexpose
            handle(.expose(e.window, Rect(x: Double(e.x), y: Double(e.y), width: Double(e.width), height: Double(e.height)), last: e.count == 0))
        case MapNotify:
            handle(.mapped(ev.xmap.window))
        case ConfigureNotify:
            let e = ev.xconfigure
            handle(.resized(e.window, width: Int(e.width), height: Int(e.height)))
        case KeyPress:
            var k = ev.xkey
            handle(.key(decodeKey(&k)))
        case FocusIn:
            if ev.xfocus.window == top.id { top.inputContext?.setFocus(true) }
        case MappingNotify:
            // Another layout (setxkbmap, a test binding a key): look keys up in the new map.
            var m = ev.xmapping
            XRefreshKeyboardMapping(&m)
        case FocusOut:
            guard ev.xfocus.window == top.id else { break }
            top.inputContext?.setFocus(false)
            if ev.xfocus.mode == NotifyNormal || ev.xfocus.mode == NotifyGrab { handle(.focusLost) }
        case ClientMessage:
            let e = ev.xclient
            if e.message_type == x.atom("WM_PROTOCOLS"), Atom(e.data.l.0) == x.atom("WM_DELETE_WINDOW") { handle(.closeRequested) }
        case SelectionRequest:
            clipboard.handleRequest(ev.xselectionrequest)
        case SelectionClear:
            clipboard.handleClear(ev.xselectionclear)
        case SelectionNotify:
            clipboard.handleNotify(ev.xselection)
        default:
            break
        }
    }

    private func decodeGeneric(_ ev: inout XEvent, received: UInt64, _ handle: (WindowEvent) -> Void) {
        var cookie = ev.xcookie
        guard cookie.extension == x.xiOpcode, XGetEventData(x.display, &cookie) != 0 else { return }
        defer { XFreeEventData(x.display, &cookie) }
        switch cookie.evtype {
        case XI_HierarchyChanged, XI_DeviceChanged:
            let lost = refreshDevices()
            if !lost.isEmpty { handle(.devicesLost(lost)) }
        case XI_ButtonPress, XI_ButtonRelease, XI_Motion, XI_TouchBegin, XI_TouchUpdate, XI_TouchEnd:
            let de = cookie.data.assumingMemoryBound(to: XIDeviceEvent.self).pointee
            decodeDevice(cookie.evtype, de, received: received, handle)
        default:
            break
        }
    }

    private func decodeDevice(_ type: Int32, _ de: XIDeviceEvent, received: UInt64, _ handle: (WindowEvent) -> Void) {
        // Pointer events emulated from touches would write a second time.
        if de.flags & Int32(XIPointerEmulated) != 0 { return }
        let source = Int(de.sourceid)
        if devices[source] == nil {
            let lost = refreshDevices()
            if !lost.isEmpty { handle(.devicesLost(lost)) }
        }
        let dev = devices[source] ?? InputDevice(id: source, name: "unknown", kind: .mouse)
        var pressure: Double?
        if let axis = dev.pressureAxis {
            let mask = de.valuators.mask, count = Int(de.valuators.mask_len) * 8
            var vi = 0
            for bit in 0..<min(count, axis + 1) where quire_XIMaskIsSet(mask, Int32(bit)) != 0 {
                if bit == axis { pressure = dev.normalizedPressure(de.valuators.values[vi]) }
                vi += 1
            }
        }
        let phase: PointerInput.Phase
        switch type {
        case XI_ButtonPress: phase = .buttonPress
        case XI_ButtonRelease: phase = .buttonRelease
        case XI_Motion: phase = .motion
        case XI_TouchBegin: phase = .touchBegin
        case XI_TouchUpdate: phase = .touchUpdate
        default: phase = .touchEnd
        }
        handle(.pointer(PointerInput(phase: phase, window: de.event, device: dev, detail: Int(de.detail),
                                     point: Point(x: de.event_x, y: de.event_y), ctrl: de.mods.effective & ControlMask != 0,
                                     serverTime: de.time, pressure: pressure, received: received)))
    }

    private func decodeKey(_ k: inout XKeyEvent) -> KeyInput {
        var keysym: KeySym = 0
        var typed = ""
        if let ic = top.inputContext {
            (typed, keysym) = ic.lookup(&k)
        } else {
            var buf = [CChar](repeating: 0, count: 32)
            let n = XLookupString(&k, &buf, 31, &keysym, nil)
            typed = n > 0 ? String(validating: buf.prefix(Int(n)).map { UInt8(bitPattern: $0) }, as: UTF8.self) ?? "" : ""
        }
        let lower = keysym >= 0x41 && keysym <= 0x5a ? keysym + 0x20 : keysym
        let name = XKeysymToString(lower).map { String(cString: $0).lowercased() }
        return KeyInput(key: XKeys.key(keysym), text: typed, ctrl: k.state & UInt32(ControlMask) != 0,
                        shift: k.state & UInt32(ShiftMask) != 0, alt: k.state & UInt32(Mod1Mask) != 0, name: name, time: k.time)
    }

    /// Round trip: everything the server has sent so far is then queued.
    func sync() { XSync(x.display, 0) }

    func flush() { XFlush(x.display) }

    /// Sleeps until the X connection or `wakeFD` has something to read, or `timeoutMs` passes
    /// (at once when events are queued already). Returns true when `wakeFD` was readable.
    func wait(timeoutMs: Int32, wakeFD: Int32) -> Bool {
        var fds = [pollfd(fd: x.fileDescriptor, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)]
        _ = poll(&fds, 2, hasPending ? 0 : timeoutMs)
        return fds[1].revents != 0
    }
}

/// Keysyms as the app's `Key`s.
enum XKeys {
    static func key(_ keysym: KeySym) -> Key {
        switch Int32(truncatingIfNeeded: keysym) {
        case _ where keysym > 0xffff_ffff: return .other
        case XK_Escape: return .escape
        case XK_Up, XK_KP_Up: return .up
        case XK_Down, XK_KP_Down: return .down
        case XK_Left, XK_KP_Left: return .left
        case XK_Right, XK_KP_Right: return .right
        case XK_Home, XK_KP_Home: return .home
        case XK_End, XK_KP_End: return .end
        case XK_Tab: return .tab
        case XK_Return, XK_KP_Enter: return .enter
        case XK_Menu: return .menu
        case XK_BackSpace: return .backspace
        case XK_Delete: return .delete
        case XK_F11: return .f11
        case XK_F12: return .f12
        case XK_Page_Up, XK_KP_Page_Up: return .pageUp
        case XK_Page_Down, XK_KP_Page_Down: return .pageDown
        case XK_KP_Add: return .keypadPlus
        case XK_KP_Subtract: return .keypadMinus
        default:
            if keysym == 0 { return .none }
            return character(keysym).map(Key.character) ?? .other
        }
    }

    /// The character of a keysym: Latin-1 keysyms are their code points, Unicode keysyms are 0x01000000 + code point.
    static func character(_ keysym: KeySym) -> Character? {
        if keysym >= 0x20 && keysym <= 0x7e || keysym >= 0xa0 && keysym <= 0xff { return Character(UnicodeScalar(UInt8(keysym))) }
        if keysym & 0xff00_0000 == 0x0100_0000, let u = UnicodeScalar(UInt32(keysym & 0x00ff_ffff)), u.value >= 0x20 { return Character(u) }
        return nil
    }
}
