import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import InkModel

/// A parsed XML element: its local name (any namespace prefix dropped: InkML arrives both as
/// `<ink xmlns=...>` and as `<inkml:ink xmlns:inkml=...>`), attributes by local name, character
/// data, children and the line it starts on (for messages).
final class XElement {
    let name: String
    let attributes: [String: String]
    let line: Int
    var children: [XElement] = []
    var text = ""
    init(name: String, attributes: [String: String], line: Int) {
        self.name = name; self.attributes = attributes; self.line = line
    }

    static func localName(_ qualified: String) -> String {
        guard let i = qualified.lastIndex(of: ":") else { return qualified }
        return String(qualified[qualified.index(after: i)...])
    }

    subscript(attribute: String) -> String? { attributes[attribute] }
    /// `xml:id`, or a plain `id` (CROHME and other datasets write that).
    var xmlId: String? { attributes["xml:id"] ?? attributes["id"] }
    func children(_ name: String) -> [XElement] { children.filter { $0.name == name } }
    func child(_ name: String) -> XElement? { children.first { $0.name == name } }
    /// Every descendant, depth first.
    func descendants(_ name: String) -> [XElement] {
        var out: [XElement] = []
        var stack = Array(children.reversed())
        while let e = stack.popLast() {
            if e.name == name { out.append(e) }
            stack.append(contentsOf: e.children.reversed())
        }
        return out
    }
    /// The element and its content written back as XML (annotationXML is kept as text).
    var xmlString: String {
        let attrs = attributes.sorted { $0.key < $1.key }.map { " \($0.key)=\"\(XML.escape($0.value))\"" }.joined()
        let inner = XML.escape(text.trimmingCharacters(in: .whitespacesAndNewlines)) + children.map(\.xmlString).joined()
        return inner.isEmpty ? "<\(name)\(attrs)/>" : "<\(name)\(attrs)>\(inner)</\(name)>"
    }
}

/// Reads a whole XML document into `XElement`s with Foundation's parser (libxml2).
enum XMLTree {
    /// Deeper nesting than any ink format uses is refused: walks over the tree recurse.
    static let maxDepth = 200

    static func parse(_ data: Data, format: String) throws -> XElement {
        // Foundation's parser traps on an element or attribute name that is not UTF-8 (libxml2
        // hands it over as it is): a document read as UTF-8 must be UTF-8.
        if !declaresOtherEncoding(data), String(validating: data, as: UTF8.self) == nil {
            throw QuireError(.importError, "\(format) is not valid UTF-8 (and declares no other encoding)")
        }
        let builder = Builder(format: format)
        // Fed as a stream: handed over whole, libxml2 refuses documents over 10 MB ("huge input lookup").
        let parser = XMLParser(stream: InputStream(data: data))
        parser.delegate = builder
        let ok = parser.parse()
        if let e = builder.error { throw e }
        guard ok else {
            let why = parser.parserError.map { ($0 as NSError).localizedFailureReason ?? "\($0)" } ?? "unknown error"
            throw QuireError(.importError, "\(format) is not well-formed XML (line \(parser.lineNumber)): \(why)")
        }
        guard let root = builder.root, builder.stack.isEmpty else {
            throw QuireError(.importError, "\(format) document is empty or truncated")
        }
        return root
    }

    /// True for UTF-16 (a byte-order mark, or "<" as two bytes) and for an XML declaration naming
    /// an encoding other than UTF-8: libxml2 converts those to UTF-8 itself.
    static func declaresOtherEncoding(_ data: Data) -> Bool {
        let head = [UInt8](data.prefix(200))
        if head.starts(with: [0xFE, 0xFF]) || head.starts(with: [0xFF, 0xFE]) || head.starts(with: [0x3C, 0x00]) || head.starts(with: [0x00, 0x3C]) {
            return true
        }
        guard head.starts(with: Array("<?xml".utf8)), let end = head.firstIndex(of: UInt8(ascii: ">")) else { return false }
        let decl = String(decoding: head[..<end], as: UTF8.self).lowercased().replacingOccurrences(of: "'", with: "\"")
        guard let r = decl.range(of: "encoding=\"") else { return false }
        let name = decl[r.upperBound...].prefix { $0 != "\"" }
        return name != "utf-8" && name != "utf8"
    }

    private final class Builder: NSObject, XMLParserDelegate {
        let format: String
        var root: XElement?
        var stack: [XElement] = []
        var error: QuireError?
        init(format: String) { self.format = format }

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            guard stack.count < XMLTree.maxDepth else {
                error = QuireError(.importError, "\(format) line \(parser.lineNumber): elements nested more than \(XMLTree.maxDepth) deep")
                parser.abortParsing(); return
            }
            var attrs: [String: String] = [:]
            for (k, v) in attributes {
                if k == "xml:id" { attrs[k] = v; continue }
                if k.hasPrefix("xmlns") { continue }
                attrs[XElement.localName(k)] = v
            }
            let e = XElement(name: XElement.localName(name), attributes: attrs, line: parser.lineNumber)
            if let top = stack.last { top.children.append(e) } else if root == nil { root = e }
            stack.append(e)
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { stack.last?.text += string }

        func parser(_ parser: XMLParser, foundCDATA block: Data) { stack.last?.text += String(decoding: block, as: UTF8.self) }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            _ = stack.popLast()
        }
    }
}
