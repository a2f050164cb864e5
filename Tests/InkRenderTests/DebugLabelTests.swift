import Foundation
import Testing
import InkModel
@testable import InkRender

/// The debug overlay's word labels: none covers another, each starts over its word or above it.
struct DebugLabelTests {
    @Test func labelsOfCloseWordsDoNotOverlap() {
        // A line of short words whose labels (with candidates) are wider than the words, and a
        // second line close below.
        var anchors: [Rect] = []
        for line in 0 ..< 2 {
            for i in 0 ..< 8 { anchors.append(Rect(x: 10 + Double(i) * 9, y: 20 + Double(line) * 9, width: 7, height: 5)) }
        }
        let sizes = anchors.indices.map { (width: 20.0 + Double($0 % 3) * 6, height: 2.5) }
        let frames = DebugLabelLayout.place(anchors: anchors, sizes: sizes, gap: 0.4)
        for i in frames.indices {
            for j in frames.indices where j > i { #expect(!frames[i].intersects(frames[j]), "labels \(i) and \(j): \(frames[i]) \(frames[j])") }
            #expect(frames[i].width == sizes[i].width && frames[i].height == sizes[i].height)
            #expect(frames[i].maxY <= anchors[i].y, "label \(i) above its word")
            #expect(frames[i].x >= anchors[i].x && frames[i].x < anchors[i].maxX, "label \(i) starts over its word")
        }
        // A word alone keeps its label just above it.
        let one = DebugLabelLayout.place(anchors: [Rect(x: 5, y: 10, width: 8, height: 4)], sizes: [(30, 2)], gap: 0.5)
        #expect(one == [Rect(x: 5, y: 7.5, width: 30, height: 2)])
    }
}
