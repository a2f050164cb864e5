import Foundation
import Testing
@testable import InkRecognition

@Suite struct RobustnessTests {
    let recognizer = TextRecognizer(model: Fixtures.model)

    @Test func emptyAndDegenerateInput() {
        #expect(recognizer.recognize(strokes: []).text.isEmpty)
        #expect(recognizer.recognize(strokes: [[], []]).words.isEmpty)
        let nan = recognizer.recognize(strokes: [[SIMD2(.nan, 1), SIMD2(2, .infinity)]])
        #expect(nan.text.isEmpty && nan.candidates.isEmpty)
        // A single point is valid ink (a dot): it must not crash and yields at most a short string.
        let one = recognizer.recognize(strokes: [[SIMD2(3, 4)]])
        #expect(one.text.count <= 1)
        // Mixed finite and non-finite points: the non-finite ones are dropped.
        let mixed: [[SIMD2<Double>]] = [[SIMD2(0, 0), SIMD2(.nan, 0), SIMD2(1, 5), SIMD2(2, 0)]]
        #expect(Preprocessor.prepare(strokes: mixed, config: Fixtures.model.preprocess)?.strokeIndex.allSatisfy { $0 == 0 } == true)
    }

    @Test func hugeStrokeIsRejectedQuickly() {
        // 1e6 points zig-zagging over 1 km of ink: far beyond max_points, rejected before the network.
        var s: [SIMD2<Double>] = []
        s.reserveCapacity(1_000_000)
        for i in 0 ..< 1_000_000 { s.append(SIMD2(Double(i) * 0.001, Double(i % 2))) }
        let start = Date()
        let r = recognizer.recognize(strokes: [s])
        #expect(r.text.isEmpty)
        #expect(Date().timeIntervalSince(start) < 20)
        // Many points on a tiny stroke are fine: resampling reduces them.
        let dense = (0 ..< 200_000).map { SIMD2(Double($0) * 1e-5, sin(Double($0) * 1e-3)) }
        _ = recognizer.recognize(strokes: [dense])
    }

    @Test func resultStructureOnRealInk() throws {
        let cases = try #require(Fixtures.parity["preprocess_cases"] as? [[String: Any]])
        for c in cases {
            let strokes = Fixtures.strokes(c["strokes"])
            let r = recognizer.recognize(strokes: strokes, options: RecognitionOptions(lexiconMode: .off, nBest: 3))
            let greedy = try #require(recognizer.logProbabilities(strokes: strokes)).0
            let g = CTCDecoder.greedy(greedy).classes.map { Fixtures.charset[$0 - 1] }
            // Beam search is at least as likely as the best path's reading.
            if let top = r.candidates.first {
                #expect(r.text == top.text)
                #expect(!String(g).isEmpty || top.text.isEmpty || top.score > -1e9)
            }
            var used = Set<Int>()
            for w in r.words {
                #expect(!w.text.contains(" "))
                #expect(w.box.minX <= w.box.maxX && w.box.minY <= w.box.maxY)
                for i in w.strokeIndices {
                    #expect(i >= 0 && i < strokes.count)
                    #expect(!used.contains(i))
                    used.insert(i)
                }
                for ch in w.characters {
                    #expect(ch.box.minX >= w.box.minX - 1e-9 && ch.box.maxX <= w.box.maxX + 1e-9)
                }
            }
            if !r.words.isEmpty { #expect(used == Set(0 ..< strokes.count)) }
        }
    }
}

@Suite struct ModelFileTests {
    let bytes: Data = (try? Data(contentsOf: Fixtures.modelURL)) ?? Data()

    func load(_ d: Data) -> RecognitionModelError? {
        do {
            _ = try RecognitionModel(data: d)
            return nil
        } catch let e as RecognitionModelError {
            return e
        } catch {
            return .corruptHeader("unexpected \(error)")
        }
    }

