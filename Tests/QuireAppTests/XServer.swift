import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The inputtest devices of an Xorg test server (names as `xinput list` shows them).
enum TestInputDevice: String, CaseIterable, Sendable {
    case pen, eraser, touch, keyboard

    var deviceName: String {
        switch self {
        case .pen: return "Quire Test Pen stylus"
        case .eraser: return "Quire Test Pen eraser"
        case .touch: return "Virtual Touchscreen"
        case .keyboard: return "Virtual Keyboard"
        }
    }
    var socketName: String { "\(rawValue).sock" }
}

/// One private X server for one test: Xvfb (windows, XTest mouse/keys) or Xorg with the dummy
/// video driver and inputtest devices (pen with pressure, eraser, multi-touch, keyboard).
///
/// The display number comes from `-displayfd`, so servers never race for a number and no test
/// sleeps. The server is killed with SIGKILL (it never needs a clean shutdown) and its lock file
/// and socket are removed, because a killed server leaves them behind.
final class XServer {
    enum Kind: String { case xvfb, xorg }

    let kind: Kind
    let number: Int
    let width: Int
    let height: Int
    /// Private folder: config, log, inputtest sockets.
    let directory: URL
    /// Seconds from spawn to the display number arriving (the server accepts connections then).
    let startSeconds: Double
    private let pid: pid_t
    private var stopped = false
    private final class WeakClient { weak var client: XClient?; init(_ c: XClient) { client = c } }
    private var clients: [WeakClient] = []

    /// Connections made with `XClient(server:)`, closed before the server is killed.
    func register(_ client: XClient) {
        clients.removeAll { $0.client == nil }
        clients.append(WeakClient(client))
    }

    var display: String { ":\(number)" }
    var logPath: String { directory.appendingPathComponent("server.log").path }
    /// Environment for a client of this server (merge into a child's environment).
    var environment: [String: String] { ["DISPLAY": display] }

    /// Xvfb: the quick server for window tests; XTest gives mouse and keys only.
    static func xvfb(width: Int = 1024, height: Int = 768) throws -> XServer {
        try XServer(kind: .xvfb, width: width, height: height)
    }

    /// Xorg + dummy + inputtest. Needs root (an absolute `-config` path is refused otherwise).
    static func xorg(width: Int = 1280, height: Int = 800) throws -> XServer {
        try XServer(kind: .xorg, width: width, height: height)
    }

