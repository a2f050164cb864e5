import Foundation
import InkModel

/// Reads a session file written by `SessionRecorder` and plays it into a fresh editor: the same
/// pointer events, view changes and commands in the same order, waiting for recognition where
/// the recording applied results, so the model ends as the recorded session's did.
public final class SessionPlayer {
    /// One thing that happened in the session.
    public enum Step {
        /// A pointer event, with the tool its pointer type used (and, for a down, the tool's
        /// style and the view transform then).
        case pointer(PointerEvent, tool: Tool?, style: (color: String, width: Float)?, view: Transform?)
        case batch([(PointerEvent, Tool?)], gestures: Bool)
        case scroll(Point)
        case zoom(Double, at: Point)
        case size(width: Int, height: Int)
        case pixelsPerMillimetre(Double)
        case select(Set<String>)
        /// A lasso selection of blocks and strokes (`Editor.setSelection(blocks:strokes:)`).
        case selectLasso(blocks: Set<String>, strokes: Set<String>)
        /// Recognition results were applied here.
        case results([String])
        /// An application command, in the application's own encoding.
        case command(JSONValue)
    }

    /// The starting package, as package-file bytes.
    public let packageData: Data
    /// The index of the edited part in that package.
    public let partIndex: Int
    /// Configuration values in force when recording (engine's and editor's own values).
    public let configuration: [String: JSONValue]
    public let tools: [PointerType: Tool]
    public let viewSize: (width: Int, height: Int)
    public let pixelsPerMillimetre: Double
    public let startTransform: Transform
    /// The steps, each with the milliseconds since recording began (for playing at pace).
    public let steps: [(at: Int64, step: Step)]
    /// Where the replay differed from the recording (a view transform at a pen down), for the report.
    public private(set) var divergences: [String] = []

    /// Reads a session file; a malformed one is a `QuireError` naming the line.
    public convenience init(path: String) throws {
        let data = try FileIO.readFile(path, maxBytes: 1 << 31)
        try self.init(data: data, source: path)
    }

