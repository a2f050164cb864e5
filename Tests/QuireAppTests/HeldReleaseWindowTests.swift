import Foundation
import Testing
import QuireApp
import QuireTestSupport

/// A pen's release is held while the same pen's next stroke is written, and strokes then reach
/// the editor under several pointer ids at once: under Xorg with the inputtest pen, strokes that
/// follow each other with no time in the air all land whole and in order, and a key pressed right
/// after them (Ctrl+Z) acts on finished strokes. The app is stopped while the input is sent, so
/// the whole burst is queued before it reads any of it (no time in the air at all).
@Suite(.serialized)
struct HeldReleaseWindowTests {
    @Test func strokesWithNoTimeInTheAirLandWholeAndInOrderAndUndoTakesTheLast() throws {
        let w = try EditorWindow.start(geometry: (900, 650))
        defer { w.stop() }
        let (ox, oy) = try w.canvasOrigin()
        let pen = try w.server.connect(.pen)
        let keyboard = try w.server.connect(.keyboard)
        w.x.focus(w.ready.window)
        let ctrlZ = try w.x.keycodes("ctrl+z")
        // Six zigzags 8 mm wide, 12 mm apart, 17 points each.
        let mm = w.ppmm
        let strokes6: [[(x: Double, y: Double, pressure: Double)]] = (0 ..< 6).map { k in
            let x0: Double = ox + 80 + Double(k) * 12 * mm
            return (0 ... 16).map { i in
                let dy: Double = i % 2 == 0 ? 0 : 4 * mm
                return (x: x0 + Double(i) * 0.5 * mm, y: oy + 200 + dy, pressure: 0.6)
            }
        }
        kill(w.app.pid, SIGSTOP)
        do {
            for points in strokes6 { try pen.penStroke(points: points) }
            try keyboard.keyChord(ctrlZ)
        } catch {
            kill(w.app.pid, SIGCONT)
            throw error
        }
        kill(w.app.pid, SIGCONT)
        // Closing applies what is still held and saves.
        usleep(500_000)
        w.x.sendDeleteWindow(w.ready.window)
        #expect(w.app.waitForExit(timeout: 30) == .exited(0), "stderr: \(w.app.stderr)")
        #expect(!w.app.stderr.contains("invalidPointerSequence") && !w.app.stderr.contains("is not down"), "\(w.app.stderr)")
        let strokes = try w.exportedStrokes()
        // Ctrl+Z took the sixth stroke: the other five are there, each whole and 8 mm wide,
        // starting 12 mm apart (a point given to the wrong stroke would break both).
        #expect(strokes.count == 5, "strokes: \(strokes.count)")
        let xs = strokes.map { ($0["x"] as? [Double]) ?? [] }
        #expect(xs.allSatisfy { $0.count >= 15 && abs(($0.max() ?? 0) - ($0.min() ?? 0) - 8) < 1 }, "strokes' x (mm): \(xs)")
        let firsts = xs.compactMap(\.first).sorted()
        let gaps = zip(firsts, firsts.dropFirst()).map { $1 - $0 }
        #expect(gaps.count == 4 && gaps.allSatisfy { abs($0 - 12) < 1 }, "gaps between strokes (mm): \(gaps)")
    }
}
