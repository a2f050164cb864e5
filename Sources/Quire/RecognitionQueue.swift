import Foundation
import InkModel

/// Runs recognition jobs on one background queue and keeps their results until the editor's
/// thread applies them (the model is never touched off that thread).
final class RecognitionQueue: @unchecked Sendable {
    struct Result {
        var blockId: String; var version: String
        /// Where the block's ink was when it was read (`Editor.inkVersion`): a block that moved
        /// since gets its words where its ink is now.
        var origin: Point
        var words: [RecognizedWord]?; var error: String?; var code: QuireError.Code?
        /// Block properties a `BlockPropertiesRecognizer` set beside the words.
        var properties: [String: String] = [:]
    }
    private let queue = DispatchQueue(label: "quire.recognition", qos: .userInitiated)
    private let group = DispatchGroup()
    private let lock = NSLock()
    private var results: [Result] = []
    private var inFlight = 0
    private var generation = 0
    /// Latest submission per block: an older one still waiting is skipped, its result would be stale.
    private var latest: [String: Int] = [:]
    private var submissions = 0
    private var onResultStorage: (@Sendable () -> Void)?
    /// Called on the worker when a result is ready (the window uses it to wake its loop). Under the
    /// lock: the window sets it while jobs that `setPart` scheduled already run on the worker.
    var onResult: (@Sendable () -> Void)? {
        get { lock.withLock { onResultStorage } }
        set { lock.withLock { onResultStorage = newValue } }
    }

    /// Readings asked for since this queue was made (tests count them).
    var submitted: Int { lock.withLock { submissions } }

    func submit(_ req: RecognitionRequest, version: String, origin: Point, recognizer: InkRecognizer) {
        let (gen, n) = lock.withLock {
            inFlight += 1
            submissions += 1
            latest[req.blockId] = submissions
            return (generation, submissions)
        }
        group.enter()
        queue.async { [self] in
            defer { group.leave() }
            let superseded = lock.withLock { latest[req.blockId] != n }
            var r = Result(blockId: req.blockId, version: version, origin: origin, words: nil, error: nil, code: nil)
            if !superseded {
                do {
                    if let pr = recognizer as? BlockPropertiesRecognizer {
                        (r.words, r.properties) = try pr.recognizeWithProperties(req)
                    } else {
                        r.words = try recognizer.recognize(req)
                    }
                } catch let e as QuireError { r.error = e.message; r.code = e.code } catch { r.error = "\(error)" }
            }
            let cb: (@Sendable () -> Void)? = lock.withLock {
                inFlight -= 1
                if gen == generation && !superseded { results.append(r) }
                if latest[req.blockId] == n { latest[req.blockId] = nil }
                return onResultStorage
            }
            if !superseded { cb?() }
        }
    }

    /// True while a reading of the block is waiting, running, or done but not yet applied.
    func isPending(_ blockId: String) -> Bool {
        lock.withLock { latest[blockId] != nil || results.contains { $0.blockId == blockId } }
    }

    func drain() -> [Result] { lock.withLock { defer { results.removeAll() }; return results } }
    var isIdle: Bool { lock.withLock { inFlight == 0 && results.isEmpty } }
    func waitIdle() { group.wait() }
    func cancelAll() { lock.withLock { generation += 1; results.removeAll(); latest.removeAll() } }
}
