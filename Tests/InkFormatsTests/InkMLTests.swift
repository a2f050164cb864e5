import Foundation
import Testing
@testable import InkFormats
import InkModel

func fixture(_ name: String) -> URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/\(name)")
}

/// Relative geometry: every sample's offset from the first, scaled by `k`, within 0.5% of the
/// drawing's size.
func expectSameShape(_ a: [[(Double, Double)]], _ b: [InkTrace], scale k: Double, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(a.count == b.count, sourceLocation: sourceLocation)
    let all = a.flatMap { $0 }
    let size = max((all.map(\.0).max()! - all.map(\.0).min()!), (all.map(\.1).max()! - all.map(\.1).min()!)) * k
    let o = a[0][0], p = b[0].samples[0]
    var worst = 0.0
    for (s, t) in zip(a, b) {
        #expect(s.count == t.samples.count, sourceLocation: sourceLocation)
        for (q, r) in zip(s, t.samples) {
            worst = max(worst, abs((q.0 - o.0) * k - (r.x - p.x)), abs((q.1 - o.1) * k - (r.y - p.y)))
        }
    }
    #expect(worst <= 0.005 * size, "worst deviation \(worst) mm of \(size) mm", sourceLocation: sourceLocation)
}

@Suite struct InkMLTests {
    @Test func officeStyleNamespacedWithResolutionAndBrushes() throws {
        let doc = try InkMLFormat.read(try Data(contentsOf: fixture("office-namespaced.inkml")))
        let page = try #require(doc.pages.first)
        #expect(page.strokes.count == 3)
        // Integer device steps of 1/1000 cm: 2540 steps are 25.4 mm.
        let s0 = page.strokes[0]
        #expect(abs(s0.samples[0].x - 25.4) < 1e-9 && abs(s0.samples[0].y - 50.8) < 1e-9)
        #expect(abs(s0.samples[2].x - 35.4) < 1e-9 && abs(s0.samples[2].y - 50.8) < 1e-9, "first differences: \(s0.samples.map(\.x))")
        #expect(s0.brush.color == "#ff0000" && abs(s0.brush.width - 0.5) < 1e-9)
        #expect(abs(s0.samples[1].f - 0.5) < 1e-9, "pressure over the channel's max")
        // A brush with transparency and maskPen is a see-through highlighter.
        #expect(page.strokes[1].brush.tool == "highlighter" && page.strokes[1].brush.color == "#ffff0080")
        #expect(page.strokes[2].brush.color == "#0000ff")
        // timeString without zone: UTC; the T channel counts milliseconds from it.
        let ms = try #require(InkMLReading.milliseconds(iso8601: "2024-11-17T14:25:50.898"))
        let t0 = Int64(ms)
        #expect(s0.samples[0].t == t0 && s0.samples[1].t == t0 + 8)
    }

    @Test func wacomStyleDifferencesAndQualifiers() throws {
        let doc = try InkMLFormat.read(try Data(contentsOf: fixture("wacom-differences.inkml")))
        let s = try #require(doc.pages.first?.strokes.first)
        // The spec's example trace: explicit, first, then second differences (sticky), signs as separators.
        let xs = s.samples.map { $0.x / 0.01 }.map { ($0 * 1000).rounded() / 1000 }
        let ys = s.samples.map { $0.y / 0.01 }.map { ($0 * 1000).rounded() / 1000 }
        #expect(xs == [1125, 1148, 1178, 1211, 1251, 1297, 1347, 1394])
        #expect(ys == [18432, 18475, 18510, 18540, 18567, 18596, 18633, 18674])
        let second = try #require(doc.pages.first?.strokes.dropFirst().first)
        // `!` back to explicit, `*` repeats the last coded value, `?` keeps the value, 1.5e1 is 15.
        #expect(second.samples.map(\.x) == [10, 12, 14, 15, 15].map { $0 * 0.01 })
        #expect(doc.pages[0].strokes[1].brush.width == 1.2)
    }

    @Test func datasetStyleNormalisedCoordinatesAreScaledAndLabelsKept() throws {
        let data = try Data(contentsOf: fixture("crohme-style.inkml"))
        let doc = try InkMLFormat.read(data)
        let page = try #require(doc.pages.first)
        #expect(page.strokes.count == 4)
        #expect(doc.metadata["truth"] == "$x^2$")
        #expect(doc.metadata["UI"] == "quire-test_0001")
        let scale = try #require(doc.metadata["scale"])
        let k = try #require(Double(scale))
        #expect(doc.notes.contains { $0.contains("no units") && $0.contains("scaled") })
        let src: [[(Double, Double)]] = [
            [(0.10, 0.50), (0.30, 0.90)], [(0.30, 0.50), (0.10, 0.90)],
            [(0.45, 0.30), (0.55, 0.25), (0.60, 0.32), (0.45, 0.45), (0.62, 0.45)], [(0.70, 0.70), (0.70, 0.71)],
        ]
        expectSameShape(src, page.strokes, scale: k)
        // A typical stroke becomes about a letter high, and the ink starts 10 mm in.
        let b = try #require(page.inkBounds)
        #expect(b.x == 10 && b.y == 10 && b.height > 4 && b.height < 40)
        let x = try #require(page.groups.first { $0.labels["truth"] == "x" })
        #expect(x.strokes == [0, 1] && x.id == "g1")
        let two = try #require(page.groups.first { $0.labels["truth"] == "2" })
        #expect(two.strokes == [2] && two.labels["href"] == "2_1")
        #expect(page.groups.first { $0.labels["truth"] == "Segmentation" }?.strokes == [0, 1, 2])
    }

