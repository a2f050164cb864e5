import Foundation
import Quire
import QuireApp
import QuireTools
#if canImport(Glibc)
import Glibc
#endif

/// Configuration: the user's `$XDG_CONFIG_HOME/quire/configuration.json` read by the app's
/// `makeAppEngine`, `Configuration.inject` on an engine and on an editor, and the
/// `text.configuration.*` keys that reach recognition (hostile regular expressions, lexicon
/// paths, character sets). Seeds are the bundled defaults and a user file setting every key of
/// the README's table; a case mutates values, types, key spellings and nesting, then writes and
/// recognizes real handwriting, gestures, types, converts, exports, saves and reopens.
/// Invariants: no crash or hang; a refused `inject` changes nothing; the model stays consistent,
/// exports work, and a package saved under the configuration opens again with the same model.
final class ConfigFuzz: FuzzTarget {
    let context: FuzzContext
    let fonts = CairoFontMetrics()
    var seeds: [JSONValue] = []
    let files: String
    var lexicons: [String] = []

    static let regexes = ["", "[0-9]+", "(a+)+$", "(\\w+\\s?)+\\d", "(.*)*x", "(", "[z-a]", "a{1000000}", "(?<=a)b", "(a)\\1",
                          "\\p{L}+", "^$", "|", ".*", "(?i)HELLO", "[^\\x00-\\x7F]+", "(?:a|b|c|d|e)*+", "\\", "x{2,1}", "[[:alpha:]]",
                          String(repeating: "(", count: 600) + String(repeating: ")", count: 600), "(.)*(.)*(.)*(.)*(.)*(.)*(.)*Z",
                          "([a-z]+ ?)*[0-9]", "(?:(?:(?:(?:(?:x*)*)*)*)*)*y", "[A-Z]{2}[0-9]{4}", "\u{0}", "😀+"]
    static let charsets = ["", "0123456789", " ", "\u{0}", "😀", "abc", "\n\t", "ABCDEFGHIJKLMNOPQRSTUVWXYZ ", "é", String(repeating: "a", count: 10000)]

    init(context: FuzzContext) throws {
        self.context = context
        files = context.work + "/config-files"
        try FileManager.default.createDirectory(atPath: files, withIntermediateDirectories: true)
        let resources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Resources/configuration.json").path
        seeds.append(try JSONValue.parse(try Data(contentsOf: URL(fileURLWithPath: resources)), what: "defaults"))
        // Word lists: ordinary, empty, binary, one huge line, many words; and paths that are not files.
        func write(_ name: String, _ d: Data) throws -> String {
            let p = files + "/" + name
            try d.write(to: URL(fileURLWithPath: p))
            return p
        }
        var rng = SplitMix(seed: 7)
        lexicons.append(try write("words.txt", Data("Quire\nink\nhandwriting\nfox\nzebra\n".utf8)))
        lexicons.append(try write("empty.txt", Data()))
        lexicons.append(try write("binary.bin", Data((0..<200_000).map { _ in UInt8(rng.int(256)) })))
        lexicons.append(try write("line.txt", Data(String(repeating: "x", count: 2_000_000).utf8)))
        lexicons.append(try write("many.txt", Data((0..<150_000).map { "w\($0)q" }.joined(separator: "\n").utf8)))
        lexicons.append(try write("crlf.txt", Data("one\r\ntwo\r\n\r\n  \u{0}\n\u{FEFF}three".utf8)))
        try FileManager.default.createDirectory(atPath: files + "/dir", withIntermediateDirectories: true)
        mkfifo(files + "/fifo", 0o600)
        lexicons += [files + "/dir", files + "/fifo", "/dev/zero", "/dev/null", files + "/missing.txt", "relative/words.txt", "",
                     "/" + String(repeating: "a", count: 5000), "/proc/self/status"]
        // A user file setting every documented key.
        seeds.append(JSONValue.object([
            "app": .object(["autosave": .object(["idle-seconds": .number(3)]), "kiosk": .object(["exit-chord": .string("ctrl+alt+shift+q")])]),
            "content-package": .object(["max-entries": .number(10000), "temp-folder": .string("")]),
            "convert": .object(["convert-on-double-tap": .bool(true)]),
            "export": .object(["image": .object(["dpi": .number(150), "guides": .bool(false)])]),
            "gesture": .object(["enable": .bool(true)]),
            "image": .object(["max-file-size": .number(33_554_432), "max-pixels": .number(40_000_000)]),
            "input": .object(["devices": .array([.string("Wacom Intuos Pen eraser=eraser")]), "mouse-tool": .string("pen")]),
            "renderer": .object(["debug": .object(["boxes": .bool(false)]), "ink": .object(["pressure": .bool(true)])]),
            "text-document": .object(["block-spacing": .number(4), "pen": .object(["gestures": .array([.string("scratch-out"), .string("strike-through"), .string("join")])])]),
            "text": .object(["configuration": .object(["bundle": .string("en_US"), "charset": .string(""), "digits-only": .bool(false),
                                                       "lexicon": .string(""), "lexicon-mode": .string("prefer"), "regex": .string(""),
                                                       "system-lexicon": .bool(true), "upper-case-only": .bool(false)]),
                             "guides": .object(["enable": .bool(true), "spacing": .number(10)])]),
        ]))
    }

