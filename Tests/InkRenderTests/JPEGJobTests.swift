import Foundation
import Testing
@testable import InkRender

/// A libjpeg error ends the job's thread with `pthread_exit`, which skips the releases of whatever
/// the thread's Swift frames hold. A strong reference held there kept every failed job alive, with
/// its copy of the whole file (LeakSanitizer found it under `scripts/test-sanitizers`).
@Suite struct JPEGJobTests {
    /// Runs a job and returns it weakly, once nothing but the library can still hold it.
    private func finished(_ make: () -> JPEGJob, _ run: (JPEGJob) -> Void, _ check: (JPEGJob) -> Void) -> Weak {
        let job = make()
        run(job)
        check(job)
        job.releaseBuffers()
        return Weak(job)
    }

    final class Weak {
        weak var job: JPEGJob?
        init(_ job: JPEGJob) { self.job = job }
    }

    @Test func failedDecodeFreesItsJob() {
        // Start and end of image with nothing between: jpeg_read_header fails ("no image").
        let w = finished({ JPEGJob(input: [0xFF, 0xD8, 0xFF, 0xD9], maxPixels: 1000) }, { $0.decode() }) {
            #expect(!$0.ok && !$0.message.isEmpty)
        }
        #expect(w.job == nil)
    }

    @Test func failedEncodeFreesItsJob() {
        // No rows: jpeg_start_compress fails ("empty image").
        let w = finished({ JPEGJob(input: [UInt8](), maxPixels: .max) }, { $0.encode() }) {
            #expect(!$0.ok && !$0.message.isEmpty)
        }
        #expect(w.job == nil)
    }

    @Test func goodJobsStillWorkAndAreFreed() {
        let rows = [UInt8](repeating: 0x80, count: 8 * 4 * 4)
        var encoded = Data()
        let e = finished({
            let j = JPEGJob(input: rows, maxPixels: .max)
            j.width = 8; j.height = 4
            return j
        }, { $0.encode() }) {
            #expect($0.ok && $0.outputSize > 0)
            if let out = $0.output { encoded = Data(bytes: out, count: $0.outputSize) }
        }
        #expect(e.job == nil && !encoded.isEmpty)
        let d = finished({ JPEGJob(input: encoded, maxPixels: 1000) }, { $0.decode() }) {
            #expect($0.ok && $0.width == 8 && $0.height == 4 && $0.pixels != nil)
        }
        #expect(d.job == nil)
    }
}
