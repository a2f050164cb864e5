import CX11
import Foundation
import Quire

/// The last X protocol error (Xlib's default handler would exit the process: a clipboard client
/// that vanished must not take the editor down with it).
nonisolated(unsafe) var lastXErrorCode: UInt8 = 0

/// An owned Xlib connection. Every Xlib call of the app happens on the thread that owns it.
final class XConnection {
    let display: OpaquePointer
    let screen: Int32
    let root: Window
    /// XInputExtension major opcode.
    let xiOpcode: Int32
    private var atoms: [String: Atom] = [:]

    init(name: String?) throws {
        XInitThreads()
        XSetErrorHandler { _, event in
            lastXErrorCode = event?.pointee.error_code ?? 0
            return 0
        }
        guard let d = XOpenDisplay(name) else {
            throw QuireError(.resourceMissing, "cannot open X display '\(name ?? ProcessInfo.processInfo.environment["DISPLAY"] ?? "")': is an X server running and DISPLAY set?")
        }
        display = d
        screen = quire_DefaultScreen(d)
        root = quire_RootWindow(d, screen)
        var op: Int32 = 0, ev: Int32 = 0, err: Int32 = 0
        guard XQueryExtension(d, "XInputExtension", &op, &ev, &err) != 0 else {
            XCloseDisplay(d)
            throw QuireError(.resourceMissing, "the X server has no XInput extension; Quire needs XInput 2.2 for pen and touch")
        }
        var major: Int32 = 2, minor: Int32 = 2
        guard XIQueryVersion(d, &major, &minor) == Success, major * 100 + minor >= 202 else {
            XCloseDisplay(d)
            throw QuireError(.resourceMissing, "the X server has XInput \(major).\(minor); Quire needs 2.2 or later")
        }
        xiOpcode = op
    }

    deinit { XCloseDisplay(display) }

    var fileDescriptor: Int32 { XConnectionNumber(display) }

    func atom(_ name: String) -> Atom {
        if let a = atoms[name] { return a }
        let a = XInternAtom(display, name, 0)
        atoms[name] = a
        return a
    }

    func atomName(_ a: Atom) -> String? {
        guard a != 0, let p = XGetAtomName(display, a) else { return nil }
        defer { XFree(p) }
        return String(cString: p)
    }

    /// Screen resolution in dots per inch: Xft.dpi when set (what desktops configure), else the
    /// screen's size in millimetres, else 96.
    var dpi: Double {
        if let rm = XResourceManagerString(display) {
            let s = String(cString: rm)
            for line in s.split(separator: "\n") where line.hasPrefix("Xft.dpi:") {
                if let v = Double(line.dropFirst(8).trimmingCharacters(in: .whitespaces)), v >= 48, v <= 480 { return v }
            }
        }
        let px = Double(quire_DisplayWidth(display, screen)), mm = Double(quire_DisplayWidthMM(display, screen))
        if mm > 10 { let v = px * 25.4 / mm; if v >= 48, v <= 480 { return v } }
        return 96
    }

    var screenSize: (width: Int, height: Int) {
        (Int(quire_DisplayWidth(display, screen)), Int(quire_DisplayHeight(display, screen)))
    }

    /// Selects XI2 events on a window for all master devices (pointer events carry the physical
    /// device in `sourceid`).
    func selectXI(window: Window, events: [Int32], deviceId: Int32 = XIAllMasterDevices) {
        let len = quire_XIMaskLen(XI_LASTEVENT)
        var bytes = [UInt8](repeating: 0, count: Int(len))
        bytes.withUnsafeMutableBufferPointer { buf in
            for e in events { quire_XISetMask(buf.baseAddress!, e) }
            var mask = XIEventMask(deviceid: deviceId, mask_len: len, mask: buf.baseAddress!)
            XISelectEvents(display, window, &mask, 1)
        }
    }

    /// Enumerates the physical pointer devices with what decides their kind.
    func queryDevices(overrides: [(String, DeviceKind)]) -> [InputDevice] {
        var count: Int32 = 0
        guard let infos = XIQueryDevice(display, XIAllDevices, &count) else { return [] }
        defer { XIFreeDeviceInfo(infos) }
        let pressureLabels = Set(["Abs Pressure", "Abs MT Pressure"].map { atom($0) })
        var out: [InputDevice] = []
        for i in 0..<Int(count) {
            let info = infos[i]
            guard info.use == XISlavePointer || info.use == XIFloatingSlave else { continue }
            let name = String(cString: info.name)
            var axis: Int?, lo = 0.0, hi = 1.0, touch = false
            for c in 0..<Int(info.num_classes) {
                guard let cls = info.classes[c] else { continue }
                switch cls.pointee.type {
                case XIValuatorClass:
                    let v = UnsafeMutableRawPointer(cls).assumingMemoryBound(to: XIValuatorClassInfo.self).pointee
                    if axis == nil, pressureLabels.contains(v.label) { axis = Int(v.number); lo = v.min; hi = v.max }
                case XITouchClass:
                    let t = UnsafeMutableRawPointer(cls).assumingMemoryBound(to: XITouchClassInfo.self).pointee
                    if t.mode == XIDirectTouch { touch = true }
                default: break
                }
            }
            let traits = DeviceTraits(name: name, wacomToolType: wacomToolType(Int32(info.deviceid)),
                                      hasPressure: axis != nil, hasDirectTouch: touch, isPointer: true)
            var d = InputDevice(id: Int(info.deviceid), name: name, kind: DeviceClassifier.classify(traits, overrides: overrides),
                                pressureAxis: axis, pressureMin: lo, pressureMax: hi)
            d.enabled = info.enabled != 0
            out.append(d)
        }
        return out
    }

    private func wacomToolType(_ id: Int32) -> String? {
        let prop = XInternAtom(display, "Wacom Tool Type", 1)
        guard prop != 0 else { return nil }
        var type: Atom = 0, format: Int32 = 0, items: UInt = 0, after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        guard XIGetProperty(display, id, prop, 0, 1, 0, Atom(XA_ATOM), &type, &format, &items, &after, &data) == Success,
              let data else { return nil }
        defer { XFree(data) }
        guard format == 32, items >= 1 else { return nil }
        let a = UnsafeRawPointer(data).assumingMemoryBound(to: UInt.self).pointee
        return atomName(Atom(a))
    }
}