    /// Dotted keys a configuration may hold, with the values worth trying.
    func hostileSetting(_ rng: inout SplitMix) -> (String, JSONValue) {
        let numberKeys = ["text.guides.spacing", "text-document.block-spacing", "export.image.dpi", "image.max-pixels", "image.max-file-size",
                          "image.max-file-size", "image.max-pixels",
                          "content-package.max-entries", "content-package.max-entry-size", "content-package.max-uncompressed-size",
                          "app.autosave.idle-seconds", "input.palm-rejection.timeout-ms"]
        let boolKeys = ["text.guides.enable", "gesture.enable", "renderer.ink.pressure", "renderer.debug.boxes", "text.configuration.digits-only",
                        "text.configuration.upper-case-only", "text.configuration.system-lexicon", "convert.convert-on-double-tap",
                        "text-document.eraser.erase-precisely", "export.image.guides", "renderer.prediction.enable"]
        switch rng.int(9) {
        case 0, 1: return ("text.configuration.regex", .string(rng.pick(Self.regexes)))
        case 2: return ("text.configuration.lexicon", .string(rng.pick(lexicons)))
        case 3: return ("text.configuration.charset", .string(rng.pick(Self.charsets)))
        case 4: return ("text.configuration.lexicon-mode", .string(rng.pick(["prefer", "require", "off", "", "REQUIRE", "bogus"])))
        case 5:
            let n = rng.pick(Hostile.numbers + [0.1, 0.5, 0.51, -4, 1e6, 1e300, 10_000, 4000])
            return (rng.pick(numberKeys), .number(n))
        case 6: return (rng.pick(boolKeys), rng.chance(0.7) ? .bool(rng.chance(0.5)) : .string(rng.pick(["true", "yes", ""])))
        case 7:
            let key = rng.pick(["text-document.pen.gestures", "text.pen.gestures", "math.pen.gestures", "input.devices"])
            return (key, rng.chance(0.8) ? .array((0..<rng.int(5)).map { _ in .string(rng.pick(["scratch-out", "slice", "join", "bogus", "", "x=pen"])) }) : .string("join"))
        default:
            return (rng.pick(["content-package.temp-folder", "text.configuration.name", "text.configuration.bundle", "input.mouse-tool", "input.touch-tool"]),
                    .string(rng.pick(["", "/nonexistent/dir", files + "/words.txt", files, "relative", "/proc", "fr_FR", "hand", "eraser", "\u{0}"])))
        }
    }

    /// Sets a dotted key in a JSON tree, as a nested object or as a dotted key at the top.
    static func setting(_ root: JSONValue, _ key: String, _ value: JSONValue, nested: Bool) -> JSONValue {
        guard case .object(var o) = root else { return .object([key: value]) }
        if !nested { o[key] = value; return .object(o) }
        let parts = key.split(separator: ".", maxSplits: 1).map(String.init)
        if parts.count == 1 { o[key] = value; return .object(o) }
        o[parts[0]] = setting(o[parts[0]] ?? .object([:]), parts[1], value, nested: true)
        return .object(o)
    }

