import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A client of Xorg's `inputtest` driver socket (protocol 1.1, xf86-input-inputtest-protocol.h).
///
/// Every message is little-endian, native x86_64 layout: an 8-byte header (u32 length, u32 type),
/// then the payload. The valuator block is u32 has_unaccelerated, u8 mask[8], 4 bytes padding,
/// double valuators[64], double unaccelerated[64] = 1040 bytes.
///
/// Axes (read from the driver and checked by HarnessTests): 0 = X, 1 = Y, both 0...65535 over the
/// whole screen (pixel = value * size / 65536); 2/3 scroll; 4 = "Abs Pressure" 0...1000 on pen-type devices, "Abs MT Pressure"
/// 0...2047 on the touchscreen. Helpers take screen pixels and pressure 0...1.
///
/// `sync()` sends WAIT_FOR_SYNC and blocks until the server has processed every event sent before
/// it, so a test that injects then looks never races the server. The helpers sync after each event.
final class InputTestDevice {
    enum EventType: UInt32 {
        case clientVersion = 0, waitForSync, motion, proximity, button, key, touch
    }
    /// XI_TouchBegin / XI_TouchUpdate / XI_TouchEnd, which the driver passes straight through.
    enum TouchPhase: UInt32 { case begin = 18, update = 19, end = 20 }

    static let axisMax = 65535.0
    static let penPressureMax = 1000.0
    static let touchPressureMax = 2047.0
    static let pressureAxis = 4

    let path: String
    let screenWidth: Int
    let screenHeight: Int
    private(set) var serverVersion: (major: UInt16, minor: UInt16) = (0, 0)
    private var fd: Int32 = -1

    init(path: String, screenWidth: Int, screenHeight: Int) throws {
        self.path = path
        self.screenWidth = screenWidth
        self.screenHeight = screenHeight
        try connect()
    }

    deinit { if fd >= 0 { close(fd) } }

