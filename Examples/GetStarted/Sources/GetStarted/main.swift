// Quire's "get started" flow: an engine, a package holding a part, an editor on that part; a pen
// writes two words, the recognizer reads them, and the text comes out.
import Foundation
import Quire

let engine = try Engine()  // the default configuration, from Quire's resources
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quire-get-started-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }

let package = try engine.createPackage(folder.appendingPathComponent("notes.iink").path)
let part = try package.createPart(type: "Text Document")
let editor = engine.createEditor(fontMetricsProvider: CairoFontMetrics())
try editor.setViewSize(width: 800, height: 600)
try editor.setPart(part)

// Ink written on the page goes into a Text block, which is read in the background.
var x = 15.0
for word in try HandwrittenWord.samples() {
    try editor.pointerEvents(word.events(editor: editor, x: x, y: 22, height: 6))
    x += word.width(height: 6) + 4
}
try editor.waitForIdle()
print(try editor.export(nil, mimeType: .text))
try package.save()