    func makeConfig(_ rng: inout SplitMix) -> (Data, String) {
        var v = rng.pick(seeds)
        var what: [String] = []
        for _ in 0..<rng.int(in: 1...5) {
            if rng.chance(0.7) {
                let (k, x) = hostileSetting(&rng)
                v = Self.setting(v, k, x, nested: rng.chance(0.6))
                what.append(k)
            } else {
                v = JSONMutation.mutate(v, &rng)
                what.append("json")
            }
        }
        switch rng.int(20) {
        case 0: v = Self.setting(v, rng.pick(["a..b", ".x", "x.", "", "text.", "\u{0}"]), .bool(true), nested: false); what.append("bad key")
        case 1: v = Self.setting(v, "text.guides", .object(["spacing": .string("wide")]), nested: false); what.append("dotted and nested")
        case 2: v = Self.setting(v, "text.guides.spacing", .null, nested: true); what.append("null")
        case 3: v = Self.setting(v, "input.devices", .array([.string("a"), .number(1)]), nested: true); what.append("mixed array")
        case 4:
            var o: [String: JSONValue] = [:]
            for k in 0..<rng.pick([1000, 20000]) { o["k\(k).x"] = .number(Double(k)) }
            v = .object(o); what.append("many keys")
        default: break
        }
        var data = Data(JSONMutation.text(v).utf8)
        if rng.chance(0.06) { data = JSONMutation.damage(data, &rng); what.append("bytes") }
        if rng.chance(0.02) { data = Data(JSONMutation.text(.array([v])).utf8); what.append("not an object") }
        return (data, what.joined(separator: ","))
    }

    func run(index: Int, rng: inout SplitMix) throws {
        let ws = try Workspace(base: context.work, name: "config-\(index)")
        defer { ws.remove() }
        let (data, what) = makeConfig(&rng)
        context.log("configuration: \(what) (\(data.count) bytes)")
        let text = String(decoding: data, as: UTF8.self)
        let engine: Engine
        switch rng.int(3) {
        case 0:
            // The app's path: the user's file under $XDG_CONFIG_HOME.
            try FileManager.default.createDirectory(atPath: ws.file("config/quire"), withIntermediateDirectories: true)
            try data.write(to: URL(fileURLWithPath: ws.file("config/quire/configuration.json")))
            setenv("XDG_CONFIG_HOME", ws.file("config"), 1)
            setenv("XDG_STATE_HOME", ws.file("state"), 1)
            var warnings: [String] = []
            do { engine = try makeAppEngine { warnings.append($0) } } catch let e as QuireError {
                context.log("makeAppEngine refused: \(e.message)")
                return
            }
            context.log("warnings: \(warnings)")
        case 1:
            engine = try Engine()
            try injectAllOrNothing(engine.configuration, text, "engine")
        default:
            engine = try Engine()
            try engine.configuration.setString(ws.file("state"), forKey: "content-package.temp-folder")
        }
        let path = ws.file("doc.iink")
        let pkg: ContentPackage
        do { pkg = try engine.createPackage(path) } catch let e as QuireError {
            context.log("createPackage refused: \(e.message)")
            return
        }
        defer { pkg.close() }
        let part = try pkg.createPart(type: rng.chance(0.8) ? PartType.textDocument.rawValue : PartType.text.rawValue)
        let e = engine.createEditor(fontMetricsProvider: fonts)
        if rng.chance(0.4) { try injectAllOrNothing(e.configuration, text, "editor") }
        try e.setViewSize(width: 794, height: 1123)
        try e.setPart(part)
        try session(e, part: part, ws: ws, &rng)

        try pkg.save()
        pkg.close()
        let reopened: ContentPackage
        do { reopened = try engine.openPackage(path) } catch let err as QuireError {
            // Archive limits set by this configuration may refuse what it saved; nothing else may.
            if engine.configuration.keys.contains(where: { $0.hasPrefix("content-package.max-") }) { return }
            throw Violation("the package saved under this configuration does not open: \(err.message)")
        }
        defer { reopened.close() }
        let before = ModelSnapshot(part.model), after = ModelSnapshot(try reopened.part(at: 0).model)
        if before != after { throw Violation("save and reopen changed the model: \(before.difference(to: after))") }
    }

