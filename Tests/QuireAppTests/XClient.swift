import CCairo
import CX11
import Foundation
#if canImport(Glibc)
import Glibc
#endif

private let xlibThreads: Void = { _ = XInitThreads() }()

/// libXtst and libXi create their per-process extension record on the first call that needs it,
/// without a lock: two test threads doing that at once lose one record (LeakSanitizer reported
/// the lost `XextCreateExtension` block). Every client touches both extensions under this lock as
/// it opens, so the records exist before any test sends a fake key or selects XI2 events.
private let extensionRecords = NSLock()

/// libXi also destroys its record (and sets it to null) when the last display using XInput
/// closes, while another thread may be between its null check and `XextAddDisplay`: two CI runs
/// crashed so, reading through a null record. This connection takes XInput and XTest once, under
/// `extensionRecords`, before any other client does, and is never closed, so the count of XInput
/// displays never falls to zero again. It outlives its server harmlessly: nothing reads from it.
nonisolated(unsafe) private var extensionPin: OpaquePointer?

private func pinExtensionRecords(display name: String) {
    guard extensionPin == nil, let d = XOpenDisplay(name) else { return }
    XSetIOErrorExitHandler(d, { _, _ in }, nil)
    var event: Int32 = 0, error: Int32 = 0, opcode: Int32 = 0, major: Int32 = 2, minor: Int32 = 2
    if XQueryExtension(d, "XInputExtension", &opcode, &event, &error) != 0 {
        _ = XIQueryVersion(d, &major, &minor)
    }
    _ = XTestQueryExtension(d, &event, &error, &major, &minor)
    extensionPin = d
}

/// X errors are expected in tests (a window that went away, a capture outside the screen):
/// record them instead of letting Xlib's default handler exit the test runner.
final class XErrorLog: @unchecked Sendable {
    private let lock = NSLock()
    private var codes: [(error: UInt8, request: UInt8)] = []
    func record(_ error: UInt8, _ request: UInt8) { lock.withLock { codes.append((error, request)) } }
    func take() -> [(error: UInt8, request: UInt8)] { lock.withLock { defer { codes = [] }; return codes } }
}
let xErrors = XErrorLog()

// XI2.h defines these as shifts, which Swift does not import.
let XIDeviceEnabledFlag: Int32 = 1 << 6
let XIDeviceDisabledFlag: Int32 = 1 << 7

/// One XI2 device event as a test sees it (copied out of the event cookie).
struct XIEventRecord: Sendable {
    let type: Int32             // XI_Motion, XI_ButtonPress, XI_TouchBegin, ...
    let deviceid: Int32         // the master
    let sourceid: Int32         // the physical (slave) device: what an app classifies by
    let detail: Int32           // button number or touch id
    let eventX: Double
    let eventY: Double
    let rootX: Double
    let rootY: Double
    let flags: Int32
    let valuators: [Int: Double]  // axis number -> value, only the axes present in this event
    var pointerEmulated: Bool { flags & Int32(XIPointerEmulated) != 0 }
}

struct XIHierarchyRecord: Sendable {
    let deviceid: Int32
    let enabled: Bool
    let flags: Int32             // XIDeviceDisabled, XISlaveRemoved, ...
}

enum XEventRecord: Sendable {
    case xi(XIEventRecord)
    case hierarchy(flags: Int32, [XIHierarchyRecord])
    case core(type: Int32, window: UInt)
}

struct XIValuatorInfo: Sendable {
    let number: Int
    let label: String
    let min: Double
    let max: Double
}

struct XIDeviceSummary: Sendable {
    let id: Int32
    let name: String
    let use: Int32               // XIMasterPointer, XISlavePointer, ...
    let enabled: Bool
    let valuators: [XIValuatorInfo]
    let touchMode: Int32?        // XIDirectTouch / XIDependentTouch when a touch class exists
    let numTouches: Int
}

/// A test-side Xlib connection: find and inspect the app's windows, read pixels back, and inject
/// XTest keys/mouse. Not thread-safe: use it from the test's own thread.
final class XClient {
    let display: OpaquePointer
    let screen: Int32
    let root: Window
    /// Keeps the server alive as long as this connection (Swift may end a local's lifetime at its
    /// last use, and a server killed under an open connection makes Xlib exit the process).
    private let server: XServer?
    private(set) var xiOpcode: Int32 = -1
    private var queue: [XEventRecord] = []

