import InkModel
import Testing

/// Runs `body`, expecting a QuireError with `code`; returns the error for further checks.
@discardableResult
public func expectCode(_ code: QuireError.Code, sourceLocation: SourceLocation = #_sourceLocation,
                       _ body: () throws -> Void) -> QuireError? {
    let e = #expect(throws: QuireError.self, sourceLocation: sourceLocation) { try body() }
    #expect(e?.code == code, "got \(String(describing: e))", sourceLocation: sourceLocation)
    return e
}
