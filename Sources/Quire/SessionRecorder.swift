import Foundation
import InkModel

/// Writes everything an editor receives to a JSON-lines session file, so that `SessionPlayer`
/// can reproduce the session exactly: a bug report becomes a file.
///
/// The first line holds the starting point (the package as an archive, the part, the
/// configuration, the view); each following line is one thing that happened, in order, with
/// `at` (ms since recording began): a pointer event as the editor got it (view pixels, time,
/// pressure, pointer type and id, the tool and its style; a down also has the view transform), a
/// view change (scroll, zoom, size, resolution), recognition results being applied (replay waits
/// for them there, so gestures see the same words), or an application command (opaque JSON,
/// see `command(_:perform:)`). Attach with `Editor.recorder`; the editor calls it, nothing else.
public final class SessionRecorder {
    /// Format of the session file. Its first bytes are `{"quire-session":` (see `isSession`).
    public static let formatVersion = 1
    private let handle: FileHandle
    public let path: String
    private var buffer = ""
    private let start = Date()
    /// Inside a command or a batch: what the editor does then is that record's doing, and a
    /// replay of the record does it again.
    private var depth = 0
    private var failed = false
    /// Called once if the file cannot be written (recording then stops; the session goes on).
    public var onError: ((String) -> Void)?

    /// Creates (or truncates) `path` and writes the starting point of `editor`, which must have a
    /// part attached and a view size; then attaches itself to the editor.
    public init(path: String, editor: Editor) throws {
        guard let part = editor.part, let package = part.package else {
            throw QuireError(.partNotAttached, "record: attach a part to the editor before recording")
        }
        guard let size = editor.viewSize else { throw QuireError(.partNotAttached, "record: set the view size before recording") }
        guard FileManager.default.createFile(atPath: path, contents: nil), let h = FileHandle(forWritingAtPath: path) else {
            throw QuireError(.ioError, "record: cannot create '\(path)'")
        }
        handle = h
        self.path = path
        let archive = try package.archiveData()
        var config: [String: JSONValue] = [:]
        // Not where this machine keeps state, nor the recording itself: a replay that recorded
        // again would overwrite the file it plays.
        let local: Set<String> = [ConfigKey<String>.packageTempFolder.name, ConfigKey<String>.appRecord.name]
        for (k, v) in Self.ownValues(editor.engine.configuration) where !local.contains(k) { config[k] = v }
        for (k, v) in Self.ownValues(editor.configuration) where !local.contains(k) { config[k] = v }
        var tools: [String: JSONValue] = [:]
        for type in [PointerType.pen, .mouse, .touch, .eraser] { tools[type.name] = .string(editor.toolController.tool(for: type).rawValue) }
        let header: JSONValue = .object([
            "quire": .string(QuireVersion.string),
            "package": .string(archive.base64EncodedString()),
            "part": .number(Double(package.index(of: part) ?? 0)), "partId": .string(part.id),
            "configuration": .object(config), "tools": .object(tools),
            "view": .array([.number(Double(size.width)), .number(Double(size.height))]),
            "ppmm": .number(editor.pixelsPerMillimetre), "transform": Self.json(editor.viewTransform),
        ])
        // The format's name comes first, so that a file's first bytes tell what it is.
        buffer = "{\"quire-session\":\(Self.formatVersion)," + (try header.serialized()).dropFirst() + "\n"
        flush()
        editor.recorder = self
    }

    deinit { flush(); try? handle.close() }