    convenience init(server: XServer) throws {
        try self.init(display: server.display, server: server)
    }

    init(display name: String, server: XServer? = nil) throws {
        _ = xlibThreads
        guard let d = XOpenDisplay(name) else { throw HarnessError("cannot open display \(name)") }
        display = d
        self.server = server
        screen = quire_DefaultScreen(d)
        defer { server?.register(self) }
        root = quire_RootWindow(d, screen)
        XSetErrorHandler { _, ev in
            if let ev { xErrors.record(ev.pointee.error_code, ev.pointee.request_code) }
            return 0
        }
        // If the server dies anyway, make later calls fail instead of exiting the test runner.
        XSetIOErrorHandler { _ in 0 }
        XSetIOErrorExitHandler(d, { _, _ in }, nil)
        extensionRecords.lock()
        defer { extensionRecords.unlock() }
        pinExtensionRecords(display: name)
        var event: Int32 = 0, error: Int32 = 0, opcode: Int32 = 0
        if XQueryExtension(d, "XInputExtension", &opcode, &event, &error) != 0 {
            var major: Int32 = 2, minor: Int32 = 2
            if XIQueryVersion(d, &major, &minor) == Success { xiOpcode = opcode }
        }
        var testMajor: Int32 = 0, testMinor: Int32 = 0
        _ = XTestQueryExtension(d, &event, &error, &testMajor, &testMinor)
    }

    private var closed = false

    deinit { close() }

    /// Closes the connection; the server calls this for its clients before it is killed, because a
    /// connection whose server died makes Xlib report a fatal I/O error.
    func close() {
        guard !closed else { return }
        closed = true
        XCloseDisplay(display)
    }

    func sync() { XSync(display, 0) }

    func atom(_ name: String) -> Atom { XInternAtom(display, name, 0) }

    func atomName(_ atom: Atom) -> String {
        guard atom != 0, let p = XGetAtomName(display, atom) else { return "" }
        defer { XFree(p) }
        return String(cString: p)
    }

    // MARK: windows

    var screenSize: (width: Int, height: Int) {
        (Int(quire_DisplayWidth(display, screen)), Int(quire_DisplayHeight(display, screen)))
    }

    func children(of window: Window) -> [Window] {
        var rootReturn: Window = 0, parent: Window = 0
        var list: UnsafeMutablePointer<Window>?
        var count: UInt32 = 0
        guard XQueryTree(display, window, &rootReturn, &parent, &list, &count) != 0, let list else { return [] }
        defer { XFree(list) }
        return Array(UnsafeBufferPointer(start: list, count: Int(count)))
    }

    /// WM_NAME, or _NET_WM_NAME (UTF-8) when WM_NAME is not set.
    func name(of window: Window) -> String? {
        var p: UnsafeMutablePointer<CChar>?
        if XFetchName(display, window, &p) != 0, let p {
            defer { XFree(p) }
            return String(cString: p)
        }
        var type: Atom = 0, format: Int32 = 0
        var count: UInt = 0, after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        guard XGetWindowProperty(display, window, atom("_NET_WM_NAME"), 0, 1024, 0, atom("UTF8_STRING"),
                                 &type, &format, &count, &after, &data) == Success, let data else { return nil }
        defer { XFree(data) }
        return count > 0 ? String(decoding: UnsafeBufferPointer(start: data, count: Int(count)), as: UTF8.self) : nil
    }

