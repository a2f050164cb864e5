import Foundation
import Testing
@testable import InkModel

/// Part and package metadata under the SDK's own usage patterns (its storage page keeps a
/// calculator's history this way: get the set, change it, assign it back).
@Suite struct MetadataTests {
    /// The SDK's exact sequence, for a part and for the package, then save/reopen and clone.
    @Test func getModifySetKeepsEveryKeyThroughSaveReopenAndClone() throws {
        let dir = TempDir(), engine = try Engine()
        let pkg = try engine.createPackage(dir.path("calc.iink"))
        let part = try pkg.createPart(type: "Math")
        try part.metadata.setString("deg", forKey: "math.solver.angle-unit")

        let history = ["1+1=2", "\\frac{1}{3}+\\frac{1}{6}=\\frac{1}{2}"]
        let md = part.metadata
        try md.setStringArray(history, forKey: "history")
        part.metadata = md
        #expect(try part.metadata.getStringArray("history") == history)
        #expect(try part.metadata.getString("math.solver.angle-unit") == "deg", "keys set earlier survive")

        let pmd = pkg.metadata
        try pmd.setString("Calculator", forKey: "title")
        pkg.metadata = pmd
        #expect(try pkg.metadata.getString("title") == "Calculator")

        // A second round of the same pattern keeps the first round's keys.
        let md2 = part.metadata
        try md2.setNumber(2, forKey: "math.solver.fractional-part-digits")
        part.metadata = md2
        #expect(try part.metadata.getStringArray("history") == history)

        let sameCopy = try pkg.clonePart(part)
        #expect(try sameCopy.metadata.getStringArray("history") == history)
        let other = try engine.createPackage(dir.path("other.iink"))
        let otherCopy = try other.clonePart(part)
        #expect(try otherCopy.metadata.getStringArray("history") == history)
        try pkg.save(); pkg.close()
        try other.save(); other.close()

        let reopened = try engine.openPackage(dir.path("calc.iink"))
        #expect(reopened.partCount == 2)
        for i in 0..<2 {
            let m = try reopened.part(at: i).metadata
            #expect(try m.getStringArray("history") == history)
            #expect(try m.getString("math.solver.angle-unit") == "deg")
            #expect(try m.getNumber("math.solver.fractional-part-digits") == 2)
        }
        #expect(try reopened.metadata.getString("title") == "Calculator")
        let reopenedOther = try engine.openPackage(dir.path("other.iink"))
        #expect(try reopenedOther.part(at: 0).metadata.getStringArray("history") == history)
        reopened.close(); reopenedOther.close()
    }

    /// A fresh set replaces (keys it lacks are gone); a set from another part or package is copied
    /// in (later changes to the source do not leak), and the source keeps its own keys.
    @Test func assigningFreshOrForeignSetsKeepsExactlyWhatWasSet() throws {
        let dir = TempDir(), engine = try Engine()
        let a = try engine.createPackage(dir.path("a.iink"))
        let b = try engine.createPackage(dir.path("b.iink"))
        let pa = try a.createPart(type: "Text"), pb = try b.createPart(type: "Drawing")
        try pa.metadata.setString("old", forKey: "stale")
        try pb.metadata.setBoolean(true, forKey: "from.b")

        let fresh = ParameterSet()
        try fresh.setString("new", forKey: "fresh")
        pa.metadata = fresh
        #expect(pa.metadata.hasKey("stale") == false)
        #expect(try pa.metadata.getString("fresh") == "new")

        pa.metadata = pb.metadata
        #expect(try pa.metadata.getBoolean("from.b"))
        #expect(pa.metadata.hasKey("fresh") == false)
        try pb.metadata.setBoolean(false, forKey: "from.b")
        #expect(try pa.metadata.getBoolean("from.b"), "the assigned set is a copy")
        #expect(try pb.metadata.getBoolean("from.b") == false)

        a.metadata = b.metadata
        try b.metadata.setString("b", forKey: "owner")
        a.metadata = b.metadata
        #expect(try a.metadata.getString("owner") == "b")
        a.metadata = pa.metadata
        #expect(a.metadata.hasKey("owner") == false)
        #expect(try a.metadata.getBoolean("from.b"))
        try a.save(); a.close(); b.close()

        let r = try engine.openPackage(dir.path("a.iink"))
        #expect(try r.part(at: 0).metadata.getBoolean("from.b"))
        #expect(try r.metadata.getBoolean("from.b"))
        #expect(r.metadata.hasKey("owner") == false)
        r.close()
    }

    /// A configuration assigned as metadata brings the values it shows, inherited ones included.
    @Test func assigningAConfigurationCopiesWhatItShows() throws {
        let dir = TempDir(), engine = try Engine()
        let pkg = try engine.createPackage(dir.path("c.iink"))
        let part = try pkg.createPart(type: "Text")
        let parent = Configuration()
        try parent.setNumber(7, forKey: "inherited")
        let child = Configuration(parent: parent)
        try child.setString("own", forKey: "own")
        part.metadata = child
        #expect(try part.metadata.getNumber("inherited") == 7)
        #expect(try part.metadata.getString("own") == "own")
        pkg.close()
    }
}