    /// (Re)connects and does the version handshake; needed again after the device was disabled,
    /// because the driver closes its client when the device is turned off.
    func connect() throws {
        if fd >= 0 { close(fd); fd = -1 }
        let s = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard s >= 0 else { throw HarnessError("socket: errno \(errno)") }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: addr.sun_path) else {
            close(s)
            throw HarnessError("socket path too long: \(path)")
        }
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
            raw[bytes.count] = 0
        }
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(s, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard rc == 0 else {
            let e = errno
            close(s)
            throw HarnessError("connect \(path): \(String(cString: strerror(e)))")
        }
        fd = s
        var msg = header(.clientVersion, payload: 4)
        msg.append(u16: 1)
        msg.append(u16: 1)
        try send(msg)
        let reply = try receive(12)
        guard reply.u32(at: 4) == 0 else { throw HarnessError("inputtest: expected a version reply, got type \(reply.u32(at: 4))") }
        serverVersion = (reply.u16(at: 8), reply.u16(at: 10))
    }

    // MARK: raw protocol

    /// Waits until the server has processed everything sent so far.
    func sync() throws {
        try send(header(.waitForSync, payload: 0))
        let reply = try receive(8)
        guard reply.u32(at: 4) == 1 else { throw HarnessError("inputtest: expected a sync reply, got type \(reply.u32(at: 4))") }
    }

    /// Absolute motion; `valuators` maps axis number to raw device value.
    func motion(_ valuators: [Int: Double]) throws {
        // is_absolute, then 4 bytes padding: the valuator block holds doubles (8-byte aligned).
        var msg = header(.motion, payload: 8 + Self.valuatorBlockSize)
        msg.append(u32: 1)
        msg.append(u32: 0)
        msg.append(Self.valuatorBlock(valuators))
        try send(msg)
    }

    func proximity(inProximity: Bool, _ valuators: [Int: Double]) throws {
        var msg = header(.proximity, payload: 8 + Self.valuatorBlockSize)
        msg.append(u32: inProximity ? 1 : 0)
        msg.append(u32: 0)
        msg.append(Self.valuatorBlock(valuators))
        try send(msg)
    }

    func button(_ button: Int32, pressed: Bool, _ valuators: [Int: Double]) throws {
        // is_absolute, button, is_press, then 4 bytes padding to align the doubles.
        var msg = header(.button, payload: 16 + Self.valuatorBlockSize)
        msg.append(u32: 1)
        msg.append(u32: UInt32(bitPattern: button))
        msg.append(u32: pressed ? 1 : 0)
        msg.append(u32: 0)
        msg.append(Self.valuatorBlock(valuators))
        try send(msg)
    }

    /// `keycode` is an X keycode (evdev code + 8: 38 is "a" with the default evdev rules).
    func key(_ keycode: Int32, pressed: Bool) throws {
        var msg = header(.key, payload: 8)
        msg.append(u32: UInt32(bitPattern: keycode))
        msg.append(u32: pressed ? 1 : 0)
        try send(msg)
    }

    func touch(id: UInt32, _ phase: TouchPhase, _ valuators: [Int: Double]) throws {
        var msg = header(.touch, payload: 8 + Self.valuatorBlockSize)
        msg.append(u32: id)
        msg.append(u32: phase.rawValue)
        msg.append(Self.valuatorBlock(valuators))
        try send(msg)
    }

    // MARK: helpers in screen pixels

    /// The server maps a device value v to v * width / (max + 1) screen pixels (rescaleValuatorAxis
    /// counts max + 1 steps), so 65536, not 65535, makes a pixel land on itself; measured by
    /// HarnessTests (XQueryPointer and XI2 event_x). The 1/1000 px nudge keeps double rounding
    /// from landing a hair below an integer (seen at height 600), which the core pointer truncates
    /// to the pixel before. The last reachable position is size - 1/65536 of it.
    static let nudge = 1e-3
    func deviceX(_ px: Double) -> Double { min((px + Self.nudge) * (Self.axisMax + 1) / Double(screenWidth), Self.axisMax) }
    func deviceY(_ py: Double) -> Double { min((py + Self.nudge) * (Self.axisMax + 1) / Double(screenHeight), Self.axisMax) }

    private func penAxes(_ x: Double, _ y: Double, _ pressure: Double) -> [Int: Double] {
        [0: deviceX(x), 1: deviceY(y), Self.pressureAxis: min(max(pressure, 0), 1) * Self.penPressureMax]
    }

    /// Pen (or eraser) hovering at a screen position, no contact.
    func hover(x: Double, y: Double) throws {
        try motion(penAxes(x, y, 0)); try sync()
    }

    func proximityIn(x: Double, y: Double) throws {
        try proximity(inProximity: true, penAxes(x, y, 0)); try sync()
    }

    func proximityOut(x: Double, y: Double) throws {
        try proximity(inProximity: false, penAxes(x, y, 0)); try sync()
    }

    /// A full pen stroke in screen pixels: proximity in, hover to the first point, tip down
    /// (button 1) with its pressure, a motion per point, tip up, proximity out.
    /// `delay` spaces the points in time (seconds) for tests of live drawing or latency.
    func penStroke(points: [(x: Double, y: Double, pressure: Double)], proximity: Bool = true, delay: Double = 0) throws {
        guard let first = points.first, let last = points.last else { return }
        if proximity { try proximityIn(x: first.x, y: first.y) }
        try hover(x: first.x, y: first.y)
        try button(1, pressed: true, penAxes(first.x, first.y, first.pressure)); try sync()
        for p in points.dropFirst() {
            if delay > 0 { usleep(useconds_t(delay * 1_000_000)) }
            try motion(penAxes(p.x, p.y, p.pressure)); try sync()
        }
        try button(1, pressed: false, penAxes(last.x, last.y, 0)); try sync()
        if proximity { try proximityOut(x: last.x, y: last.y) }
    }

    /// The same as `penStroke`; call it on the eraser device (`server.connect(.eraser)`), whose
    /// name is what tells the app it is an eraser.
    func eraserStroke(points: [(x: Double, y: Double, pressure: Double)], proximity: Bool = true, delay: Double = 0) throws {
        try penStroke(points: points, proximity: proximity, delay: delay)
    }

    /// One finger from the first point to the last (touchscreen device). Pressure 0...1 maps to
    /// the MT pressure axis 0...2047.
    func touchDrag(id: UInt32, points: [(x: Double, y: Double)], pressure: Double = 0.5, delay: Double = 0) throws {
        guard let first = points.first, let last = points.last else { return }
        let p = min(max(pressure, 0), 1) * Self.touchPressureMax
        try touch(id: id, .begin, [0: deviceX(first.x), 1: deviceY(first.y), Self.pressureAxis: p]); try sync()
        for pt in points.dropFirst() {
            if delay > 0 { usleep(useconds_t(delay * 1_000_000)) }
            try touch(id: id, .update, [0: deviceX(pt.x), 1: deviceY(pt.y), Self.pressureAxis: p]); try sync()
        }
        try touch(id: id, .end, [0: deviceX(last.x), 1: deviceY(last.y), Self.pressureAxis: 0]); try sync()
    }

    /// A tap: touch begin and end at one point.
    func tap(id: UInt32, x: Double, y: Double) throws {
        try touchDrag(id: id, points: [(x, y)])
    }

    /// Presses then releases X keycodes in order (modifiers first), releasing in reverse.
    func keyChord(_ keycodes: [Int32]) throws {
        for k in keycodes { try key(k, pressed: true) }
        for k in keycodes.reversed() { try key(k, pressed: false) }
        try sync()
    }

    // MARK: encoding

    static let valuatorBlockSize = 4 + 8 + 4 + 64 * 8 * 2

    static func valuatorBlock(_ valuators: [Int: Double]) -> Data {
        var mask = [UInt8](repeating: 0, count: 8)
        var values = [Double](repeating: 0, count: 64)
        for (axis, value) in valuators where axis >= 0 && axis < 64 {
            mask[axis / 8] |= UInt8(1) << UInt8(axis % 8)
            values[axis] = value
        }
        var d = Data(capacity: valuatorBlockSize)
        d.append(u32: 0)
        d.append(contentsOf: mask)
        d.append(u32: 0)
        for v in values { d.append(u64: v.bitPattern) }
        for _ in 0 ..< 64 { d.append(u64: 0) }
        return d
    }

    private func header(_ type: EventType, payload: Int) -> Data {
        var d = Data(capacity: 8 + payload)
        d.append(u32: UInt32(8 + payload))
        d.append(u32: type.rawValue)
        return d
    }

    private func send(_ data: Data) throws {
        guard fd >= 0 else { throw HarnessError("inputtest \(path): not connected") }
        try data.withUnsafeBytes { raw in
            var off = 0
            while off < raw.count {
                // MSG_NOSIGNAL: a disabled device closes the socket; that must be an error, not SIGPIPE.
                let n = Glibc.send(fd, raw.baseAddress! + off, raw.count - off, Int32(MSG_NOSIGNAL))
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { throw HarnessError("inputtest \(path): send failed: \(String(cString: strerror(errno)))") }
                off += n
            }
        }
    }

    private func receive(_ count: Int, timeout: Double = 10) throws -> Data {
        var out = [UInt8]()
        var buf = [UInt8](repeating: 0, count: count)
        let deadline = Date().addingTimeInterval(timeout)
        while out.count < count {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { throw HarnessError("inputtest \(path): no reply in \(timeout) s") }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let r = poll(&p, 1, Int32(left * 1000) + 1)
            if r < 0 && errno == EINTR { continue }
            if r <= 0 { continue }
            let n = Glibc.recv(fd, &buf, count - out.count, 0)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw HarnessError("inputtest \(path): connection closed by the server") }
            out.append(contentsOf: buf[0 ..< n])
        }
        return Data(out)
    }
}

extension Data {
    mutating func append(u16 v: UInt16) { Swift.withUnsafeBytes(of: v.littleEndian) { append(contentsOf: $0) } }
    mutating func append(u32 v: UInt32) { Swift.withUnsafeBytes(of: v.littleEndian) { append(contentsOf: $0) } }
    mutating func append(u64 v: UInt64) { Swift.withUnsafeBytes(of: v.littleEndian) { append(contentsOf: $0) } }
    func u16(at i: Int) -> UInt16 { UInt16(self[startIndex + i]) | UInt16(self[startIndex + i + 1]) << 8 }
    func u32(at i: Int) -> UInt32 { (0 ..< 4).reduce(UInt32(0)) { $0 | UInt32(self[startIndex + i + $1]) << (8 * UInt32($1)) } }
}
