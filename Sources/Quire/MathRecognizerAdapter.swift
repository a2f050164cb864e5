import Foundation
import InkMath
import InkModel
import InkRecognition

/// The math recognizer (`InkMath.MathRecognizer`) behind the editor's `BlockRecognizer` protocol:
/// it reads Math blocks (and the root of Math parts). One expression per line; each line is one
/// word whose label is the expression's canonical LaTeX, whose candidates are the n-best readings
/// and whose characters are the symbols (class, box, strokes). The whole result (trees, symbols'
/// candidates) is stored on the block (`MathBlockResult`). Lines are cached by their ink, so an edit
/// re-reads only the lines whose strokes changed. Weights load on the first request, on the worker.
public final class MathRecognizerAdapter: BlockPropertiesRecognizer, @unchecked Sendable {
    /// The adapter editors get for Math blocks: the weights of `defaultWeightsURL()`, nil when none.
    public static let shared: MathRecognizerAdapter? = defaultWeightsURL().map { MathRecognizerAdapter(modelURL: $0) }

    /// `$QUIRE_MATH_MODEL`, `quire-math.bin` beside the text weights, then Quire's resource folder.
    public static func defaultWeightsURL() -> URL? {
        if let u = MathRecognizer.defaultModelURL() { return u }
        if let text = TextRecognizerAdapter.defaultWeightsURL() {
            let u = text.deletingLastPathComponent().appendingPathComponent(MathRecognizer.defaultFileName)
            if FileManager.default.fileExists(atPath: u.path) { return u }
        }
        if let dir = try? QuireResources.directory() {
            let u = dir.appendingPathComponent("recognition/\(MathRecognizer.defaultFileName)")
            if FileManager.default.fileExists(atPath: u.path) { return u }
        }
        return nil
    }

    public var blockTypes: [String] { [BlockType.math.rawValue] }
    public let modelURL: URL
    private let lock = NSLock()
    private var loaded: MathRecognizer?
    private var cache: [LineKey: MathExpression] = [:]
    private var linesRun = 0

    public init(modelURL: URL) { self.modelURL = modelURL }

    /// The loaded recognizer (`resourceMissing` for a missing file, `recognitionError` for weights
    /// that are corrupt or not a math model).
    public func recognizer() throws -> MathRecognizer {
        if let r = lock.withLock({ loaded }) { return r }
        let model = try ModelStore.shared.model(at: modelURL, what: "math recognizer weights",
                                                hint: " (set QUIRE_MATH_MODEL or install Resources/recognition/\(MathRecognizer.defaultFileName))")
        // The ensemble's second network when its file is there; without it, one network reads.
        let second = try MathRecognizer.secondModelURL(beside: modelURL).map {
            try ModelStore.shared.model(at: $0, what: "second math recognizer weights",
                                        hint: " (remove it to read with \(MathRecognizer.defaultFileName) alone)")
        }
        do {
            // The glyph image network when its file is there (shipped beside quire-math.bin).
            let glyph = try MathRecognizer.glyphModelURL(beside: modelURL).map { try GlyphNetwork(contentsOf: $0) }
            let r = try MathRecognizer(model: model, secondModel: second, glyphNetwork: glyph)
            lock.withLock { loaded = r }
            return r
        } catch {
            throw QuireError(.recognitionError, "math recognizer weights at \(modelURL.path): \(error)")
        }
    }

    /// Lines read by the network so far (cached lines do not count).
    public var linesRecognized: Int { lock.withLock { linesRun } }

    /// Reads a block's ink as math, one expression per line (lines split by the gaps between them).
    public func recognizeMath(_ request: RecognitionRequest) throws -> MathRecognitionResult {
        let r = try recognizer()
        let strokes = request.strokes.filter { $0.count > 0 }
        let points = strokes.map { s in
            let xs = s.xs, ys = s.ys
            return (0 ..< s.count).map { SIMD2(Double(xs[$0]) / InkStroke.unitsPerMillimetre, Double(ys[$0]) / InkStroke.unitsPerMillimetre) }
        }
        let ids = strokes.map(\.id)
        var out: [MathExpression] = []
        // Lines by the gaps between them, never by the guides: a fraction or a raised script is
        // taller than a guide line and would be cut in two.
        for line in MathLines.group(strokes: points) {
            let key = LineKey(ids: line.map { ids[$0] }, ink: line.map { points[$0] })
            if var e = lock.withLock({ cache[key] }) {
                // Same ink, maybe at other indices in this request.
                e.strokeIndices = line
                for s in e.symbols.indices { e.symbols[s].strokeIndices = e.symbols[s].strokeIds.compactMap { ids.firstIndex(of: $0) } }
                out.append(e)
                continue
            }
            guard let e = r.recognizeLine(strokes: points, indices: line, strokeIds: ids) else { continue }
            lock.withLock {
                linesRun += 1
                if cache.count > 512 { cache.removeAll() }
                cache[key] = e
            }
            out.append(e)
        }
        return MathRecognitionResult(expressions: out)
    }

    public func recognize(_ request: RecognitionRequest) throws -> [RecognizedWord] {
        try recognizeWithProperties(request).words
    }

    public func recognizeWithProperties(_ request: RecognitionRequest) throws -> (words: [RecognizedWord], properties: [String: String]) {
        let result = try recognizeMath(request)
        return (MathBlockResult.words(result), [MathBlockResult.propertyKey: try MathBlockResult.encode(result)])
    }

    private struct LineKey: Hashable {
        var ids: [String]
        var ink: [[SIMD2<Double>]]
    }
}

/// Where a Math block keeps what the math recognizer read: the block property
/// `quire.math.expressions` holds the `MathRecognitionResult` as JSON (saved with the package), and
/// the block's words mirror it (one word per expression, its symbols as characters) for the parts
/// of the editor that show words: candidates, boxes, debug views.
public enum MathBlockResult {
    public static let propertyKey = "quire.math.expressions"

    /// The result stored on a block, nil when it holds none (or what it holds does not decode).
    public static func result(of block: BlockData) -> MathRecognitionResult? {
        guard let s = block.properties[propertyKey], let d = s.data(using: .utf8) else { return nil }
        return try? JSONDecoder().decode(MathRecognitionResult.self, from: d)
    }

    static func encode(_ r: MathRecognitionResult) throws -> String {
        let e = JSONEncoder()
        e.outputFormatting = .sortedKeys
        return String(decoding: try e.encode(r), as: UTF8.self)
    }

    /// One word per expression: label the LaTeX, candidates the n-best LaTeX, chars the symbols.
    static func words(_ r: MathRecognitionResult) -> [RecognizedWord] {
        func rect(_ b: MathBox) -> Rect { Rect(x: b.x, y: b.y, width: b.width, height: b.height) }
        return r.expressions.enumerated().map { line, e in
            RecognizedWord(label: e.latex, candidates: e.candidates.map { Candidate(label: $0.latex, score: $0.score) },
                           box: rect(e.box), line: line, strokeIds: e.symbols.flatMap(\.strokeIds),
                           chars: e.symbols.map { RecognizedChar(label: $0.label, box: rect($0.box), strokeIds: $0.strokeIds) })
        }
    }
}

extension Editor {
    /// What the math recognizer read in a Math block (nil for other blocks, or before it was read).
    public func mathResult(for block: ContentBlock) throws -> MathRecognitionResult? {
        let m = try requirePart()
        _ = try block.checkValid()
        return m.blocks[block.id].flatMap(MathBlockResult.result)
    }
}