    /// Whether a file starts as a session recording does.
    public static func isSession(path: String) -> Bool {
        guard let h = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? h.close() }
        return String(decoding: (try? h.read(upToCount: 17)) ?? Data(), as: UTF8.self) == "{\"quire-session\":"
    }

    private static func ownValues(_ c: Configuration) -> [String: JSONValue] {
        guard case .object(let o)? = try? JSONValue.parse(Data(c.json.utf8)) else { return [:] }
        return o
    }

    static func json(_ t: Transform) -> JSONValue {
        .array([t.a, t.b, t.c, t.d, t.tx, t.ty].map { .number($0) })
    }

    private var at: Int64 { Int64((Date().timeIntervalSince(start) * 1000).rounded()) }

    // MARK: what the editor reports

    func pointer(_ kind: PointerEventKind, x: Double, y: Double, t: Int64, f: Double, type: PointerType, id: Int, editor: Editor) {
        guard depth == 0, !failed else { return }
        var line = "{\"at\":\(at),\"e\":\"\(Self.name(kind))\",\"id\":\(id)"
        if kind != .cancel {
            line += ",\"x\":\(x),\"y\":\(y),\"t\":\(t),\"f\":\(f),\"type\":\"\(type.name)\""
        }
        if kind == .down {
            let tool = editor.toolController.tool(for: type)
            let style = editor.toolController.style(for: tool)
            let v = editor.viewTransform
            line += ",\"tool\":\"\(tool.rawValue)\",\"color\":\(Self.quoted(style.color)),\"width\":\(Double(style.width))"
            line += ",\"view\":[\(v.a),\(v.b),\(v.c),\(v.d),\(v.tx),\(v.ty)]"
        }
        buffer += line + "}\n"
        // A move is followed by more; everything else is worth having on disk at once.
        if kind != .move || buffer.utf8.count > 1 << 16 { flush() }
    }

    /// A `pointerEvents` batch: recorded whole, its events are not recorded one by one.
    func batch(_ events: [PointerEvent], gestures: Bool, editor: Editor) {
        guard depth == 0, !failed else { return }
        let list: [JSONValue] = events.map { e in
            .object(["e": .string(Self.name(e.kind)), "x": .number(e.x), "y": .number(e.y), "t": .number(Double(e.t)),
                     "f": .number(e.f), "type": .string(e.pointerType.name), "id": .number(Double(e.pointerId)),
                     "tool": .string(editor.toolController.tool(for: e.pointerType).rawValue)])
        }
        write(["e": .string("batch"), "gestures": .bool(gestures), "events": .array(list)])
    }

    func view(_ fields: [String: JSONValue]) {
        guard depth == 0 else { return }
        write(fields)
    }

    func resultsApplied(_ blockIds: [String]) {
        guard depth == 0 else { return }
        write(["e": .string("results"), "blocks": .array(blockIds.sorted().map { .string($0) })])
    }

    /// Records an application command (the app's own encoding, which its player understands),
    /// then runs it; what the editor does meanwhile is not recorded, replaying the command does it.
    public func command(_ payload: JSONValue, perform: () -> Void) {
        if depth == 0 { write(["e": .string("command"), "command": payload]) }
        suspended(perform)
    }

    /// Runs `body` without recording what the editor does in it.
    func suspended<T>(_ body: () throws -> T) rethrows -> T {
        depth += 1
        defer { depth -= 1 }
        return try body()
    }

    private func write(_ fields: [String: JSONValue]) {
        guard !failed else { return }
        var o = fields
        o["at"] = .number(Double(at))
        do { buffer += try JSONValue.object(o).serialized() + "\n" } catch {
            fail("record: \(error)")
            return
        }
        flush()
    }

    /// Writes what is buffered to the file.
    public func flush() {
        guard !buffer.isEmpty, !failed else { return }
        do { try handle.write(contentsOf: Data(buffer.utf8)) } catch { fail("record: cannot write '\(path)': \(error)") }
        buffer = ""
    }

    private func fail(_ message: String) {
        failed = true
        buffer = ""
        onError?(message)
    }

    static func name(_ k: PointerEventKind) -> String {
        switch k {
        case .down: "down"
        case .move: "move"
        case .up: "up"
        case .cancel: "cancel"
        }
    }

    private static func quoted(_ s: String) -> String {
        (try? JSONValue.string(s).serialized()) ?? "\"\""
    }
}