    /// Depth-first search from the root for a window whose name contains `name`.
    func findWindow(named name: String, timeout: Double = 10) throws -> Window {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            var stack = children(of: root)
            while let w = stack.popLast() {
                if let n = self.name(of: w), n.contains(name) { return w }
                stack.append(contentsOf: children(of: w))
            }
            usleep(10_000)
        } while Date() < deadline
        throw HarnessError("no window named '\(name)' appeared in \(timeout) s")
    }

    func exists(_ window: Window) -> Bool {
        var attrs = XWindowAttributes()
        let ok = XGetWindowAttributes(display, window, &attrs) != 0
        _ = xErrors.take()
        return ok
    }

    func isViewable(_ window: Window) -> Bool {
        var attrs = XWindowAttributes()
        guard XGetWindowAttributes(display, window, &attrs) != 0 else { return false }
        return attrs.map_state == IsViewable
    }

    func waitUntilViewable(_ window: Window, timeout: Double = 10) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !isViewable(window) {
            guard Date() < deadline else { throw HarnessError("window 0x\(String(window, radix: 16)) not viewable in \(timeout) s") }
            usleep(5_000)
        }
    }

    /// Position relative to the root window and size.
    func geometry(_ window: Window) throws -> (x: Int, y: Int, width: Int, height: Int) {
        var attrs = XWindowAttributes()
        guard XGetWindowAttributes(display, window, &attrs) != 0 else {
            throw HarnessError("window 0x\(String(window, radix: 16)) does not exist")
        }
        var rx: Int32 = 0, ry: Int32 = 0
        var child: Window = 0
        XTranslateCoordinates(display, window, root, 0, 0, &rx, &ry, &child)
        return (Int(rx), Int(ry), Int(attrs.width), Int(attrs.height))
    }

    /// A plain window for harness tests (the app under test creates its own). Waits until mapped.
    func createWindow(x: Int, y: Int, width: Int, height: Int, title: String) throws -> Window {
        let w = XCreateSimpleWindow(display, root, Int32(x), Int32(y), UInt32(width), UInt32(height), 0,
                                    quire_BlackPixel(display, screen), quire_WhitePixel(display, screen))
        XStoreName(display, w, title)
        XSelectInput(display, w, StructureNotifyMask | ExposureMask)
        XMapRaised(display, w)
        sync()
        let mapped = try waitEvent(timeout: 10) { if case .core(let t, let win) = $0 { return t == MapNotify && win == w }; return false }
        guard mapped != nil else { throw HarnessError("test window was not mapped") }
        return w
    }

    func destroyWindow(_ w: Window) { XDestroyWindow(display, w); sync() }

    // MARK: pixels

    /// Reads a window's pixels (or a part of it) into an image. The window must be viewable and
    /// on screen; Xvfb and the dummy driver keep no backing store, so covered parts read back the
    /// covering window.
    func capture(_ window: Window, x: Int = 0, y: Int = 0, width: Int? = nil, height: Int? = nil) throws -> CairoImage {
        let g = try geometry(window)
        let w = width ?? (g.width - x), h = height ?? (g.height - y)
        guard let img = XGetImage(display, window, Int32(x), Int32(y), UInt32(w), UInt32(h), ~0, ZPixmap) else {
            sync()
            throw HarnessError("XGetImage failed on 0x\(String(window, radix: 16)) (\(xErrors.take().map { "error \($0.error)" }))")
        }
        defer { _ = img.pointee.f.destroy_image?(img) }
        let ximg = img.pointee
        guard ximg.bits_per_pixel == 32, ximg.byte_order == LSBFirst,
              ximg.red_mask == 0xff0000, ximg.green_mask == 0xff00, ximg.blue_mask == 0xff else {
            throw HarnessError("unsupported visual: \(ximg.bits_per_pixel) bpp, masks \(ximg.red_mask)/\(ximg.green_mask)/\(ximg.blue_mask)")
        }
        let image = CairoImage(width: w, height: h)
        let dst = image.data, stride = image.stride
        let src = UnsafeRawPointer(ximg.data!)
        for row in 0 ..< h {
            let s = src.advanced(by: row * Int(ximg.bytes_per_line)).assumingMemoryBound(to: UInt32.self)
            let d = dst.advanced(by: row * stride).assumingMemoryBound(to: UInt32.self)
            for col in 0 ..< w { d[col] = s[col] | 0xff00_0000 }
        }
        image.markDirty()
        return image
    }

    func captureScreen() throws -> CairoImage { try capture(root) }

    // MARK: input through XTest (the "Virtual core XTEST" devices: no pressure, no touch)

    /// X keycodes of a chord such as "ctrl+s", "ctrl+shift+z", "Escape", "Return", modifiers first
    /// as written. For XTest (`keyChord`) or the inputtest keyboard (`InputTestDevice.keyChord`).
    func keycodes(_ chord: String) throws -> [Int32] {
        let names: [String: String] = ["ctrl": "Control_L", "control": "Control_L", "shift": "Shift_L",
                                       "alt": "Alt_L", "super": "Super_L", "meta": "Meta_L",
                                       "enter": "Return", "esc": "Escape", "del": "Delete"]
        return try chord.split(separator: "+").map(String.init).map { part in
            let sym = XStringToKeysym(names[part.lowercased()] ?? part)
            guard sym != 0 else { throw HarnessError("unknown key '\(part)' in '\(chord)'") }
            let code = XKeysymToKeycode(display, sym)
            guard code != 0 else { throw HarnessError("no keycode for '\(part)'") }
            return Int32(code)
        }
    }

    /// Gives an unused keycode the keysym `name` (a dead key, a Cyrillic letter: what another
    /// layout has) and returns the keycode, for `key(code:)`.
    func bindSpareKeycode(_ name: String) throws -> UInt32 {
        let sym = XStringToKeysym(name)
        guard sym != 0 else { throw HarnessError("unknown keysym '\(name)'") }
        var minCode: Int32 = 0, maxCode: Int32 = 0, perCode: Int32 = 0
        XDisplayKeycodes(display, &minCode, &maxCode)
        guard let map = XGetKeyboardMapping(display, UInt8(minCode), maxCode - minCode + 1, &perCode) else {
            throw HarnessError("no keyboard mapping")
        }
        defer { XFree(map) }
        // From the top: the high keycodes of the default map are the empty ones.
        for code in stride(from: maxCode, through: minCode, by: -1) {
            let row = Int(code - minCode) * Int(perCode)
            guard (0..<Int(perCode)).allSatisfy({ map[row + $0] == 0 }) else { continue }
            var syms: [KeySym] = [sym]
            XChangeKeyboardMapping(display, code, 1, &syms, 1)
            sync()
            return UInt32(code)
        }
        throw HarnessError("no spare keycode")
    }

    /// Presses then releases one keycode through XTest.
    func key(code: UInt32) {
        XTestFakeKeyEvent(display, code, 1, 0)
        XTestFakeKeyEvent(display, code, 0, 0)
        sync()
    }

    /// Presses then releases a chord through XTest (the "Virtual core XTEST keyboard").
    func keyChord(_ chord: String) throws {
        let codes = try keycodes(chord)
        for c in codes { XTestFakeKeyEvent(display, UInt32(c), 1, 0) }
        for c in codes.reversed() { XTestFakeKeyEvent(display, UInt32(c), 0, 0) }
        sync()
    }

    /// Gives a window the keyboard focus (there is no window manager to do it on click).
    func focus(_ window: Window) {
        XSetInputFocus(display, window, RevertToParent, 0)
        sync()
    }

    func mouseMove(x: Int, y: Int) {
        XTestFakeMotionEvent(display, screen, Int32(x), Int32(y), 0)
        sync()
    }

    func mouseButton(_ button: UInt32 = 1, pressed: Bool) {
        XTestFakeButtonEvent(display, button, pressed ? 1 : 0, 0)
        sync()
    }

    /// A mouse drag through screen points with button 1.
    func mouseDrag(_ points: [(x: Int, y: Int)], button: UInt32 = 1) {
        guard let first = points.first else { return }
        mouseMove(x: first.x, y: first.y)
        mouseButton(button, pressed: true)
        for p in points.dropFirst() { mouseMove(x: p.x, y: p.y) }
        mouseButton(button, pressed: false)
    }

    func click(x: Int, y: Int, button: UInt32 = 1) {
        mouseMove(x: x, y: y)
        mouseButton(button, pressed: true)
        mouseButton(button, pressed: false)
    }

    /// Where the core pointer is, in root coordinates.
    func pointerPosition() -> (x: Int, y: Int) {
        var r: Window = 0, c: Window = 0
        var rx: Int32 = 0, ry: Int32 = 0, wx: Int32 = 0, wy: Int32 = 0
        var mask: UInt32 = 0
        XQueryPointer(display, root, &r, &c, &rx, &ry, &wx, &wy, &mask)
        return (Int(rx), Int(ry))
    }

    /// What a window manager's close button sends.
    func sendDeleteWindow(_ window: Window) {
        var ev = XEvent()
        ev.xclient.type = ClientMessage
        ev.xclient.window = window
        ev.xclient.message_type = atom("WM_PROTOCOLS")
        ev.xclient.format = 32
        ev.xclient.data.l.0 = Int(atom("WM_DELETE_WINDOW"))
        ev.xclient.data.l.1 = 0
        XSendEvent(display, window, 0, NoEventMask, &ev)
        sync()
    }

    /// The atoms listed in a window's WM_PROTOCOLS (an app that handles close has WM_DELETE_WINDOW).
    func wmProtocols(_ window: Window) -> [String] {
        var list: UnsafeMutablePointer<Atom>?
        var count: Int32 = 0
        guard XGetWMProtocols(display, window, &list, &count) != 0, let list else { return [] }
        defer { XFree(list) }
        return UnsafeBufferPointer(start: list, count: Int(count)).map { atomName($0) }
    }

    // MARK: XInput2

    func devices() -> [XIDeviceSummary] {
        var n: Int32 = 0
        guard let info = XIQueryDevice(display, XIAllDevices, &n) else { return [] }
        defer { XIFreeDeviceInfo(info) }
        var out: [XIDeviceSummary] = []
        for i in 0 ..< Int(n) {
            let d = info[i]
            var valuators: [XIValuatorInfo] = []
            var touchMode: Int32?
            var numTouches = 0
            for c in 0 ..< Int(d.num_classes) {
                guard let cls = d.classes[c] else { continue }
                switch cls.pointee.type {
                case XIValuatorClass:
                    let v = UnsafeRawPointer(cls).assumingMemoryBound(to: XIValuatorClassInfo.self).pointee
                    valuators.append(XIValuatorInfo(number: Int(v.number), label: atomName(v.label), min: v.min, max: v.max))
                case XITouchClass:
                    let t = UnsafeRawPointer(cls).assumingMemoryBound(to: XITouchClassInfo.self).pointee
                    touchMode = t.mode
                    numTouches = Int(t.num_touches)
                default: break
                }
            }
            out.append(XIDeviceSummary(id: d.deviceid, name: String(cString: d.name), use: d.use, enabled: d.enabled != 0,
                                       valuators: valuators.sorted { $0.number < $1.number },
                                       touchMode: touchMode, numTouches: numTouches))
        }
        return out
    }

    func device(named name: String) -> XIDeviceSummary? { devices().first { $0.name == name } }

    func setDeviceEnabled(name: String, _ enabled: Bool) throws {
        guard let d = device(named: name) else { throw HarnessError("no input device named '\(name)'") }
        var value: UInt8 = enabled ? 1 : 0
        XIChangeProperty(display, d.id, atom("Device Enabled"), 19 /* XA_INTEGER */, 8, PropModeReplace, &value, 1)
        sync()
    }

    /// Selects XI2 events on a window. Touch needs begin, update and end together.
    func selectXI(_ window: Window, events: [Int32], deviceid: Int32 = XIAllMasterDevices) throws {
        guard xiOpcode >= 0 else { throw HarnessError("the server has no XInput 2.2") }
        var bits = [UInt8](repeating: 0, count: Int(quire_XIMaskLen(XI_LASTEVENT)))
        for e in events { quire_XISetMask(&bits, e) }
        let errorsBefore = xErrors.take()
        _ = errorsBefore
        bits.withUnsafeMutableBufferPointer { buf in
            var mask = XIEventMask(deviceid: deviceid, mask_len: Int32(buf.count), mask: buf.baseAddress)
            _ = XISelectEvents(display, window, &mask, 1)
        }
        sync()
        if let e = xErrors.take().first {
            throw HarnessError("XISelectEvents failed: X error \(e.error) (only one client may select button/touch events on a window)")
        }
    }

    /// Reads the next event, waiting at most `timeout` seconds.
    func nextEvent(timeout: Double) -> XEventRecord? {
        if !queue.isEmpty { return queue.removeFirst() }
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            while XPending(display) > 0 {
                if let r = readOne() { return r }
            }
            let left = deadline.timeIntervalSinceNow
            if left <= 0 { return nil }
            var p = pollfd(fd: XConnectionNumber(display), events: Int16(POLLIN), revents: 0)
            _ = poll(&p, 1, Int32(left * 1000) + 1)
        }
    }

    /// Waits for the first event that matches; events before it are dropped.
    func waitEvent(timeout: Double, _ match: (XEventRecord) -> Bool) throws -> XEventRecord? {
        let deadline = Date().addingTimeInterval(timeout)
        while let e = nextEvent(timeout: max(0, deadline.timeIntervalSinceNow)) {
            if match(e) { return e }
        }
        return nil
    }

    /// Every event that arrives until the connection has been quiet for `quiet` seconds.
    func drainEvents(quiet: Double = 0.2) -> [XEventRecord] {
        sync()
        var out: [XEventRecord] = []
        while let e = nextEvent(timeout: quiet) { out.append(e) }
        return out
    }

    private func readOne() -> XEventRecord? {
        var ev = XEvent()
        XNextEvent(display, &ev)
        if ev.type == GenericEvent {
            var cookie = ev.xcookie
            guard cookie.extension == xiOpcode, XGetEventData(display, &cookie) != 0, let data = cookie.data else { return nil }
            defer { XFreeEventData(display, &cookie) }
            if cookie.evtype == XI_HierarchyChanged {
                let h = data.assumingMemoryBound(to: XIHierarchyEvent.self).pointee
                let infos = (0 ..< Int(h.num_info)).map { i -> XIHierarchyRecord in
                    let info = h.info[i]
                    return XIHierarchyRecord(deviceid: info.deviceid, enabled: info.enabled != 0, flags: info.flags)
                }
                return .hierarchy(flags: h.flags, infos.filter { $0.flags != 0 })
            }
            let e = data.assumingMemoryBound(to: XIDeviceEvent.self).pointee
            var values: [Int: Double] = [:]
            var k = 0
            for axis in 0 ..< Int(e.valuators.mask_len) * 8 where quire_XIMaskIsSet(e.valuators.mask, Int32(axis)) != 0 {
                values[axis] = e.valuators.values[k]
                k += 1
            }
            return .xi(XIEventRecord(type: cookie.evtype, deviceid: e.deviceid, sourceid: e.sourceid, detail: e.detail,
                                     eventX: e.event_x, eventY: e.event_y, rootX: e.root_x, rootY: e.root_y,
                                     flags: e.flags, valuators: values))
        }
        return .core(type: ev.type, window: ev.xany.window)
    }
}

