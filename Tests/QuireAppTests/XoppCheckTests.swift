import Foundation
import Testing

/// Xournal++ itself must accept every `.xopp` Quire writes: `scripts/check-xopp` imports each
/// InkML and Xournal++ fixture (the real files too), exports it with `quire export --format xopp`
/// and has Debian's `xournalpp --create-pdf` render it, one PDF page per part.
struct XoppCheckTests {
    @Test func xournalppRendersEveryXoppQuireWrites() throws {
        // scripts/install-deps installs xournalpp; without it this test fails rather than pass unchecked.
        let found = try runTool("/bin/sh", ["-c", "command -v xournalpp"])
        try #require(found.exit == .exited(0), "xournalpp is not installed: run scripts/install-deps (apt-get install xournalpp)")
        let script = repositoryRoot.appendingPathComponent("scripts/check-xopp").path
        let r = try runTool(script, [], environment: ["QUIRE": try builtQuireBinary().path], timeout: 600)
        #expect(r.exit == .exited(0), "scripts/check-xopp:\n\(r.output)")
        let ok = r.output.split(separator: "\n").filter { $0.hasPrefix("ok ") }
        #expect(ok.count >= 15, "every fixture rendered:\n\(r.output)")
    }
}