    @Test func loadsShippedModel() throws {
        let m = try RecognitionModel(contentsOf: Fixtures.modelURL)
        #expect(m.charset.count == 95)
        #expect(m.charset.first == " ")
        #expect(m.parameterCount > 100_000)
        #expect(m.preprocess == PreprocessConfig(minHeightMM: 4, spacing: 0.1, clip: 4, maxPoints: 6000))
    }

    @Test func missingFile() {
        #expect(throws: RecognitionModelError.self) {
            try RecognitionModel(contentsOf: URL(fileURLWithPath: "/nonexistent/quire-rec.bin"))
        }
    }

    @Test func truncatedFiles() throws {
        try #require(bytes.count > 100)
        for cut in [0, 3, 11, 40, bytes.count / 2, bytes.count - 1] {
            let e = load(bytes.prefix(cut))
            #expect(e != nil, "prefix \(cut) must fail")
            if cut >= 12, case .truncated = e {} else if cut >= 12 { Issue.record("prefix \(cut): \(String(describing: e))") }
        }
    }

    @Test func badMagicAndVersion() throws {
        try #require(bytes.count > 12)
        var d = bytes
        d[0] = UInt8(ascii: "X")
        #expect(load(d) == .badMagic)
        var v = bytes
        v[4] = 99
        #expect(load(v) == .unsupportedVersion(99))
    }

    @Test func corruptHeader() throws {
        try #require(bytes.count > 4096)
        var d = bytes
        // Overwrite the start of the JSON header with garbage.
        for i in 12 ..< 20 { d[i] = UInt8(ascii: "#") }
        if case .corruptHeader = load(d) {} else { Issue.record("expected corruptHeader, got \(String(describing: load(d)))") }
        // Random bytes everywhere after the magic and version: must throw, never crash.
        var rng = SystemRandomNumberGenerator()
        for _ in 0 ..< 20 {
            var r = bytes.prefix(4096)
            for i in 8 ..< r.count where Int.random(in: 0 ..< 50, using: &rng) == 0 { r[i] = UInt8.random(in: 0 ... 255, using: &rng) }
            #expect(load(r) != nil)
        }
    }
}