    /// `inject` either merges everything or changes nothing.
    func injectAllOrNothing(_ c: Configuration, _ text: String, _ which: String) throws {
        let before = c.json
        do { try c.inject(json: text) } catch let err as QuireError {
            if c.json != before { throw Violation("\(which) inject threw (\(err.message)) but changed the configuration") }
            context.log("\(which) inject refused: \(err.message.prefix(120))")
        }
    }

    /// Real handwriting written, recognized, gestured over, typed, converted and exported under
    /// the configuration.
    func session(_ e: Editor, part: ContentPart, ws: Workspace, _ rng: inout SplitMix) throws {
        var pen = Pen(clock: 1_700_000_000_000)
        var y = 12.0
        var traces: [ImportedTrace] = []
        for _ in 0..<rng.int(in: 1...3) {
            let strokes = context.handwriting.strokes(&rng, at: Point(x: 10, y: y), maxHeight: 9)
            traces += strokes.map { st in ImportedTrace(samples: st.map { InkSample(x: $0.x, y: $0.y, t: pen.tick(10), f: 0.5) }, pointerType: .pen, tool: "pen") }
            y += 20
        }
        func attempt(_ what: String, _ body: () throws -> Void) throws {
            do { try body() } catch let err as QuireError { context.log("\(what) refused: \(err.message.prefix(120))") }
        }
        try attempt("import") { try e.importTraces(traces) }
        try attempt("write") {
            for s in context.handwriting.strokes(&rng, at: Point(x: 30, y: y), maxHeight: 8) { try pen.draw(e, Pen.resample(s, &rng, step: 0.5, jitter: 0)) }
            // A stroke starting just under a block: its new block overlaps that one and the flow
            // (text-document.block-spacing) must push it down.
            if let b = part.model.root.childIds.compactMap({ part.model.blocks[$0] }).first {
                try pen.draw(e, Pen.resample([Point(x: b.box.x + 50, y: b.box.maxY + 0.6), Point(x: b.box.x + 54, y: b.box.maxY + 3)], &rng))
            }
        }
        try e.waitForIdle()
        if let w = part.model.blocks.values.sorted(by: { $0.id < $1.id }).flatMap(\.words).first(where: { !$0.box.isEmpty }) {
            let b = w.box
            try attempt("gesture") { try pen.draw(e, Pen.resample([Point(x: b.x - 0.5, y: b.midY), Point(x: b.maxX + 0.5, y: b.midY)], &rng)) }
        }
        if part.kind == .textDocument {
            try attempt("type") { _ = try e.typeText("typed text 123", into: nil) }
            // image.max-file-size and image.max-pixels apply here.
            let png = ws.file("one.png")
            try Data(SampleImages.png1x1).write(to: URL(fileURLWithPath: png))
            try attempt("image") { _ = try e.addImage(at: Point(x: 40, y: 600), file: png, mimeType: .png) }
        }
        try e.waitForIdle()
        if let p = Invariants.problem(part.model, idle: true) { throw Violation("after writing: \(p)") }
        if let p = Invariants.exportProblem(e, part.model) { throw Violation("after writing: \(p)") }
        try attempt("png") { try e.export(nil, to: ws.file("out.png"), mimeType: .png) }
        try attempt("convert") { try e.convert(nil, targetState: rng.chance(0.5) ? .digitalEdit : .digitalPublish) }
        try e.waitForIdle()
        if let p = Invariants.problem(part.model, idle: true) { throw Violation("after converting: \(p)") }
        if let p = Invariants.exportProblem(e, part.model) { throw Violation("after converting: \(p)") }
    }
}
