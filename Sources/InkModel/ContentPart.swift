import Foundation

/// One part of a package: a typed piece of content (Text, Drawing, Text Document, ...).
public final class ContentPart {
    public let model: PartModel
    public internal(set) weak var package: ContentPackage?
    /// The id of the package `removePart` took this part out of (only that one may restore it).
    var removedFrom: String?

    init(model: PartModel, package: ContentPackage) {
        self.model = model
        self.package = package
    }

    public var id: String { model.id }
    public var type: String { model.type }
    /// The part's kind (`type` as a Swift type).
    public var kind: PartType { model.kind }

    /// Part metadata, persisted with the package. The getter returns the live set; assigning
    /// copies the new set's values in (the SDK's `let md = part.metadata; …; part.metadata = md`
    /// included: clearing first would read back an empty set and lose every key).
    public var metadata: ParameterSet {
        get { model.metadata }
        set {
            model.metadata.replaceContents(with: newValue)
            model.touch()
        }
    }
}
