import Foundation
import Quire

/// How the window was asked to start.
public struct AppOptions: Sendable {
    /// The package to edit; nil opens the notebook in $XDG_DATA_HOME/quire.
    public var file: String?
    /// Full screen, no way out except `app.kiosk.exit-chord`.
    public var kiosk = false
    public var width = 1000
    public var height = 720
    /// Writes per-event latency figures (JSON) here on exit.
    public var latencyLog: String?
    /// Records the session to this JSON-lines file (see `SessionRecorder`); nil: `app.record`.
    public var record: String?
    /// Plays this session recording in the window (`file` is where its starting package is
    /// written, and saved to at the end); nil: an ordinary session.
    public var replay: String?
    /// Pace of the replay: 1 as recorded, 2 twice as fast.
    public var replaySpeed = 1.0
    /// X display name; nil uses $DISPLAY.
    public var display: String?
    /// Shown in the toolbar when the window opens (e.g. what `quire edit` imported).
    public var openingNote = ""
    /// Imports another program's ink file into a new package beside it, for File > Open:
    /// (the package's path, a note), or nil when the file is to be opened as a package.
    public var importer: (@Sendable (String) throws -> (path: String, note: String)?)?
    /// The inspector window (`quire inspect` with a display): the debug overlay and the inspector
    /// panel open, a stroke timeline on the arrow keys, typing off.
    public var inspect = false
    /// What the gesture classifier said about each pen stroke of a replayed session, for the
    /// inspector window's gestures layer.
    public var inspectGestures: [GestureExplanation] = []
    public init() {}
}

/// XDG base directories (https://specifications.freedesktop.org/basedir-spec/).
enum XDG {
    static func base(_ variable: String, _ fallback: String) -> String {
        let env = ProcessInfo.processInfo.environment
        if let v = env[variable], v.hasPrefix("/") { return v }
        let home = env["HOME"] ?? NSHomeDirectory()
        return home + "/" + fallback
    }
    static var configDir: String { base("XDG_CONFIG_HOME", ".config") + "/quire" }
    static var stateDir: String { base("XDG_STATE_HOME", ".local/state") + "/quire" }
    static var dataDir: String { base("XDG_DATA_HOME", ".local/share") + "/quire" }
}

/// Builds the app's engine: defaults, then the user's `$XDG_CONFIG_HOME/quire/configuration.json`,
/// with packages' working state (autosave, crash recovery) under `$XDG_STATE_HOME/quire/autosave`.
/// A broken user file is reported and skipped, never fatal. Public for the CLI (which finds and
/// recovers what the app autosaved) and for tools (the fuzzer) that start an engine as the window does.
public func makeAppEngine(warn: (String) -> Void) throws -> Engine {
    let engine = try Engine()
    let userFile = XDG.configDir + "/configuration.json"
    if FileManager.default.fileExists(atPath: userFile) {
        do {
            let data = try FileIO.readFile(userFile, maxBytes: 1 << 20)
            try engine.configuration.inject(json: String(decoding: data, as: UTF8.self))
        } catch let e as QuireError {
            warn("ignoring \(userFile): \(e.message)")
        }
    }
    if engine.configuration[.packageTempFolder].isEmpty {
        let dir = XDG.stateDir + "/autosave"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try engine.configuration.setString(dir, forKey: ConfigKey<String>.packageTempFolder.name)
    }
    return engine
}
