import CX11
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Self-tests of the X harness; they need no Quire window. Each test starts its own server.
/// Serialized: X servers are heavy for a 2-core CI machine and timings would mean little in parallel.
@Suite(.serialized)
struct HarnessTests {
    @Test func readyLineParses() throws {
        let r = try #require(ReadyLine("quire: ready window=0x400001 canvas=0x40000a x=0 y=48 width=1024 height=720 scale=1.5"))
        #expect(r.window == 0x400001 && r.canvas == 0x40000a)
        #expect(r.x == 0 && r.y == 48 && r.width == 1024 && r.height == 720 && r.scale == 1.5)
        #expect(ReadyLine("quire: ready window=12 canvas=0x1 x=0 y=0 width=1 height=1 scale=1") == nil)
        #expect(ReadyLine("quire: readying") == nil)
    }

    /// The process wrapper against a shell stand-in for `quire edit`: line reading, a TERM trap
    /// (which only works because children start with an empty signal mask), exit status.
    @Test func appProcessWrapperWithStandIn() throws {
        let script = """
        trap 'echo "quire: saved"; exit 0' TERM
        echo "noise"
        echo "quire: ready window=0x200001 canvas=0x200002 x=0 y=40 width=800 height=560 scale=1"
        echo "DISPLAY=$DISPLAY"
        while :; do sleep 0.05; done
        """
        let app = try QuireAppProcess(arguments: ["-c", script], server: nil, display: ":99",
                                      binary: URL(fileURLWithPath: "/bin/sh"))
        let ready = try app.waitForReady(timeout: 10)
        #expect(ready.canvas == 0x200002 && ready.y == 40 && ready.width == 800)
        #expect(try app.waitForLine(prefix: "DISPLAY=", timeout: 10) == "DISPLAY=:99")
        #expect(app.isRunning)
        app.terminate()
        #expect(app.waitForExit(timeout: 10) == .exited(0))
        #expect(try app.waitForLine(prefix: "quire: saved", timeout: 5) == "quire: saved")
        #expect(app.stdoutLines.first == "noise")
        #expect(throws: HarnessError.self) { try app.waitForLine(prefix: "never", timeout: 1) }

        let killed = try QuireAppProcess(arguments: ["-c", "while :; do sleep 0.05; done"], server: nil,
                                         binary: URL(fileURLWithPath: "/bin/sh"))
        killed.kill()
        #expect(killed.waitForExit(timeout: 10) == .signaled(SIGKILL))
    }

    @Test func inputTestMessageLayout() {
        // Sizes the driver checks (it drops the client on any other length).
        #expect(InputTestDevice.valuatorBlockSize == 1040)
        let block = InputTestDevice.valuatorBlock([0: 1, 4: 500])
        #expect(block.count == 1040)
        #expect(block[4] == 0b0001_0001)                           // mask byte 0: axes 0 and 4
        #expect(block.u32(at: 16 + 4 * 8 + 4) == 0x407F_4000)       // high word of 500.0
    }

