import Foundation
import InkFormats
import Quire

/// `quire export FILE --format xopp -o OUT.xopp`: every part of the package, one page each.
enum ExportXopp {
    static func run(_ file: String, output: String?, recovery: RecoveryOptions) throws {
        guard let output else { throw QuireError(.invalidArgument, "xopp output is binary: give -o FILE") }
        let (_, pkg) = try recovery.open(file)
        defer { pkg.close() }
        let parts = try (0..<pkg.partCount).map { try pkg.part(at: $0).model }
        guard !parts.isEmpty else { throw QuireError(.exportError, "'\(file)' has no parts to export") }
        try FileIO.writeAtomically(try XournalFormat.write(parts), to: URL(fileURLWithPath: output).standardizedFileURL.path)
    }
}