@Suite struct LineTests {
    @Test func groupsTwoLinesOfRealInk() throws {
        let cases = try #require(Fixtures.parity["preprocess_cases"] as? [[String: Any]])
        let word = Fixtures.strokes(cases.first { ($0["id"] as? String)?.hasPrefix("synthetic") == false && Fixtures.strokes($0["strokes"]).count >= 1 }?["strokes"])
        try #require(!word.isEmpty)
        let ys = word.flatMap { $0.map(\.y) }
        let height = (ys.max() ?? 0) - (ys.min() ?? 0)
        let shift = max(height, 2) * 2.5
        let second = word.map { $0.map { $0 + SIMD2(0, shift) } }
        let both = word + second
        let groups = TextRecognizer.groupLines(strokes: both)
        #expect(groups == [Array(0 ..< word.count), Array(word.count ..< both.count)])
        let guided = TextRecognizer.groupLines(strokes: both, lineSpacing: shift, originY: (ys.min() ?? 0) - 0.1 * shift)
        #expect(guided == groups)
        let rec = TextRecognizer(model: Fixtures.model)
        let lines = rec.recognizeLines(strokes: both, options: RecognitionOptions(lexiconMode: .off))
        for (i, line) in lines.enumerated() {
            for w in line.words { #expect(w.strokeIndices.allSatisfy { groups[min(i, groups.count - 1)].contains($0) }) }
        }
        #expect(TextRecognizer.groupLines(strokes: [[SIMD2(.nan, .nan)]]).isEmpty)
    }

    /// Ink made mostly of marks has a median stroke height of a mark, against which every mark looked
    /// like a line: a colon, an equals sign, an i with its dot high above and a cursive word with its
    /// dots were split into lines (30 of the 4,521 validation characters, 8 of the 7,258 words).
    @Test func marksStayWithTheirCharacterOrWord() throws {
        func bar(_ x: Double, _ y: Double, width: Double, height: Double = 0) -> [SIMD2<Double>] {
            (0 ... 10).map { SIMD2(x + width * Double($0) / 10, y + height * Double($0) / 10) }
        }
        func dot(_ x: Double, _ y: Double, _ size: Double = 0.5) -> [SIMD2<Double>] { bar(x, y, width: size, height: size) }
        let colon = [dot(0.5, 0, 0.6), dot(0.2, 2.5, 0.8)]  // mm, as written by a validation writer
        let equals = [bar(0.1, 0, width: 5.4, height: 0.8), bar(0, 2.2, width: 7.4, height: 0.8)]
        let i = [bar(0, 2.8, width: 0.6, height: 1.8), dot(0.5, 0, 1.4)]
        // A cursive word in one stroke, 7 mm tall, with two dots above it.
        let word = [(0 ... 60).map { SIMD2(Double($0) * 0.5, 2.7 + 3.5 + 3.5 * sin(Double($0) * 0.7)) },
                    dot(25.7, 2.3, 0.9), dot(10.7, 0, 0.6)]
        for (name, ink) in [("colon", colon), ("equals", equals), ("i", i), ("word", word)] {
            #expect(TextRecognizer.groupLines(strokes: ink) == [Array(ink.indices)], "\(name)")
        }
        // Two lines of that word, and a dot beside the second, are still two lines.
        let second = word.map { $0.map { $0 + SIMD2(0, 14) } }
        #expect(TextRecognizer.groupLines(strokes: word + second + [dot(31, 20)]) == [[0, 1, 2], [3, 4, 5, 6]])
        // A comma written alone well under the line (code ending ";" on a line of its own) stays a line;
        // a colon written large is marks only, so it is one line however far apart its dots are.
        let comma = [bar(1, 30, width: 0.3, height: 1), bar(1.2, 31, width: -0.4, height: 1)]
        #expect(TextRecognizer.groupLines(strokes: word + [comma[0], comma[1]]) == [[0, 1, 2], [3, 4]])
        #expect(TextRecognizer.groupLines(strokes: [dot(0, 0, 1.6), dot(0, 14, 1.6)]) == [[0, 1]])
    }

    /// With guides, InkRecognition filed a stroke by its box centre while the editor (its own copy
    /// in the adapter) filed it by its median point and joined bands of oversized ink and lone
    /// marks: one rule now, the editor's, for both.
    @Test func guidedLinesKeepDescendersOversizedInkAndMarksWithTheirLine() {
        func stroke(_ x: Double, _ ys: [Double]) -> [SIMD2<Double>] { ys.enumerated().map { SIMD2(x + Double($0.offset) * 0.3, $0.element) } }
        // Guides 10 mm apart from y = 0: a word on the first line, then a g whose tail reaches 21 mm
        // (box centre 12, in the second band; most of its points in the first).
        let word = [stroke(0, [3, 5, 8, 9, 6, 4]), stroke(4, [4, 6, 9, 7, 5])]
        let g = stroke(8, [4, 5, 6, 7, 8, 9, 9, 21])
        #expect(TextRecognizer.groupLines(strokes: word + [g], lineSpacing: 10) == [[0, 1, 2]])
        // A word written 16 mm tall across a guide: its strokes' medians fall in two bands whose ink overlaps.
        let big = [stroke(0, [2, 6, 9, 12, 16, 18]), stroke(4, [8, 11, 13, 15, 17]), stroke(8, [3, 5, 7, 9, 11, 13])]
        #expect(TextRecognizer.groupLines(strokes: big, lineSpacing: 10) == [[0, 1, 2]])
        // A dot just under the guide, 1 mm below the word's ink, belongs to the word's line.
        let dot = stroke(2, [10.5, 10.6])
        #expect(TextRecognizer.groupLines(strokes: word + [dot], lineSpacing: 10) == [[0, 1, 2]])
        // Two lines of ordinary writing stay two lines, and the origin shifts the bands.
        let below = word.map { $0.map { $0 + SIMD2(0, 10) } }
        #expect(TextRecognizer.groupLines(strokes: word + below, lineSpacing: 10) == [[0, 1], [2, 3]])
        #expect(TextRecognizer.groupLines(strokes: word + below, lineSpacing: 10, originY: 5) == [[0, 1], [2, 3]])
        #expect(TextRecognizer.groupLines(strokes: [[SIMD2(.nan, 1)], word[0]], lineSpacing: 10) == [[1]])
    }
}

@Suite struct HostileHeaderTests {
    /// Builds a file around a JSON header (no tensor data unless given).
    func file(header: String, data: [UInt8] = []) -> Data {
        var d = Data("QREC".utf8)
        let h = Array(header.utf8)
        for v in [UInt32(1), UInt32(h.count)] { withUnsafeBytes(of: v.littleEndian) { d.append(contentsOf: $0) } }
        d.append(contentsOf: h)
        while d.count % 16 != 0 { d.append(0) }
        d.append(contentsOf: data)
        return d
    }

