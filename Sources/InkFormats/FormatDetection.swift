import Foundation
import InkModel

/// What a file holds, judged by its content (its name only breaks ties).
public enum InkFileFormat: Equatable, Sendable {
    case inkml
    /// Xournal++ `.xopp` (gzip or zip) and Xournal `.xoj`.
    case xournal
    /// A Quire package: opened as it is, not imported.
    case quirePackage
    /// Quire's own `quire export --format json` output.
    case quireJSON
    /// The shared handwriting-data format, one JSON sample per line (gzip or plain).
    case jsonLines
    /// A format recognised but not importable, named for people ("an Rnote file").
    case unsupported(String)
    case unknown

    /// How a refusal names it.
    public var description: String {
        switch self {
        case .inkml: "InkML"
        case .xournal: "Xournal++"
        case .quirePackage: "a Quire package"
        case .quireJSON: "Quire JSON"
        case .jsonLines: "JSON lines"
        case .unsupported(let name): name
        case .unknown: "an unknown format"
        }
    }
}

/// Tells a file's format by its content (the name only breaks ties).
public enum FormatDetector {
    /// Reads the start of the file at `path` (and a zip archive's entry names) to tell its format.
    public static func detect(path: String) throws -> InkFileFormat {
        let raw = try FileIO.readFile(path, maxBytes: 512 << 20)
        if ZipEntries.isZip(raw) {
            let names = try ZipEntries.read(path: path, only: ["mimetype", "manifest.json", "content.xml"])
            if names["manifest.json"].map({ String(decoding: $0, as: UTF8.self).contains("quire-package") }) == true { return .quirePackage }
            // Xournal++ writes its mimetype after a space.
            if let m = names["mimetype"].map({ String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) }) {
                if m.hasPrefix("application/xournal++") { return .xournal }
                return .unsupported(zipKinds.first { m.hasPrefix($0.key) }?.value ?? "a zip archive of type '\(m.prefix(60))'")
            }
            if names["content.xml"] != nil { return .xournal }
            return .unsupported("a zip archive")
        }
        return detect(raw, name: path)
    }

    static let zipKinds = [
        "application/vnd.oasis.opendocument": "an OpenDocument file", "application/epub": "an EPUB book",
    ]

    /// The format of in-memory bytes (gzip is looked into).
    public static func detect(_ raw: Data, name: String = "") -> InkFileFormat {
        let b = [UInt8](raw.prefix(16))
        if raw.isEmpty { return .unsupported("an empty file") }
        if b.starts(with: [0x1F, 0x8B]) {
            guard let inner = try? Gzip.decompress(raw, maxBytes: 512 << 20) else { return .unsupported("damaged gzip data") }
            let f = detect(inner, name: name)
            if f == .unknown, String(decoding: inner.prefix(4096), as: UTF8.self).contains("\"engine_snapshot\"") || name.hasSuffix(".rnote") {
                return .unsupported("an Rnote file")
            }
            return f
        }
        if b.starts(with: Array("%PDF".utf8)) { return .unsupported("a PDF document") }
        if b.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return .unsupported("a PNG image") }
        if b.starts(with: [0xFF, 0xD8, 0xFF]) { return .unsupported("a JPEG image") }
        if b.starts(with: Array("RIFF".utf8)) { return .unsupported("a RIFF file (Wacom Universal Ink Model or other)") }
        if b.starts(with: [0x50, 0x4B]) { return .unsupported("a zip archive") }
        if name.hasSuffix(".rnote") { return .unsupported("an Rnote file") }
        let head = String(decoding: raw.prefix(4096), as: UTF8.self)
        if let root = rootElement(head) {
            switch XElement.localName(root) {
            case "ink": return .inkml
            case "xournal", "MrWriter": return .xournal
            case "svg": return .unsupported("an SVG image")
            case "html": return .unsupported("an HTML page")
            case let other: return .unsupported("an XML document with root element <\(other)>")
            }
        }
        let text = head.drop { $0 == "\u{FEFF}" || $0.isWhitespace }
        if text.hasPrefix("{") || text.hasPrefix("[") {
            if text.hasPrefix("{"), text.contains("\"engine_snapshot\"") { return .unsupported("an Rnote file") }
            if head.contains("\"conversion\""), head.contains("\"box\""), head.contains("\"type\"") { return .quireJSON }
            // Keys come sorted: a part's strokes can push "conversion" far down, but a block
            // starts with its box and children, which no handwriting sample has.
            if String(text).range(of: #"^\{\s*"box"\s*:\s*\{[^}]*\}\s*,\s*"children""#, options: .regularExpression) != nil { return .quireJSON }
            if head.contains("\"strokes\"") { return .jsonLines }
            return .unsupported("a JSON document Quire does not know")
        }
        return .unknown
    }

    /// The name of the first element of an XML document, past its declaration, comments,
    /// processing instructions and doctype.
    static func rootElement(_ s: String) -> String? {
        var rest = Substring(s).drop { $0 == "\u{FEFF}" || $0.isWhitespace }
        while rest.hasPrefix("<?") || rest.hasPrefix("<!") {
            let close = rest.hasPrefix("<!--") ? "-->" : ">"
            guard let r = rest.range(of: close) else { return nil }
            rest = rest[r.upperBound...].drop { $0.isWhitespace }
        }
        guard rest.hasPrefix("<") else { return nil }
        let name = rest.dropFirst().prefix { !$0.isWhitespace && $0 != ">" && $0 != "/" }
        return name.isEmpty ? nil : String(name)
    }
}