    private init(kind: Kind, width: Int, height: Int) throws {
        self.kind = kind
        self.width = width
        self.height = height
        // Short path: a unix socket path must fit in 108 bytes.
        let dir = URL(fileURLWithPath: "/tmp/qx-\(UUID().uuidString.prefix(8).lowercased())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        directory = dir
        let log = dir.appendingPathComponent("server.log").path

        let executable: String
        var arguments: [String]
        switch kind {
        case .xvfb:
            executable = "Xvfb"
            arguments = ["-displayfd", "3", "-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp", "-noreset"]
        case .xorg:
            let config = dir.appendingPathComponent("xorg.conf")
            try XServer.xorgConfig(width: width, height: height, socketDir: dir.path)
                .write(to: config, atomically: true, encoding: .utf8)
            executable = "Xorg"
            arguments = ["-displayfd", "3", "-config", config.path, "-noreset", "-nolisten", "tcp",
                         "-novtswitch", "-sharevts", "-logfile", dir.appendingPathComponent("xorg.log").path]
        }
        let pipe = try CloexecPipe()
        let started = Date()
        let child: pid_t
        do {
            child = try spawnChild(executable, arguments, environment: ProcessInfo.processInfo.environment,
                                   stdout: .file(log), stderr: .file(log), extraFds: [(pipe.write, 3)])
        } catch {
            close(pipe.read); close(pipe.write)
            try? FileManager.default.removeItem(at: dir)
            throw error
        }
        close(pipe.write)
        let line = readLine(fd: pipe.read, timeout: 30)
        close(pipe.read)
        guard let line, let n = Int(line.trimmingCharacters(in: .whitespaces)) else {
            kill(child, SIGKILL)
            _ = waitChild(child, timeout: 5)
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            let xorgLog = (try? String(contentsOf: dir.appendingPathComponent("xorg.log"), encoding: .utf8)) ?? ""
            let errors = xorgLog.split(separator: "\n").filter { $0.contains("(EE)") }.joined(separator: "\n")
            throw HarnessError("\(executable) did not report a display (got \(line.map { "'\($0)'" } ?? "nothing")); "
                               + "log \(log):\n\(text.suffix(2000))\n\(errors)")
        }
        startSeconds = Date().timeIntervalSince(started)
        pid = child
        number = n
        if kind == .xorg {
            let size = try XClient(display: display).screenSize
            guard size.width == width && size.height == height else {
                stop()
                throw HarnessError("Xorg made a \(size.width)x\(size.height) screen, not \(width)x\(height)")
            }
        }
    }

    deinit { stop() }

    /// Kills the server and removes what it leaves behind. Safe to call twice.
    func stop() {
        guard !stopped else { return }
        stopped = true
        for c in clients { c.client?.close() }
        clients = []
        kill(pid, SIGKILL)
        _ = waitChild(pid, timeout: 10)
        unlink("/tmp/.X\(number)-lock")
        unlink("/tmp/.X11-unix/X\(number)")
        if ProcessInfo.processInfo.environment["QUIRE_KEEP_X_LOGS"] == nil {
            try? FileManager.default.removeItem(at: directory)
        }
    }

    /// The server's own log (Xvfb's stderr, or the Xorg log file), for failure messages.
    var log: String {
        let path = kind == .xorg ? directory.appendingPathComponent("xorg.log").path : logPath
        return (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }

    func socketPath(_ device: TestInputDevice) -> String {
        directory.appendingPathComponent(device.socketName).path
    }

    /// Connects to one inputtest device (Xorg only). A device accepts one client at a time.
    func connect(_ device: TestInputDevice) throws -> InputTestDevice {
        guard kind == .xorg else { throw HarnessError("inputtest devices exist only on an Xorg test server") }
        return try InputTestDevice(path: socketPath(device), screenWidth: width, screenHeight: height)
    }

    /// Unplugs a device the way a user pulling a USB tablet does, as far as clients can tell: the
    /// server disables it ("Device Enabled" = 0) and sends XI_HierarchyChanged with XIDeviceDisabled.
    /// The inputtest driver also drops its socket client; reconnect after `enableDevice`.
    func disableDevice(name: String) throws {
        let client = try XClient(display: display)
        try client.setDeviceEnabled(name: name, false)
    }

    func enableDevice(name: String) throws {
        let client = try XClient(display: display)
        try client.setDeviceEnabled(name: name, true)
    }

    /// Runs a command-line X tool (xinput, xdotool, ...) against this server.
    @discardableResult
    func run(_ tool: String, _ arguments: [String]) throws -> String {
        let (exit, output) = try runTool(tool, arguments, environment: environment, timeout: 30)
        guard exit == .exited(0) else { throw HarnessError("\(tool) \(arguments.joined(separator: " ")): \(exit)\n\(output)") }
        return output
    }

    static func xorgConfig(width: Int, height: Int, socketDir: String) -> String {
        func input(_ d: TestInputDevice, _ options: String) -> String {
            """
            Section "InputDevice"
                Identifier "\(d.deviceName)"
                Driver "inputtest"
                Option "SocketPath" "\(socketDir)/\(d.socketName)"
            \(options)
            EndSection

            """
        }
        // Without a mode of exactly this size the dummy driver picks the largest standard mode
        // that fits (1280x800 gives a 1024x768 screen), and every coordinate is off.
        let mode = "quire\(width)x\(height)"
        let htotal = width + 80, vtotal = height + 25
        let clock = Double(htotal * vtotal * 60) / 1e6
        return """
        Section "ServerFlags"
            Option "AutoAddDevices" "false"
            Option "AutoAddGPU" "false"
        EndSection
        Section "Device"
            Identifier "dummyvideo"
            Driver "dummy"
            VideoRam \(max(65536, width * height * 4 / 1024 + 4096))
        EndSection
        Section "Monitor"
            Identifier "mon"
            HorizSync 5.0 - 1000.0
            VertRefresh 5.0 - 200.0
            Modeline "\(mode)" \(String(format: "%.2f", clock)) \(width) \(width + 8) \(width + 40) \(htotal) \(height) \(height + 3) \(height + 6) \(vtotal)
        EndSection
        Section "Screen"
            Identifier "scr"
            Device "dummyvideo"
            Monitor "mon"
            DefaultDepth 24
            SubSection "Display"
                Depth 24
                Virtual \(width) \(height)
                Modes "\(mode)"
            EndSubSection
        EndSection

        """
        + input(.pen, "    Option \"DeviceType\" \"PointerAbsoluteProximity\"\n    Option \"PointerHasPressure\" \"true\"")
        + input(.eraser, "    Option \"DeviceType\" \"PointerAbsoluteProximity\"\n    Option \"PointerHasPressure\" \"true\"")
        + input(.touch, "    Option \"DeviceType\" \"Touch\"\n    Option \"TouchCount\" \"5\"")
        + input(.keyboard, "    Option \"DeviceType\" \"Keyboard\"")
        + """
        Section "ServerLayout"
            Identifier "layout"
            Screen "scr"
            InputDevice "\(TestInputDevice.pen.deviceName)" "CorePointer"
            InputDevice "\(TestInputDevice.eraser.deviceName)" "SendCoreEvents"
            InputDevice "\(TestInputDevice.touch.deviceName)" "SendCoreEvents"
            InputDevice "\(TestInputDevice.keyboard.deviceName)" "CoreKeyboard"
        EndSection

        """
    }
}
