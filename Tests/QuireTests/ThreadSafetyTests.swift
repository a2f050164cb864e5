import Foundation
import Testing
@testable import Quire

/// Counts calls from any thread.
final class CallCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    func increment() { lock.withLock { n += 1 } }
    var count: Int { lock.withLock { n } }
}

/// What several threads do at once in Quire. Races here corrupt memory only now and then, so these
/// tests are meant to run under ThreadSanitizer too (`scripts/test-sanitizers`), which reports an
/// unordered access even when the timing of one run happens to be harmless.
@Suite struct ThreadSafetyTests {
    /// The window's order: `setPart` schedules the part's unread ink on the worker, then the window
    /// sets its wake-up callback while those jobs run and read it. (ThreadSanitizer reported a race
    /// on the callback here before it was kept under the queue's lock.)
    @Test func recognitionCallbackSetWhileTheWorkerRuns() throws {
        let f = try Fixture()
        for i in 0 ..< 4 { try f.write(x: 100, y: 100 + Double(i) * 120) }
        f.editor.recognizer = CountingRecognizer(delay: 0)
        try f.editor.setPart(f.part)
        #expect(!f.editor.isIdle)
        let woken = CallCounter()
        f.editor.onRecognitionResult = { woken.increment() }
        try f.editor.waitForIdle()
        try f.write(x: 400, y: 100)
        try f.editor.waitForIdle()
        #expect(woken.count >= 1)
        let blocks = try #require(f.editor.rootBlock?.children)
        #expect(blocks.flatMap(\.words).count == 5)
    }
}
