import Foundation
import InkModel
import InkRecognition

/// How a block was read, for looking at (the recognition inspector, tests): its strokes grouped
/// into lines, each line's network output, alignment, words with candidates and score parts,
/// characters with their strokes, the configuration in force and the time each stage took.
/// Computed only when asked for (`Editor.recognitionDiagnostics`): reading ink never pays for it.
public struct BlockDiagnostics: Sendable {
    public struct Line: Sendable {
        /// The line's strokes, in the order the recognizer read them.
        public var strokeIds: [String]
        public var diagnostics: LineDiagnostics
        /// The words as the editor stores them (stroke ids of each word and character).
        public var words: [RecognizedWord]
    }
    public var blockId: String
    public var lines: [Line]
    /// The `text.configuration.*` values of the request, and the files and decoder settings used.
    public var configuration: [String: String]
    /// Grouping strokes into lines, nanoseconds of this thread's CPU.
    public var layoutNanos: UInt64
    /// The stages summed over the lines.
    public var timings: StageTimings
}

extension Editor {
    /// Reads a Text (or Math) block again with the editor's recognizer and configuration and says
    /// how (see `BlockDiagnostics`). Runs on the calling thread; the model is not changed. Throws
    /// `invalidBlock` for a block without ink, `recognitionError` when the block's recognizer is
    /// not Quire's own (another recognizer cannot explain itself).
    ///
    /// To see how other settings would read the same ink (the inspector's compare view), pass
    /// `recognizer` (other weights), `options` (`text.configuration.*` values, without the prefix,
    /// over the editor's) and `decoder` (decoder settings no configuration key holds, such as the
    /// language-model weight).
    public func recognitionDiagnostics(_ block: ContentBlock, recognizer other: TextRecognizerAdapter? = nil,
                                       options extra: [String: String] = [:],
                                       decoder: ((inout RecognitionOptions) -> Void)? = nil) throws -> BlockDiagnostics {
        let m = try requirePart()
        let b = try block.checkValid()
        guard let adapter = other ?? recognizers.recognizer(for: b.type) as? TextRecognizerAdapter else {
            throw QuireError(.recognitionError, "block '\(b.id)' is not read by Quire's recognizer: no diagnostics")
        }
        guard var req = makeRequest(blockId: b.id, model: m) else { throw QuireError(.invalidBlock, "block '\(b.id)' is no longer valid") }
        req.options.merge(extra) { $1 }
        let configured = try adapter.configured(options: req.options)
        let recognizer = configured.recognizer
        var options = configured.options
        decoder?(&options)
        let t0 = TextRecognizerAdapter.threadCPUNanos()
        let strokes = req.strokes.filter { $0.count > 0 }
        guard !strokes.isEmpty else { throw QuireError(.invalidBlock, "block '\(b.id)' holds no ink to read") }
        let points = strokes.map { s in
            let xs = s.xs, ys = s.ys
            return (0 ..< s.count).map { SIMD2(Double(xs[$0]) / InkStroke.unitsPerMillimetre, Double(ys[$0]) / InkStroke.unitsPerMillimetre) }
        }
        let groups = TextRecognizer.groupLines(strokes: points, lineSpacing: req.guideSpacing, originY: req.box.y)
        let layout = TextRecognizerAdapter.threadCPUNanos() - t0
        var lines: [BlockDiagnostics.Line] = []
        var timings = StageTimings()
        for group in groups {
            guard let d = recognizer.diagnose(strokes: group.map { points[$0] }, options: options) else {
                throw QuireError(.recognitionError, "a line of block '\(b.id)' holds too much ink to recognize")
            }
            timings.preprocess += d.timings.preprocess
            timings.network += d.timings.network
            timings.decode += d.timings.decode
            let words = TextRecognizerAdapter.words(d.result, strokes: group.map { strokes[$0] }, points: group.map { points[$0] }, line: lines.count)
            guard !words.isEmpty else { continue }
            lines.append(.init(strokeIds: group.map { strokes[$0].id }, diagnostics: d, words: words))
        }
        var config = req.options.filter { !$0.value.isEmpty }
        config["model"] = adapter.modelURL.path
        config["lexicon-mode.resolved"] = "\(options.lexiconMode)"
        config["language-model"] = (try? adapter.loadedLanguageModel()) != nil ? "on (weight \(options.languageModelWeight), bonus \(options.characterBonus))" : "off"
        config["character-model"] = recognizer.characterModel != nil ? "on" : "off"
        config["beam-width"] = "\(options.beamWidth)"
        config["n-best"] = "\(options.nBest)"
        if let g = req.guideSpacing { config["guide-spacing"] = "\(g)" }
        return BlockDiagnostics(blockId: b.id, lines: lines, configuration: config, layoutNanos: layout, timings: timings)
    }
}
