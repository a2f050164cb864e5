import Foundation
import InkFormats
import InkModel

/// Reads InkML (W3C) traces in model millimetres through the one InkML reader
/// (`InkFormats.InkMLFormat`: namespaces, units, differences, brushes, trace types), flattened to
/// the traces `Editor.importTraces` writes as pen input.
public enum InkMLReader {
    public static func read(_ data: Data) throws -> [ImportedTrace] {
        InkImporter.traces(try InkMLFormat.read(data))
    }
}

extension Editor {
    /// Writes imported traces (model millimetres) into the part through batch pointer input,
    /// gestures off, as a user would have written them; in a Text Document each stroke joins the
    /// block where it was written and the blocks flow once at the end.
    public func importTraces(_ traces: [ImportedTrace]) throws {
        let t = viewTransform
        var events: [PointerEvent] = []
        events.reserveCapacity(traces.reduce(0) { $0 + $1.samples.count })
        for tr in traces {
            guard let first = tr.samples.first else { continue }
            let type: PointerType = tr.pointerType == .eraser ? .pen : tr.pointerType
            let saved = toolController.tool(for: type)
            _ = saved
            for (i, s) in tr.samples.enumerated() {
                let p = t.apply(Point(x: s.x, y: s.y))
                let kind: PointerEventKind = i == 0 ? .down : (i == tr.samples.count - 1 ? .up : .move)
                events.append(PointerEvent(kind: kind, x: p.x, y: p.y, t: s.t, f: s.f, pointerType: type, pointerId: 1))
            }
            if tr.samples.count == 1 {
                let p = t.apply(Point(x: first.x, y: first.y))
                events.append(PointerEvent(kind: .up, x: p.x, y: p.y, t: first.t, f: first.f, pointerType: type, pointerId: 1))
            }
        }
        let prev = [PointerType.pen, .mouse, .touch].map { ($0, toolController.tool(for: $0)) }
        for (pt, _) in prev { toolController.setTool(.pen, for: pt) }
        defer { for (pt, tool) in prev { toolController.setTool(tool, for: pt) } }
        try withFlowHeld { try pointerEvents(events, processGestures: false) }
    }
}
