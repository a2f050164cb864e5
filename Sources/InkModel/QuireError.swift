import Foundation

/// The one error type of Quire: a stable machine-readable `code` and a message for people.
public struct QuireError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Stable error codes; applications may switch over them.
    public enum Code: String, Sendable, CaseIterable {
        case keyNotFound, typeMismatch, invalidJSON, invalidArgument
        case fileNotFound, fileExists, notAFile, notAPackage, corruptPackage, unsupportedVersion
        case unsafeArchive, archiveTooLarge, packageLocked, ioError, readOnly
        case invalidPartType, partNotFound, indexOutOfRange, partNotAttached
        case invalidPointerSequence, invalidBlock, invalidBlockType, unsupportedOperation
        case imageError, recognitionError, resourceMissing, exportError, importError, busy
    }
    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }
}

extension QuireError: LocalizedError {
    public var errorDescription: String? { description }
}
