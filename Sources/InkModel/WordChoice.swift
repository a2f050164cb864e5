/// What a recognized word is on the page, decided once for the editor and the renderer alike.
extension RecognizedWord {
    /// A word typeset on the page (converted in place, digitalEdit, or typed): it has a box and
    /// no ink.
    public var isTypesetInPlace: Bool { strokeIds.isEmpty && !box.isEmpty }

    /// The label of the chosen candidate (`selected`), else `label` when there is no such
    /// candidate. What the word reads as: the editor lays it out, joins and splits it by it, and
    /// the renderer draws and labels it by it.
    public var chosenLabel: String { candidates.indices.contains(selected) ? candidates[selected].label : label }
}