/// A Cairo RGB24 image surface: screenshots, pixel checks, PNG in and out.
final class CairoImage {
    let surface: OpaquePointer
    let width: Int
    let height: Int

    init(width: Int, height: Int) {
        surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height))
        self.width = width
        self.height = height
        cairo_surface_flush(surface)
    }

    init(png path: String) throws {
        let s = cairo_image_surface_create_from_png(path)!
        guard cairo_surface_status(s) == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(s)
            throw HarnessError("cannot read PNG \(path)")
        }
        surface = s
        width = Int(cairo_image_surface_get_width(s))
        height = Int(cairo_image_surface_get_height(s))
    }

    deinit { cairo_surface_destroy(surface) }

    var data: UnsafeMutableRawPointer { UnsafeMutableRawPointer(cairo_image_surface_get_data(surface)!) }
    var stride: Int { Int(cairo_image_surface_get_stride(surface)) }
    func markDirty() { cairo_surface_mark_dirty(surface) }

    /// 8-bit red, green, blue of a pixel (alpha is ignored: captures are opaque).
    func pixel(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8) {
        precondition(x >= 0 && y >= 0 && x < width && y < height, "pixel (\(x),\(y)) outside \(width)x\(height)")
        let v = data.advanced(by: y * stride).assumingMemoryBound(to: UInt32.self)[x]
        return (UInt8((v >> 16) & 0xff), UInt8((v >> 8) & 0xff), UInt8(v & 0xff))
    }

    /// Pixels in a rectangle (clipped to the image) for which `test` holds.
    func count(x: Int = 0, y: Int = 0, width w: Int? = nil, height h: Int? = nil,
               where test: (UInt8, UInt8, UInt8) -> Bool) -> Int {
        let x0 = max(0, x), y0 = max(0, y)
        let x1 = min(width, x + (w ?? width)), y1 = min(height, y + (h ?? height))
        var n = 0
        if x0 >= x1 || y0 >= y1 { return 0 }
        for yy in y0 ..< y1 {
            for xx in x0 ..< x1 {
                let p = pixel(x: xx, y: yy)
                if test(p.r, p.g, p.b) { n += 1 }
            }
        }
        return n
    }

    /// Pixels darker than `threshold` (mean of r, g, b): ink on a light page.
    func countDark(x: Int = 0, y: Int = 0, width w: Int? = nil, height h: Int? = nil, threshold: Int = 128) -> Int {
        count(x: x, y: y, width: w, height: h) { (Int($0) + Int($1) + Int($2)) / 3 < threshold }
    }

    func writePNG(_ path: String) throws {
        cairo_surface_flush(surface)
        guard cairo_surface_write_to_png(surface, path) == CAIRO_STATUS_SUCCESS else {
            throw HarnessError("cannot write PNG \(path)")
        }
    }
}