    @Test func unitsOfEveryKind() throws {
        func width(_ format: String, _ props: String = "", values: String = "0 0, 1000 0") throws -> Double {
            let xml = """
            <ink xmlns="http://www.w3.org/2003/InkML"><definitions><context xml:id="c"><inkSource><traceFormat>\(format)</traceFormat>
            <channelProperties>\(props)</channelProperties></inkSource></context></definitions>
            <trace contextRef="#c">\(values)</trace><trace contextRef="#c">0 0, 0 1</trace></ink>
            """
            let d = try InkMLFormat.read(Data(xml.utf8))
            return d.pages[0].strokes[0].samples[1].x - d.pages[0].strokes[0].samples[0].x
        }
        func ch(_ u: String, type: String = "decimal") -> String {
            "<channel name=\"X\" type=\"\(type)\" units=\"\(u)\"/><channel name=\"Y\" type=\"\(type)\" units=\"\(u)\"/>"
        }
        #expect(abs(try width(ch("mm")) - 1000) < 1e-9)
        #expect(abs(try width(ch("cm")) - 10_000) < 1e-6)
        #expect(abs(try width(ch("m"), values: "0 0, 0.5 0") - 500) < 1e-9)
        #expect(abs(try width(ch("in"), values: "0 0, 2 0") - 50.8) < 1e-9)
        #expect(abs(try width(ch("pt"), values: "0 0, 72 0") - 25.4) < 1e-9)
        #expect(abs(try width(ch("pc"), values: "0 0, 6 0") - 25.4) < 1e-9)
        #expect(abs(try width(ch("px"), values: "0 0, 96 0") - 25.4) < 1e-9)
        #expect(abs(try width(ch("himetric")) - 10) < 1e-9, "1000 himetric = 1 cm")
        let dpi = "<channelProperty channel=\"X\" name=\"resolution\" value=\"300\" units=\"1/in\"/><channelProperty channel=\"Y\" name=\"resolution\" value=\"300\" units=\"1/in\"/>"
        #expect(abs(try width(ch("px"), dpi, values: "0 0, 300 0") - 25.4) < 1e-9, "px at a declared 300 dpi")
        #expect(abs(try width(ch("dev", type: "integer"), dpi, values: "0 0, 3000 0") - 254) < 1e-9, "tablet steps at 300 per inch")
        #expect(abs(try width("<channel name=\"X\" type=\"integer\"/><channel name=\"Y\" type=\"integer\"/>", dpi, values: "0 0, 600 0") - 50.8) < 1e-9)
    }

    @Test func traceTypesContextsAndChannelOrder() throws {
        let xml = """
        <?xml version="1.0"?>
        <ink xmlns="http://www.w3.org/2003/InkML">
          <traceFormat><channel name="T" type="integer"/><channel name="Y" units="mm"/><channel name="X" units="mm"/>
            <intermittentChannels><channel name="F"/></intermittentChannels></traceFormat>
          <trace>0 5 1 .5, 10 6 2</trace>
          <trace type="penUp">0 0 0, 5 5 5</trace>
          <trace type="eraser">0 0 0, 5 5 5</trace>
          <trace type="indeterminate">0 -2.5E0 3</trace>
        </ink>
        """
        let doc = try InkMLFormat.read(Data(xml.utf8))
        let s = doc.pages[0].strokes
        #expect(s.count == 2)
        // Channels in the order the traceFormat gives (T Y X); y = -2.5 moves everything 12.5 mm down, 9 mm right.
        #expect(s[0].samples.map(\.x) == [10, 11] && s[0].samples.map(\.y) == [17.5, 18.5] && s[0].samples.map(\.t) == [0, 10])
        #expect(doc.notes.contains { $0.hasPrefix("moved by (9, 12.5) mm") })
        #expect(doc.notes.contains { $0.contains("penUp") } && doc.notes.contains { $0.contains("eraser") })
        #expect(s[0].samples[0].f == 0.5 && s[0].samples[1].f == 0.5, "an intermittent channel left out keeps its value")
    }

    @Test func errorsNameTheLineAndTheProblem() throws {
        func message(_ xml: String) -> String {
            do { _ = try InkMLFormat.read(Data(xml.utf8)); return "no error" } catch let e as QuireError {
                #expect(e.code == .importError)
                return e.message
            } catch { return "\(error)" }
        }
        #expect(message("<ink>\n<trace>1 2, 3 x</trace></ink>").contains("line 2"))
        #expect(message("<ink>\n<trace>1 2, 3 x</trace></ink>").contains("'x' is not a number"))
        #expect(message("<ink><trace>1 2 3, 4 5</trace></ink>").contains("3 values for 2 channels"))
        #expect(message("<ink>\n\n<trace contextRef=\"#nope\">1 2</trace></ink>").contains("line 3: context '#nope' is not defined"))
        #expect(message("<ink><traceFormat><channel name=\"A\"/></traceFormat><trace>1</trace></ink>").contains("no X and Y channels"))
        #expect(message("<svg><trace>1 2</trace></svg>").contains("root element is <svg>"))
        #expect(message("<ink><trace>1 2").contains("truncated"))
        #expect(message("<ink><trace type=\"pen-ish\">1 2</trace></ink>").contains("penDown, penUp and indeterminate"))
    }
}
