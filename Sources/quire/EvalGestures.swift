import ArgumentParser
import Foundation
import Quire
import QuireTools

/// `quire eval-gestures`: precision and recall of the edit-gesture classifier on synthetic
/// gestures, and how often real handwriting from the shared data is mistaken for a gesture.
struct EvalGesturesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval-gestures",
        abstract: "Print per-gesture precision and recall, and the share of handwritten words taken for gestures.")
    @Option(help: "The shared handwriting-data folder (unipen-words / unipen-chars .train.jsonl.gz).") var data = "../shared/data"
    @Option(help: "At most this many handwritten words and as many characters.") var limit = 3000
    @Option(help: "Take every Nth sample of the chosen writers (spreads --limit over all contributors).") var every = 1
    @Option(help: "Synthetic gestures per kind.") var perKind = 1000
    @Option(help: "Seed of the synthetic data and placements.") var seed: UInt64 = 1
    @Option(help: "Handwriting of these writers of the fixed split: validation (default), training or all.") var writers = "validation"
    @Flag(help: "List every mistake.") var verbose = false

    func run() throws {
        try runReporting {
            guard let split = GestureData.Writers(rawValue: writers) else {
                throw QuireError(.invalidArgument, "--writers must be validation, training or all")
            }
            let classifier = GestureClassifier()
            var rng = SplitMix(seed: seed &+ 0x5EED)
            var examples = GestureData.synthetic(perKind: perKind, seed: seed)
            let wordsPath = data + "/unipen-words.train.jsonl.gz", charsPath = data + "/unipen-chars.train.jsonl.gz"
            let words = try GestureData.readHandwriting(path: wordsPath, limit: limit, writers: split, every: every)
            // Characters shaped like gestures first: l, o, dashes, bars, loops, zig-zags.
            let lookalikes: Set<String> = ["l", "o", "O", "0", "-", "_", "|", "I", "1", "/", "=", "~", "z", "Z", "e", "s", "m", "w", "n", "u", "x", "c", "t", "i"]
            let chars = try GestureData.readHandwriting(path: charsPath, limit: limit, writers: split, every: every, accept: { lookalikes.contains($0) })
            var wordTotal = [GestureData.Placement: Int](), wordMistaken = [GestureData.Placement: Int]()
            var charTotal = 0, charMistaken = 0
            var predicted = [GestureKind: Int](), correct = [GestureKind: Int](), expected = [GestureKind: Int]()
            var falseFromHandwriting = [GestureKind: Int]()
            var charMistakes = [String: Int]()
            func judge(_ e: GestureExample) -> GestureKind? {
                let k = classifier.classify(e.stroke, context: e.context)
                if let k { predicted[k, default: 0] += 1 }
                if let x = e.expected { expected[x, default: 0] += 1; if k == x { correct[x, default: 0] += 1 } }
                if verbose, k != e.expected { print("mistake: \(e.label) -> \(k?.rawValue ?? "ink")") }
                return k
            }
            for e in examples { _ = judge(e) }
            examples.removeAll()
            for (set, isChar) in [(words, false), (chars, true)] {
                for h in set {
                    for placement in GestureData.Placement.allCases {
                        var hit = false
                        for e in GestureData.place(h, placement, character: isChar, &rng) {
                            if let k = judge(e) { hit = true; falseFromHandwriting[k, default: 0] += 1 }
                        }
                        if isChar {
                            charTotal += 1; if hit { charMistaken += 1; charMistakes[h.label, default: 0] += 1 }
                        } else {
                            wordTotal[placement, default: 0] += 1; if hit { wordMistaken[placement, default: 0] += 1 }
                        }
                    }
                }
            }
            func pct(_ a: Int, _ b: Int) -> String { b == 0 ? "  n/a" : String(format: "%5.1f%%", 100 * Double(a) / Double(b)) }
            print("gesture         precision  recall   (synthetic: \(perKind) a kind, seed \(seed))")
            for k in GestureKind.allCases {
                let name = k.rawValue.padding(toLength: 15, withPad: " ", startingAt: 0)
                print("\(name)   \(pct(correct[k, default: 0], predicted[k, default: 0]))   \(pct(correct[k, default: 0], expected[k, default: 0]))"
                      + "   (from handwriting: \(falseFromHandwriting[k, default: 0]))")
            }
                        for p in GestureData.Placement.allCases {
                print("words mistaken for a gesture, \(p.rawValue): \(pct(wordMistaken[p, default: 0], wordTotal[p, default: 0])) of \(wordTotal[p, default: 0]) (\(split.rawValue) writers)")
            }
            let wm = wordMistaken.values.reduce(0, +), wt = wordTotal.values.reduce(0, +)
            print("words mistaken for a gesture, all: \(pct(wm, wt)) of \(wt)")
            print("gesture-like characters mistaken: \(pct(charMistaken, charTotal)) of \(charTotal)"
                  + (charMistakes.isEmpty ? "" : " (" + charMistakes.sorted { $0.value > $1.value }.prefix(8).map { "\($0.key): \($0.value)" }.joined(separator: ", ") + ")"))
        }
    }
}