    @Test func absurdSizesThrowInsteadOfTrapping() {
        let pre = #""preprocess":{"min_height_mm":4,"spacing":0.1,"clip":4,"num_features":4,"max_points":6000}"#
        let headers = [
            #"{"data_bytes":0,"charset":"ab","config":{"conv_channels":64,"conv_kernel":5,"hidden":4611686018427387904,"layers":3},\#(pre),"tensors":[]}"#,
            #"{"data_bytes":8,"charset":"ab","config":{"conv_channels":2,"conv_kernel":5,"hidden":2,"layers":1},\#(pre),"tensors":[{"name":"conv.bias","shape":[4611686018427387904,4],"dtype":"f16","offset":0,"count":0}]}"#,
            #"{"data_bytes":8,"charset":"ab","config":{"conv_channels":2,"conv_kernel":5,"hidden":2,"layers":1},\#(pre),"tensors":[{"name":"conv.bias","shape":[2],"dtype":"f16","offset":9223372036854775000,"count":2}]}"#,
            #"{"data_bytes":8,"charset":"ab","config":{"conv_channels":2,"conv_kernel":5,"hidden":2,"layers":1},\#(pre),"tensors":[{"name":"conv.bias","shape":[2],"dtype":"f16","offset":0,"count":2}]}"#,
            #"{"data_bytes":8,"charset":"ab","config":{"conv_channels":2,"conv_kernel":5,"hidden":2,"layers":1},\#(pre),"tensors":[{"name":"conv.bias","shape":[536870912,536870912,536870912,536870912],"dtype":"f16","offset":0,"count":2}]}"#,
            #"[1,2,3]"#,
        ]
        for h in headers {
            #expect(throws: RecognitionModelError.self) { try RecognitionModel(data: file(header: h, data: [UInt8](repeating: 0, count: 8))) }
        }
    }
}

@Suite struct LineParityTests {
    @Test func groupLinesMatchesPython() throws {
        let url = Fixtures.root.appendingPathComponent("Resources/recognition/lines.json")
        let obj = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let cases = try #require(obj["cases"] as? [[String: Any]])
        #expect(cases.count == 2)
        for c in cases {
            let strokes = Fixtures.strokes(c["strokes"])
            let expected = try #require(c["groups"] as? [[Int]])
            #expect(TextRecognizer.groupLines(strokes: strokes) == expected, "\(c["label"] ?? "")")
            // recognizeLines: one result per non-empty line; word strokes stay inside their line.
            let results = TextRecognizer(model: Fixtures.model).recognizeLines(strokes: strokes,
                                                                               options: RecognitionOptions(lexiconMode: .off))
            #expect(results.count <= expected.count && !results.isEmpty)
            for r in results {
                let used = Set(r.words.flatMap(\.strokeIndices))
                #expect(expected.contains { Set($0).isSuperset(of: used) })
            }
        }
    }
}
