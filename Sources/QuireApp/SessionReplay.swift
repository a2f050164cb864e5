import Foundation
import Quire

/// Plays a session recording (`quire edit --record`) into a fresh editor without a window,
/// through the same command dispatcher as the window, and saves the resulting package.
public enum SessionReplay {
    /// What a replay produced.
    public struct Outcome {
        /// The text export of the page shown when the replay ended.
        public var text: String
        /// The package file written.
        public var packagePath: String
        /// Where the replay and the recording disagreed (view transforms); empty when exact.
        public var divergences: [String]
        /// Messages the commands showed (as the window's toolbar would).
        public var messages: [String]
    }

    /// Replays `sessionPath` into a package written at `outPath` (replaced). `recognizer`
    /// overrides the bundled one (tests); `configure` sees the editor before playing starts.
    public static func run(sessionPath: String, outPath: String, recognizer: InkRecognizer?? = nil,
                           configure: ((Editor) -> Void)? = nil) throws -> Outcome {
        let player = try SessionPlayer(path: sessionPath)
        let engine = try player.makeEngine()
        try player.writePackage(to: outPath)
        let session = try DocumentSession(engine: engine, path: outPath)
        defer { session.close() }
        guard session.package.index(of: session.part) == player.partIndex else {
            throw QuireError(.invalidArgument, "\(sessionPath): the recorded part \(player.partIndex) is not the one the editor opens")
        }
        let renderer = CairoRenderer()
        let editor = engine.createEditor(renderer: renderer, fontMetricsProvider: CairoFontMetrics())
        if let recognizer { editor.recognizer = recognizer }
        configure?(editor)
        let view = EditorView(editor: editor, renderer: renderer, scale: 1)
        try player.prepare(editor, part: session.part)
        // The package as a notebook, so that the recorded page commands turn its pages.
        try session.attach(editor)
        let host = ReplayHost()
        let dispatcher = CommandDispatcher(view: view, session: session, clipboard: ReplayClipboard(), scale: 1)
        dispatcher.host = host
        let notebook = NotebookController(view: view, session: session)
        notebook.host = host
        dispatcher.notebook = notebook
        for (i, s) in player.steps.enumerated() {
            try player.play(s.step, into: editor, index: i) { try perform($0, dispatcher) }
        }
        try editor.waitForIdle()
        let text = try editor.export(nil, mimeType: .text)
        try session.save()
        return Outcome(text: text, packagePath: session.path, divergences: player.divergences, messages: host.messages)
    }

    /// Performs a recorded command as the window would have.
    static func perform(_ record: JSONValue, _ dispatcher: CommandDispatcher) throws {
        if let command = try AppCommand(sessionRecord: record) {
            dispatcher.perform(command)
            return
        }
        guard case .object(let o) = record, let b64 = o["data"]?.stringValue, let data = Data(base64Encoded: b64),
              let x = o["x"]?.doubleValue, let y = o["y"]?.doubleValue else {
            throw QuireError(.invalidArgument, "a pasted-data or image record needs data, x and y")
        }
        let at = Point(x: x, y: y)
        if o["c"]?.stringValue == "pasteData" {
            dispatcher.paste(type: o["type"]?.stringValue ?? "text/plain;charset=utf-8", data: data, at: at)
        } else {
            // Under its own name: the package keeps an image under a name made from it.
            let name = (o["path"]?.stringValue as NSString?)?.lastPathComponent ?? "image.png"
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("quire-replay-\(getpid())-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: dir) }
            let tmp = dir.appendingPathComponent(name.isEmpty ? "image.png" : name)
            try data.write(to: tmp)
            dispatcher.lastPoint = at
            dispatcher.insertImage(path: tmp.path)
        }
    }
}

/// The window around a replay: messages are kept, nothing opens.
private final class ReplayHost: CommandHost, NotebookHost {
    var messages: [String] = []
    func show(_ text: String, seconds: TimeInterval) { messages.append(text) }
    func promptForImage() {}
    func toggleFullscreen() {}
    func toggleInspector() {}
    func quit() {}
    func openContextMenu(at p: Point) {}
    func openCandidates(_ ref: WordRef, at p: Point) {}
    func overlaysChanged() {}
    func notebookChanged() {}
    func openMenu(title: String, items: [OverlayMenu.Item], at p: Point?) {}
    func openFileChooser(_ mode: FileChooserMode) {}
    func toggleStrip() {}
}

/// The replay's clipboard: what the session copied, in this process. A paste from another
/// program was recorded with its data and is replayed from that.
private final class ReplayClipboard: ClipboardTransport {
    private var offers: [String: Data] = [:]
    func own(_ offers: [String: Data], time: UInt) -> Bool { self.offers = offers; return true }
    func ownedOffer(_ type: String) -> Data? { offers[type] }
    func requestPaste(time: UInt, done: @escaping ((String, Data)?) -> Void) { done(nil) }
}
