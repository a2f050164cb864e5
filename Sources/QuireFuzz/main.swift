import Foundation
import Quire
import QuireTools
#if canImport(Glibc)
import Glibc
#endif

/// quire-fuzz: Quire's in-process fuzz targets (see tools/fuzz/README.md).
///
///     quire-fuzz clipboard|config|session|import [--seed S] [--cases N] [--start I] [--only I]
///                [--work DIR] [--handwriting FILE.jsonl] [--files DIR] [--verbose]
///
/// Case i of seed S is the same on every run (`--only i` replays it). Before each case the
/// driver prints `case i` (flushed), after it `ok i`; an invariant that does not hold prints
/// `VIOLATION case i: ...` and exits 1; a crash or hang leaves `case i` as the last line, which
/// is how tools/fuzz/fuzz_inprocess.py finds the case to record.

/// Writes a line to standard output at once (unbuffered: a crash right after must not lose it).
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

let usage = "usage: quire-fuzz clipboard|config|session|import [--seed S] [--cases N] [--start I] [--only I] [--work DIR] [--handwriting FILE] [--files DIR] [--verbose]"

struct Options {
    var target = ""
    var seed: UInt64 = 1
    var cases = 100
    var start = 0
    var only: [Int] = []
    var work = NSTemporaryDirectory() + "quire-fuzz-\(getpid())"
    var handwriting: String?
    /// The import target's input files.
    var files: String?
    var verbose = false
}

func parseOptions() -> Options {
    var o = Options()
    var args = Array(CommandLine.arguments.dropFirst())
    guard let t = args.first, ["clipboard", "config", "session", "import"].contains(t) else { say(usage); exit(2) }
    o.target = t
    args.removeFirst()
    while let a = args.first {
        args.removeFirst()
        func value() -> String {
            guard let v = args.first else { say(usage); exit(2) }
            args.removeFirst()
            return v
        }
        switch a {
        case "--seed": o.seed = UInt64(value()) ?? 1
        case "--cases": o.cases = Int(value()) ?? 100
        case "--start": o.start = Int(value()) ?? 0
        case "--only": o.only.append(Int(value()) ?? 0)
        case "--work": o.work = value()
        case "--handwriting": o.handwriting = value()
        case "--files": o.files = value()
        case "--verbose": o.verbose = true
        default: say(usage); exit(2)
        }
    }
    return o
}

/// Swift seeds its hashing per process: dictionary and set order, and so which block or stroke
/// a loop meets first, would differ between a run and its replay. Start again with a fixed seed.
func ensureDeterministicHashing() {
    guard getenv("SWIFT_DETERMINISTIC_HASHING") == nil else { return }
    setenv("SWIFT_DETERMINISTIC_HASHING", "1", 1)
    let path = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
    var argv: [UnsafeMutablePointer<CChar>?] = CommandLine.arguments.map { strdup($0) }
    argv.append(nil)
    execv(path, argv)
    say("quire-fuzz: cannot restart with deterministic hashing")
    exit(2)
}

/// The repository's handwriting fixture, the default source of real ink.
func defaultHandwriting() -> String {
    let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    return repo.appendingPathComponent("Tests/QuireTests/Fixtures/handwriting.jsonl").path
}

/// What every target gets: options, real handwriting, a scratch folder.
final class FuzzContext {
    let options: Options
    let handwriting: Handwriting
    let work: String
    var log: (String) -> Void
    init(options: Options) throws {
        self.options = options
        handwriting = try Handwriting.load(options.handwriting ?? defaultHandwriting())
        work = options.work
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        let verbose = options.verbose
        log = { if verbose { say("  " + $0) } }
    }
}

protocol FuzzTarget {
    init(context: FuzzContext) throws
    /// Runs case `index` with its own generator; throws `Violation` when an invariant fails.
    func run(index: Int, rng: inout SplitMix) throws
}

ensureDeterministicHashing()
let options = parseOptions()
do {
    let context = try FuzzContext(options: options)
    let target: FuzzTarget
    switch options.target {
    case "clipboard": target = try ClipboardFuzz(context: context)
    case "config": target = try ConfigFuzz(context: context)
    case "import": target = try ImportFuzz(context: context)
    default: target = try SessionFuzz(context: context)
    }
    let todo = options.only.isEmpty ? Array(options.start..<(options.start + options.cases)) : options.only
    for i in todo {
        say("case \(i)")
        var rng = SplitMix.forCase(seed: options.seed, index: i)
        do {
            try target.run(index: i, rng: &rng)
        } catch let v as Violation {
            say("VIOLATION case \(i): \(v.description)")
            exit(1)
        } catch {
            say("VIOLATION case \(i): unexpected error \(error)")
            exit(1)
        }
        say("ok \(i)")
    }
    try? FileManager.default.removeItem(atPath: context.work)
} catch {
    say("quire-fuzz: \(error)")
    exit(2)
}