    /// Test suites open and close clients on many threads at once. libXi frees its record when its
    /// last display closes, under the feet of a thread registering a display (the pin in
    /// `XClient.swift`): without the pin this test dies of a null read or a heap corruption.
    @Test func clientsOpenAndCloseOnManyThreadsAtOnce() throws {
        let server = try XServer.xvfb(width: 320, height: 240)
        defer { server.stop() }
        let failures = XErrorLog(), display = server.display
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<400 {
                do {
                    let client = try XClient(display: display)
                    if client.xiOpcode < 0 { failures.record(1, 0) }
                    client.close()
                } catch {
                    failures.record(2, 0)
                }
            }
        }
        #expect(failures.take().isEmpty, "every client opened and had XInput")
    }

    @Test func xvfbStartsCapturesAndStopsClean() throws {
        let server = try XServer.xvfb(width: 640, height: 480)
        defer { server.stop() }
        let n = server.number
        #expect(FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(n)"))
        print("Xvfb started in \(String(format: "%.3f", server.startSeconds)) s on \(server.display)")
        do {
            let x = try XClient(server: server)
            #expect(x.screenSize.width == 640 && x.screenSize.height == 480)
            let w = try x.createWindow(x: 50, y: 40, width: 200, height: 100, title: "harness-capture")
            #expect(try x.findWindow(named: "harness-capture", timeout: 2) == w)
            try x.waitUntilViewable(w)
            let g = try x.geometry(w)
            #expect(g.x == 50 && g.y == 40 && g.width == 200 && g.height == 100)
            XFillRectangle(x.display, w, XDefaultGC(x.display, x.screen), 10, 20, 30, 40)
            x.sync()
            let image = try x.capture(w)
            #expect(image.width == 200 && image.height == 100)
            #expect(image.countDark() == 30 * 40)
            #expect(image.countDark(x: 10, y: 20, width: 30, height: 40) == 1200)
            #expect(image.pixel(x: 0, y: 0) == (255, 255, 255) ? true : false)
            let png = TempDir()
            try image.writePNG(png.path("shot.png"))
            let back = try CairoImage(png: png.path("shot.png"))
            #expect(back.width == 200 && back.countDark() == 1200)
            let screen = try x.captureScreen()
            #expect(screen.countDark(x: 60, y: 60, width: 30, height: 40) == 1200)
        }
        server.stop()
        #expect(!FileManager.default.fileExists(atPath: "/tmp/.X\(n)-lock"))
        #expect(!FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(n)"))
        #expect(throws: (any Error).self) { _ = try XClient(display: ":\(n)") }
    }

    @Test func xtestMouseKeysAndDeleteWindow() throws {
        let server = try XServer.xvfb()
        defer { server.stop() }
        let x = try XClient(server: server)
        let w = try x.createWindow(x: 100, y: 100, width: 300, height: 200, title: "harness-xtest")
        XSelectInput(x.display, w, KeyPressMask | KeyReleaseMask | ButtonPressMask | ButtonReleaseMask | StructureNotifyMask)
        x.focus(w)
        x.click(x: 150, y: 130)
        #expect(x.pointerPosition() == (150, 130) ? true : false)
        try x.keyChord("ctrl+s")
        x.sendDeleteWindow(w)
        let types = x.drainEvents().compactMap { e -> Int32? in
            if case .core(let t, let win) = e, win == w { return t }
            return nil
        }
        #expect(types.filter { $0 == ButtonPress }.count == 1)
        #expect(types.filter { $0 == KeyPress }.count == 2)      // Control_L then s
        #expect(types.filter { $0 == ClientMessage }.count == 1)
        #expect(throws: (any Error).self) { try x.keyChord("ctrl+nosuchkey") }
    }

    @Test func xorgHasInputTestDevices() throws {
        let server = try XServer.xorg(width: 1024, height: 768)
        defer { server.stop() }
        print("Xorg+inputtest started in \(String(format: "%.3f", server.startSeconds)) s on \(server.display)")
        let names = try server.run("xinput", ["list", "--name-only"]).split(separator: "\n").map(String.init)
        for d in TestInputDevice.allCases { #expect(names.contains(d.deviceName), "xinput list: \(names)") }

        let x = try XClient(server: server)
        #expect(x.screenSize.width == 1024 && x.screenSize.height == 768)
        let pen = try #require(x.device(named: TestInputDevice.pen.deviceName))
        #expect(pen.use == XISlavePointer && pen.enabled)
        #expect(pen.valuators.map(\.label) == ["Abs X", "Abs Y", "Rel Horiz Scroll", "Rel Vert Scroll", "Abs Pressure"])
        #expect(pen.valuators[0].max == 65535 && pen.valuators[4].min == 0 && pen.valuators[4].max == 1000)
        #expect(pen.touchMode == nil)
        let eraser = try #require(x.device(named: TestInputDevice.eraser.deviceName))
        #expect(eraser.valuators.count == 5 && eraser.valuators[4].label == "Abs Pressure")
        let touch = try #require(x.device(named: TestInputDevice.touch.deviceName))
        #expect(touch.touchMode == XIDirectTouch && touch.numTouches == 5)
        #expect(touch.valuators.map(\.label) == ["Abs MT Position X", "Abs MT Position Y", "Rel Horiz Scroll", "Rel Vert Scroll", "Abs MT Pressure"])
        #expect(touch.valuators[4].max == 2047)
        let kbd = try #require(x.device(named: TestInputDevice.keyboard.deviceName))
        #expect(kbd.use == XISlaveKeyboard)
    }

    @Test(arguments: [(1024, 768), (1280, 800), (1000, 600)])
    func penMovesCorePointerToScreenPixels(size: (Int, Int)) throws {
        let server = try XServer.xorg(width: size.0, height: size.1)
        defer { server.stop() }
        let x = try XClient(server: server)
        let pen = try server.connect(.pen)
        #expect(pen.serverVersion.major == 1)
        for (px, py) in [(200, 150), (0, 0), (1023, 767), (511, 384), (77, 701), (321, 123), (999, 599)] {
            guard px < size.0 && py < size.1 else { continue }
            try pen.hover(x: Double(px), y: Double(py))
            let p = x.pointerPosition()
            #expect(p.x == px && p.y == py, "pen at (\(px),\(py)) put the pointer at \(p)")
        }
        try pen.penStroke(points: [(300, 300, 0.2), (320, 310, 0.5), (340, 330, 0.9)])
        #expect(x.pointerPosition() == (340, 330) ? true : false)
    }

    @Test func penAndEraserEventsCarryPressureAndSource() throws {
        let server = try XServer.xorg(width: 1024, height: 768)
        defer { server.stop() }
        let x = try XClient(server: server)
        let w = try x.createWindow(x: 100, y: 50, width: 600, height: 400, title: "harness-pen")
        try x.selectXI(w, events: [XI_ButtonPress, XI_Motion, XI_ButtonRelease])
        let penID = try #require(x.device(named: TestInputDevice.pen.deviceName)).id
        let eraserID = try #require(x.device(named: TestInputDevice.eraser.deviceName)).id

        let pen = try server.connect(.pen)
        try pen.penStroke(points: [(200, 150, 0.25), (220, 160, 0.5), (240.5, 170.25, 0.75)])
        let penEvents = x.drainEvents().compactMap { e -> XIEventRecord? in if case .xi(let r) = e { return r }; return nil }
        let press = try #require(penEvents.first { $0.type == XI_ButtonPress })
        #expect(press.sourceid == penID && press.detail == 1)
        #expect(abs(press.eventX - 100) < 0.002 && abs(press.eventY - 100) < 0.002, "\(press.eventX),\(press.eventY)")
        #expect(abs((press.valuators[4] ?? -1) - 250) < 0.5, "press valuators \(press.valuators)")
        let moves = penEvents.filter { $0.type == XI_Motion && $0.sourceid == penID }
        let pressures = moves.compactMap { $0.valuators[4] }
        #expect(pressures.contains { abs($0 - 500) < 0.5 } && pressures.contains { abs($0 - 750) < 0.5 }, "\(pressures)")
        let last = try #require(moves.last)
        #expect(abs(last.eventX - 140.5) < 0.05 && abs(last.eventY - 120.25) < 0.05, "fractional position \(last.eventX),\(last.eventY)")
        #expect(penEvents.contains { $0.type == XI_ButtonRelease && $0.sourceid == penID })

        let eraser = try server.connect(.eraser)
        try eraser.eraserStroke(points: [(300, 300, 0.6), (310, 300, 0.6)])
        let eraserEvents = x.drainEvents().compactMap { e -> XIEventRecord? in if case .xi(let r) = e { return r }; return nil }
        let ePress = try #require(eraserEvents.first { $0.type == XI_ButtonPress })
        #expect(ePress.sourceid == eraserID && ePress.sourceid != penID)
        #expect(abs((ePress.valuators[4] ?? -1) - 600) < 0.5)
    }

    @Test func touchSequenceArrivesWithMTPressure() throws {
        let server = try XServer.xorg(width: 1024, height: 768)
        defer { server.stop() }
        let x = try XClient(server: server)
        let w = try x.createWindow(x: 0, y: 0, width: 800, height: 600, title: "harness-touch")
        try x.selectXI(w, events: [XI_TouchBegin, XI_TouchUpdate, XI_TouchEnd, XI_ButtonPress, XI_Motion, XI_ButtonRelease])
        let touchID = try #require(x.device(named: TestInputDevice.touch.deviceName)).id
        let touch = try server.connect(.touch)
        try touch.touchDrag(id: 1, points: [(100, 100), (150, 120), (200, 140)], pressure: 0.5)
        let events = x.drainEvents().compactMap { e -> XIEventRecord? in if case .xi(let r) = e { return r }; return nil }
        let touches = events.filter { [XI_TouchBegin, XI_TouchUpdate, XI_TouchEnd].contains($0.type) }
        #expect(touches.map(\.type) == [XI_TouchBegin, XI_TouchUpdate, XI_TouchUpdate, XI_TouchEnd], "\(events.map(\.type))")
        #expect(touches.allSatisfy { $0.sourceid == touchID })
        #expect(Set(touches.map(\.detail)).count == 1)  // one touch id (the server assigns it)
        let begin = try #require(touches.first)
        #expect(abs(begin.eventX - 100) < 0.05 && abs(begin.eventY - 100) < 0.05)
        #expect(abs((begin.valuators[4] ?? -1) - 1023.5) < 0.5, "MT pressure \(begin.valuators)")
        #expect(abs(touches[2].eventX - 200) < 0.05 && abs(touches[2].eventY - 140) < 0.05)
        // A client that gets the touches gets no emulated pointer events for them.
        #expect(!events.contains { $0.type == XI_ButtonPress })

        // Two fingers at once keep distinct ids.
        try touch.touch(id: 2, .begin, [0: touch.deviceX(300), 1: touch.deviceY(300), 4: 1000])
        try touch.touch(id: 3, .begin, [0: touch.deviceX(400), 1: touch.deviceY(300), 4: 1000])
        try touch.touch(id: 2, .end, [0: touch.deviceX(300), 1: touch.deviceY(300)])
        try touch.touch(id: 3, .end, [0: touch.deviceX(400), 1: touch.deviceY(300)])
        try touch.sync()
        let two = x.drainEvents().compactMap { e -> XIEventRecord? in if case .xi(let r) = e { return r }; return nil }
        let begins = two.filter { $0.type == XI_TouchBegin }
        #expect(begins.count == 2 && Set(begins.map(\.detail)).count == 2)
        #expect(two.filter { $0.type == XI_TouchEnd }.count == 2)
    }

    @Test func inputTestKeyboardTypesKeycodes() throws {
        let server = try XServer.xorg(width: 800, height: 600)
        defer { server.stop() }
        let x = try XClient(server: server)
        let w = try x.createWindow(x: 0, y: 0, width: 400, height: 300, title: "harness-keys")
        x.focus(w)
        try x.selectXI(w, events: [XI_KeyPress, XI_KeyRelease])
        let kbdID = try #require(x.device(named: TestInputDevice.keyboard.deviceName)).id
        let keyboard = try server.connect(.keyboard)
        let ctrl = Int32(XKeysymToKeycode(x.display, XStringToKeysym("Control_L")))
        let s = Int32(XKeysymToKeycode(x.display, XStringToKeysym("s")))
        #expect(try x.keycodes("ctrl+s") == [ctrl, s])
        try keyboard.keyChord([ctrl, s])
        let events = x.drainEvents().compactMap { e -> XIEventRecord? in if case .xi(let r) = e { return r }; return nil }
        #expect(events.filter { $0.type == XI_KeyPress }.map(\.detail) == [ctrl, s])
        #expect(events.filter { $0.type == XI_KeyRelease }.map(\.detail) == [s, ctrl])
        #expect(events.allSatisfy { $0.sourceid == kbdID })
    }

    @Test func disablingADeviceSendsHierarchyChanged() throws {
        let server = try XServer.xorg(width: 800, height: 600)
        defer { server.stop() }
        let x = try XClient(server: server)
        try x.selectXI(x.root, events: [XI_HierarchyChanged], deviceid: XIAllDevices)
        let pen = try server.connect(.pen)
        try pen.hover(x: 10, y: 10)
        let penID = try #require(x.device(named: TestInputDevice.pen.deviceName)).id

        try server.disableDevice(name: TestInputDevice.pen.deviceName)
        let off = try x.waitEvent(timeout: 5) { if case .hierarchy = $0 { return true }; return false }
        guard case .hierarchy(let flags, let infos)? = off else { Issue.record("no XI_HierarchyChanged"); return }
        #expect(flags & XIDeviceDisabledFlag != 0)
        #expect(infos.contains { $0.deviceid == penID && !$0.enabled && $0.flags & XIDeviceDisabledFlag != 0 }, "\(infos)")
        #expect(x.device(named: TestInputDevice.pen.deviceName)?.enabled == false)
        // The driver drops its client when the device goes off.
        #expect(throws: (any Error).self) { try pen.hover(x: 20, y: 20) }

        try server.enableDevice(name: TestInputDevice.pen.deviceName)
        let on = try x.waitEvent(timeout: 5) { if case .hierarchy = $0 { return true }; return false }
        guard case .hierarchy(let onFlags, _)? = on else { Issue.record("no XI_HierarchyChanged on enable"); return }
        #expect(onFlags & XIDeviceEnabledFlag != 0)
        try pen.connect()
        try pen.hover(x: 321, y: 123)
        #expect(x.pointerPosition() == (321, 123) ? true : false)
    }

    @Test func twoServersAtOnceGetDistinctDisplays() throws {
        let a = try XServer.xvfb(width: 320, height: 240)
        defer { a.stop() }
        let b = try XServer.xorg(width: 640, height: 480)
        defer { b.stop() }
        #expect(a.number != b.number)
        #expect(try XClient(server: a).screenSize.width == 320)
        #expect(try XClient(server: b).screenSize.width == 640)
    }
}
