import Foundation
import Testing
@testable import InkModel
import QuireTestSupport

/// The one reader of the shared JSON-lines handwriting format: samples as read (source units
/// where no resolution is given) with their writer and set; placing them on a page is apart.
@Suite struct JSONLinesInkTests {
    static let lines = """
        {"id":"u1","set":"unipen","writer":"w1","cat":"6","label":"to be","ppi":[254,127],"strokes":[[[10,20,0],[20,40,5]]]}

        {"set":"pendigits","writer":"w2","cat":"digit","label":"8","ppi":null,"strokes":[[[0,0],[50,100]],[],[[10,20]]]}
        """

    @Test func keepsWriterSetAndSourceUnits() throws {
        let r = try JSONLinesInk.parse(Data(Self.lines.utf8))
        #expect(r.count == 2)
        #expect(r[0].id == "u1" && r[0].set == "unipen" && r[0].writer == "w1" && r[0].category == "6" && r[0].inMillimetres)
        #expect(abs(r[0].strokes[0][1].x - 2.0) < 1e-12 && abs(r[0].strokes[0][1].y - 8.0) < 1e-12)
        // No resolution: the source's units are kept as read, an empty stroke is no ink, and a
        // missing id is named after its (physical) line.
        #expect(r[1].id == "line-3" && r[1].set == "pendigits" && r[1].writer == "w2" && !r[1].inMillimetres)
        #expect(r[1].strokes.count == 2 && r[1].strokes[0][1].x == 50 && r[1].strokes[0][1].y == 100)
    }

    @Test func aPageShowsSamplesWithoutResolutionSevenMillimetresTall() throws {
        let r = try JSONLinesInk.parse(Data(Self.lines.utf8))
        let mm = r[1].millimetreStrokes
        #expect(abs(mm[0][1].y - JSONLinesInk.defaultHeightMM) < 1e-12 && abs(mm[0][1].x - 3.5) < 1e-12)
        #expect(abs(r[1].bounds.height - 7.0) < 0.01)
        let traces = JSONLinesInk.pageTraces([r[1]])
        let ys = traces.flatMap(\.samples).map(\.y)
        #expect(abs(ys.max()! - ys.min()! - 7.0) < 1e-9)
        // With a resolution the page shows the millimetres as read.
        #expect(r[0].millimetreStrokes[0][1].y == r[0].strokes[0][1].y)
    }

    @Test func skipSeesRawLinesBeforeTheParse() throws {
        var seen: [String?] = []
        let r = try JSONLinesInk.parse(Data((Self.lines + "\nnot json at all, \"writer\":\"w3\"").utf8)) { line in
            let w = JSONLinesInk.field("writer", in: line)
            seen.append(w)
            return w != "w2"
        }
        #expect(seen == ["w1", "w2", "w3"])
        #expect(r.map(\.writer) == ["w2"])
        #expect(JSONLinesInk.field("label", in: Data(#"{"label":"a\"b"}"#.utf8)[...]) == nil)
        let bad = expectCode(.importError) { _ = try JSONLinesInk.parse(Data(Self.lines.utf8) + Data("\n{\"id\":1}".utf8)) }
        #expect(bad?.message.contains("line 4") == true)
    }
}
