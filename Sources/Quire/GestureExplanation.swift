import Foundation
import InkModel

/// Why a finished pen stroke was or was not taken for a gesture (`Editor.gestureObserver`, the
/// inspector): the classifier's checks in the order it made them, each with what it measured.
public struct GestureExplanation: Sendable {
    /// One rule of `GestureClassifier`: its name, whether the stroke met it, what was measured
    /// against which threshold.
    public struct Check: Sendable, Equatable {
        public var rule: String
        public var passed: Bool
        public var detail: String
    }

    /// The stroke, millimetres.
    public var samples: [InkSample]
    /// What the classifier saw (nil: writing).
    public var kind: GestureKind?
    /// True when the gesture's effect was applied.
    public var applied: Bool
    /// What became of the stroke, in words ("strikeThrough, applied", "ink").
    public var outcome: String
    public var checks: [Check]
}

extension GestureClassifier {
    /// What `classify` decides for `stroke` in `context`, with every check it made.
    public func explain(_ stroke: [InkSample], context: GestureContext) -> (kind: GestureKind?, checks: [GestureExplanation.Check]) {
        var checks: [GestureExplanation.Check] = []
        let kind = classify(stroke, context: context) { checks.append(.init(rule: $0, passed: $1, detail: $2)) }
        return (kind, checks)
    }
}
