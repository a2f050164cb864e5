import Foundation
import Testing
@testable import InkModel

/// Each configuration key is declared once with its default; the defaults are the ones every read
/// used before (written out here) and the bundled configuration's values.
@Suite struct ConfigKeysTests {
    // The defaults the reads wrote out before the keys were declared once.
    static let bools: [(ConfigKey<Bool>, String, Bool)] = [
        (.textGuidesEnable, "text.guides.enable", true), (.gestureEnable, "gesture.enable", true),
        (.convertOnDoubleTap, "convert.convert-on-double-tap", true), (.exportImageGuides, "export.image.guides", false),
        (.rendererInkPressure, "renderer.ink.pressure", true), (.rendererDebugBoxes, "renderer.debug.boxes", false),
        (.rendererPredictionEnable, "renderer.prediction.enable", false),
        (.inputPalmRejectionEnable, "input.palm-rejection.enable", true),
        (.mathSolverEnable, "math.solver.enable", true),
        (.mathSolverDisplayImplicitMultiply, "math.solver.display-implicit-multiply", true),
    ] + PartType.allCases.map { (.erasePrecisely($0), $0.configPrefix + ".eraser.erase-precisely", false) }
    static let numbers: [(ConfigKey<Double>, String, Double)] = [
        (.textGuidesSpacing, "text.guides.spacing", 10), (.textDocumentBlockSpacing, "text-document.block-spacing", 4),
        (.exportImageDPI, "export.image.dpi", 150), (.imageMaxPixels, "image.max-pixels", 40_000_000),
        (.appAutosaveIdleSeconds, "app.autosave.idle-seconds", 3),
    ]
    static let ints: [(ConfigKey<Int>, String, Int)] = [
        (.imageMaxFileSize, "image.max-file-size", 32 << 20), (.inputPalmRejectionTimeoutMs, "input.palm-rejection.timeout-ms", 600),
        (.packageMaxEntries, "content-package.max-entries", 10_000),
        (.packageMaxUncompressedSize, "content-package.max-uncompressed-size", 512 << 20),
        (.packageMaxEntrySize, "content-package.max-entry-size", 256 << 20),
        (.mathSolverFractionalPartDigits, "math.solver.fractional-part-digits", 3),
    ]
    static let strings: [(ConfigKey<String>, String, String)] = [
        (.packageTempFolder, "content-package.temp-folder", ""), (.textConfigurationName, "text.configuration.name", "text"),
        (.textConfigurationBundle, "text.configuration.bundle", "en_US"), (.appKioskExitChord, "app.kiosk.exit-chord", "ctrl+alt+shift+q"),
        (.inputMouseTool, "input.mouse-tool", "pen"), (.inputTouchTool, "input.touch-tool", "hand"),
        (.appRecord, "app.record", ""), (.mathSolverAngleUnit, "math.solver.angle-unit", "deg"),
    ]

    @Test func defaultsAreTheOldOnesAndTheBundledOnes() throws {
        let bundled = try Engine().configuration
        func check<V: Equatable>(_ rows: [(ConfigKey<V>, String, V)], _ raw: (String) throws -> V) throws {
            for (key, name, old) in rows {
                #expect(key.name == name)
                #expect(key.defaultValue == old, "\(name)")
                #expect(try raw(name) == old, "\(name): the bundled configuration says otherwise")
                #expect(Configuration()[key] == old, "\(name) unset reads the default")
            }
        }
        try check(Self.bools) { try bundled.getBoolean($0) }
        try check(Self.numbers) { try bundled.getNumber($0) }
        try check(Self.ints) { Int(try bundled.getNumber($0)) }
        try check(Self.strings) { try bundled.getString($0) }
        #expect(ConfigKey<[String]>.inputDevices.name == "input.devices" && ConfigKey<[String]>.inputDevices.defaultValue == [])
        #expect(try bundled.getStringArray("input.devices") == [])
        #expect(try bundled.getStringArray("math.solver.numerical-computation") == ConfigKey<[String]>.mathSolverNumericalComputation.defaultValue)
        // A part type's gesture list defaults to none when a configuration removes it (as before);
        // the bundled lists are what parts normally get.
        for t in PartType.allCases {
            let key = ConfigKey<[String]>.penGestures(t)
            #expect(key.name == t.configPrefix + ".pen.gestures" && key.defaultValue == [])
            #expect(bundled[key] == (try bundled.getStringArray(key.name)))
        }
        #expect(bundled[.penGestures(.math)] == ["scratch-out"])
    }

    @Test func aValueOfAnotherTypeReadsTheDefaultThroughTheSubscriptAndThrowsThroughRead() throws {
        let c = Configuration()
        try c.setString("ten", forKey: "text.guides.spacing")
        try c.setNumber(1, forKey: "gesture.enable")
        try c.setBoolean(true, forKey: "content-package.temp-folder")
        #expect(c[.textGuidesSpacing] == 10 && c[.gestureEnable] && c[.packageTempFolder] == "")
        #expect(throws: QuireError.self) { try ConfigKey<String>.packageTempFolder.read(c) }
        try c.setNumber(12.5, forKey: "text.guides.spacing")
        try c.setNumber(-3, forKey: "image.max-file-size")
        try c.setNumber(1e300, forKey: "input.palm-rejection.timeout-ms")
        #expect(c[.textGuidesSpacing] == 12.5)
        #expect(c[.imageMaxFileSize] == 0 && c[.inputPalmRejectionTimeoutMs] == Int.max, "integers are clamped as getInteger does")
        let child = Configuration(parent: c)
        #expect(child[.textGuidesSpacing] == 12.5, "a child reads through to its parent")
    }
}
