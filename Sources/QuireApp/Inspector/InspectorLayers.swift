import Foundation
import Quire

/// The data of the overlay's inspector layers, read from the editor's diagnostics: each Text
/// block's lines as bands (numbered block.line, the colours cycling through the page) with the
/// network's best class per frame, and the gesture strokes of a replayed session.
enum InspectorLayers {
    /// Every Text block with ink, read again through `Editor.recognitionDiagnostics`; a block the
    /// recognizer cannot read is left out (the panel says why).
    static func bands(_ editor: Editor) -> [DebugLineBand] {
        guard let root = editor.rootBlock, let model = editor.part?.model else { return [] }
        var out: [DebugLineBand] = []
        var ordinal = 0
        for b in [root] + root.children where b.kind == .text && !model.strokeIds(inBlock: b.id).isEmpty {
            ordinal += 1
            guard let d = try? editor.recognitionDiagnostics(b) else { continue }
            for (i, line) in d.lines.enumerated() {
                if let band = band(line, model: model, label: "\(ordinal).\(i + 1)", colour: out.count) { out.append(band) }
            }
        }
        return out
    }

    /// One line's band over its strokes' bounds. The frames go where their points are: the
    /// resampled points (frame f covers points 2f and 2f+1) are in the recognizer's own units,
    /// mapped back across the line's width.
    static func band(_ line: BlockDiagnostics.Line, model: PartModel, label: String, colour: Int) -> DebugLineBand? {
        let boxes = line.strokeIds.compactMap { model.strokes[$0]?.bounds }
        guard var box = boxes.first else { return nil }
        for r in boxes.dropFirst() { box = box.union(r) }
        let ld = line.diagnostics
        var frames: [DebugFrame] = []
        let xs = ld.points.map(\.x)
        if let lo = xs.min(), let hi = xs.max() {
            let k = hi > lo ? box.width / (hi - lo) : 0
            for f in 0 ..< min(ld.frames, ld.bestCharacters.count, ld.bestLogProbabilities.count) {
                let a = 2 * f, b = min(2 * f + 1, ld.points.count - 1)
                guard a < ld.points.count else { break }
                let x = box.x + ((ld.points[a].x + ld.points[b].x) / 2 - lo) * k
                frames.append(DebugFrame(x: x, character: ld.bestCharacters[f], probability: exp(Double(ld.bestLogProbabilities[f]))))
            }
        }
        return DebugLineBand(box: box, label: label, colour: colour, frames: frames)
    }

    /// The strokes taken for gestures, with what became of them (strokes read as ink are not marked).
    static func marks(_ gestures: [GestureExplanation]) -> [DebugGestureMark] {
        gestures.compactMap { g in
            guard g.kind != nil else { return nil }
            return DebugGestureMark(points: g.samples.map { Point(x: $0.x, y: $0.y) }, label: g.outcome)
        }
    }
}