    public init(data: Data, source: String = "session") throws {
        var lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true).makeIterator()
        guard let first = lines.next() else { throw QuireError(.invalidArgument, "\(source): empty session file") }
        guard case .object(let h) = try JSONValue.parse(Data(first.utf8), what: "\(source) line 1"),
              let version = h["quire-session"]?.intValue else {
            throw QuireError(.invalidArgument, "\(source): not a Quire session recording (line 1 has no \"quire-session\")")
        }
        guard version <= SessionRecorder.formatVersion else {
            throw QuireError(.invalidArgument, "\(source): session format \(version) is newer than this Quire reads (\(SessionRecorder.formatVersion))")
        }
        guard let b64 = h["package"]?.stringValue, let pkg = Data(base64Encoded: b64) else {
            throw QuireError(.invalidArgument, "\(source): line 1 has no starting package")
        }
        packageData = pkg
        partIndex = h["part"]?.intValue ?? 0
        if case .object(let c)? = h["configuration"] { configuration = c } else { configuration = [:] }
        var tools: [PointerType: Tool] = [:]
        if case .object(let t)? = h["tools"] {
            for (k, v) in t { if let type = PointerType(name: k), let tool = v.stringValue.flatMap(Tool.init(rawValue:)) { tools[type] = tool } }
        }
        self.tools = tools
        guard case .array(let v)? = h["view"], v.count == 2, let w = v[0].intValue, let hh = v[1].intValue else {
            throw QuireError(.invalidArgument, "\(source): line 1 has no view size")
        }
        viewSize = (w, hh)
        pixelsPerMillimetre = h["ppmm"]?.doubleValue ?? 96 / 25.4
        startTransform = Self.transform(h["transform"]) ?? Transform(scale: pixelsPerMillimetre, tx: 0, ty: 0)
        var steps: [(Int64, Step)] = []
        var n = 1
        while let line = lines.next() {
            n += 1
            let what = "\(source) line \(n)"
            guard case .object(let o) = try JSONValue.parse(Data(line.utf8), what: what) else {
                throw QuireError(.invalidArgument, "\(what): not a JSON object")
            }
            steps.append((Int64(o["at"]?.doubleValue ?? 0), try Self.step(o, what: what)))
        }
        self.steps = steps
    }

    static func transform(_ v: JSONValue?) -> Transform? {
        guard case .array(let a)? = v, a.count == 6 else { return nil }
        let n = a.compactMap(\.doubleValue)
        guard n.count == 6, n.allSatisfy(\.isFinite) else { return nil }
        return Transform(a: n[0], b: n[1], c: n[2], d: n[3], tx: n[4], ty: n[5])
    }

    private static func number(_ o: [String: JSONValue], _ k: String, _ what: String) throws -> Double {
        guard let v = o[k]?.doubleValue, v.isFinite else { throw QuireError(.invalidArgument, "\(what): \"\(k)\" must be a number") }
        return v
    }

    private static func event(_ o: [String: JSONValue], what: String) throws -> PointerEvent {
        let kinds: [String: PointerEventKind] = ["down": .down, "move": .move, "up": .up, "cancel": .cancel]
        guard let kind = o["e"]?.stringValue.flatMap({ kinds[$0] }) else { throw QuireError(.invalidArgument, "\(what): unknown pointer event") }
        let id = Int(try number(o, "id", what))
        if kind == .cancel { return .cancel(pointerId: id) }
        guard let type = o["type"]?.stringValue.flatMap(PointerType.init(name:)) else {
            throw QuireError(.invalidArgument, "\(what): unknown pointer type")
        }
        return PointerEvent(kind: kind, x: try number(o, "x", what), y: try number(o, "y", what), t: Int64(try number(o, "t", what)),
                            f: try number(o, "f", what), pointerType: type, pointerId: id)
    }

    private static func step(_ o: [String: JSONValue], what: String) throws -> Step {
        switch o["e"]?.stringValue {
        case "down", "move", "up", "cancel":
            let tool = o["tool"]?.stringValue.flatMap(Tool.init(rawValue:))
            let style = o["color"]?.stringValue.map { ($0, Float(o["width"]?.doubleValue ?? 0)) }
            return .pointer(try event(o, what: what), tool: tool, style: style, view: transform(o["view"]))
        case "batch":
            guard case .array(let list)? = o["events"] else { throw QuireError(.invalidArgument, "\(what): a batch needs events") }
            var events: [(PointerEvent, Tool?)] = []
            for case .object(let e) in list { events.append((try event(e, what: what), e["tool"]?.stringValue.flatMap(Tool.init(rawValue:)))) }
            return .batch(events, gestures: o["gestures"] != .bool(false))
        case "scroll": return .scroll(Point(x: try number(o, "dx", what), y: try number(o, "dy", what)))
        case "zoom": return .zoom(try number(o, "factor", what), at: Point(x: try number(o, "x", what), y: try number(o, "y", what)))
        case "size": return .size(width: Int(try number(o, "w", what)), height: Int(try number(o, "h", what)))
        case "ppmm": return .pixelsPerMillimetre(try number(o, "v", what))
        case "select", "results":
            guard case .array(let ids)? = o["blocks"] else { throw QuireError(.invalidArgument, "\(what): \"blocks\" must be a list") }
            let blocks = ids.compactMap(\.stringValue)
            if o["e"]?.stringValue == "select", let strokes = o["strokes"] {
                guard case .array(let sids) = strokes else { throw QuireError(.invalidArgument, "\(what): \"strokes\" must be a list") }
                return .selectLasso(blocks: Set(blocks), strokes: Set(sids.compactMap(\.stringValue)))
            }
            return o["e"]?.stringValue == "select" ? .select(Set(blocks)) : .results(blocks)
        case "command":
            guard let c = o["command"] else { throw QuireError(.invalidArgument, "\(what): a command record needs \"command\"") }
            return .command(c)
        default:
            throw QuireError(.invalidArgument, "\(what): unknown record \(o["e"].map { "\($0)" } ?? "(no \"e\")")")
        }
    }

    // MARK: setting up

    /// An engine with the recorded configuration.
    public func makeEngine() throws -> Engine {
        let engine = try Engine()
        if !configuration.isEmpty {
            try engine.configuration.inject(json: try JSONValue.object(configuration).serialized())
        }
        return engine
    }

    /// Writes the starting package to `path` (replaced if it exists), for opening with the engine.
    public func writePackage(to path: String) throws {
        try FileIO.writeAtomically(packageData, to: path)
    }

    /// Prepares an editor as the recording's was (tools, resolution, view size) and attaches `part`.
    public func prepare(_ editor: Editor, part: ContentPart) throws {
        for (type, tool) in tools { editor.toolController.setTool(tool, for: type) }
        editor.pixelsPerMillimetre = pixelsPerMillimetre
        try editor.setViewSize(width: viewSize.width, height: viewSize.height)
        try editor.setPart(part)
        if editor.viewTransform != startTransform { divergences.append("start: view \(editor.viewTransform) != recorded \(startTransform)") }
    }

    // MARK: playing

    /// Plays one step into `editor`; commands go to `perform`. Recognition is waited for where
    /// the recording applied results (so gestures and conversions see the same words).
    public func play(_ step: Step, into editor: Editor, index: Int = 0, perform: (JSONValue) throws -> Void) throws {
        switch step {
        case let .pointer(e, tool, style, view):
            if let tool, e.kind == .down {
                editor.toolController.setTool(tool, for: e.pointerType)
                if let style { editor.toolController.setStyle(color: style.color, width: style.width, for: tool) }
            }
            if let view, view != editor.viewTransform {
                divergences.append("step \(index): view \(editor.viewTransform) != recorded \(view)")
            }
            switch e.kind {
            case .down: try editor.pointerDown(x: e.x, y: e.y, t: e.t, f: e.f, type: e.pointerType, pointerId: e.pointerId)
            case .move: try editor.pointerMove(x: e.x, y: e.y, t: e.t, f: e.f, type: e.pointerType, pointerId: e.pointerId)
            case .up: try editor.pointerUp(x: e.x, y: e.y, t: e.t, f: e.f, type: e.pointerType, pointerId: e.pointerId)
            case .cancel: try editor.pointerCancel(pointerId: e.pointerId)
            }
        case let .batch(events, gestures):
            for case let (e, tool?) in events where e.kind == .down { editor.toolController.setTool(tool, for: e.pointerType) }
            try editor.pointerEvents(events.map(\.0), processGestures: gestures)
        case .scroll(let d): editor.scroll(by: d)
        case let .zoom(f, p): editor.zoom(by: f, at: p)
        case let .size(w, h): try editor.setViewSize(width: w, height: h)
        case .pixelsPerMillimetre(let v): editor.pixelsPerMillimetre = v
        case .select(let ids): editor.setSelection(ids)
        case let .selectLasso(blocks, strokes): editor.setSelection(blocks: blocks, strokes: strokes)
        case .results: try editor.waitForIdle()
        case .command(let c): try perform(c)
        }
    }
}
