import Foundation
import Quire

/// How `AppCommand`s are written into a session recording and read back. Only commands that
/// change the document, the selection, the view or the page shown are recorded; those that only
/// open something (menus, prompts), write files beside the package or leave are not: replaying
/// them would change nothing the recording is about. Opening or starting another notebook ends
/// the recording (`NotebookController`): a recording holds one package.
extension AppCommand {
    /// The record of this command; nil when it is not recorded. A paste at "where the pointer
    /// last was" records that point.
    func sessionRecord(lastPoint: Point) -> JSONValue? {
        func word(_ ref: WordRef) -> [String: JSONValue] { ["block": .string(ref.blockId), "word": .number(Double(ref.index))] }
        func named(_ c: String, _ more: [String: JSONValue] = [:]) -> JSONValue { .object(more.merging(["c": .string(c)]) { a, _ in a }) }
        switch self {
        case .tool(let t): return named("tool", ["tool": .string(t.rawValue)])
        case .undo: return named("undo")
        case .redo: return named("redo")
        case .clear: return named("clear")
        case .convert: return named("convert")
        case .convertBlock(let id): return named("convertBlock", ["block": .string(id)])
        case .convertWord(let ref): return named("convertWord", word(ref))
        case .addTextBlock: return named("addTextBlock")
        case .addMathBlock: return named("addMathBlock")
        case .copy: return named("copy")
        case .paste(let p):
            let at = p ?? lastPoint
            return named("paste", ["x": .number(at.x), "y": .number(at.y)])
        case .removeBlock(let id): return named("removeBlock", id.map { ["block": .string($0)] } ?? [:])
        case .removeWord(let ref): return named("removeWord", word(ref))
        case let .selectCandidate(ref, i): return named("selectCandidate", word(ref).merging(["candidate": .number(Double(i))]) { a, _ in a })
        case .zoomIn: return named("zoomIn")
        case .zoomOut: return named("zoomOut")
        case .clearSelection: return named("clearSelection")
        case .typeText(let s): return named("typeText", ["text": .string(s)])
        case .cut: return named("cut")
        case .convertSelection: return named("convertSelection")
        case let .penStyle(color, width):
            var o: [String: JSONValue] = [:]
            if let color { o["color"] = .string(color) }
            if let width { o["width"] = .number(Double(width)) }
            return named("penStyle", o)
        case .page(let p): return p.sessionRecord.map { named("page", $0) }
        case .insertImage, .save, .exportBlock, .showCandidates, .toggleFullscreen, .toggleInspector, .quit, .contextMenu, .pens, .colourGrid, .file, .search:
            return nil
        }
    }

    /// The command a record names; nil for records that are not commands (pasted data, images).
    init?(sessionRecord r: JSONValue) throws {
        guard case .object(let o) = r, let c = o["c"]?.stringValue else {
            throw QuireError(.invalidArgument, "a command record needs \"c\"")
        }
        func string(_ k: String) throws -> String {
            guard let s = o[k]?.stringValue else { throw QuireError(.invalidArgument, "command \(c): \"\(k)\" must be a string") }
            return s
        }
        func int(_ k: String) throws -> Int {
            guard let n = o[k]?.intValue else { throw QuireError(.invalidArgument, "command \(c): \"\(k)\" must be an integer") }
            return n
        }
        func number(_ k: String) throws -> Double {
            guard let n = o[k]?.doubleValue, n.isFinite else { throw QuireError(.invalidArgument, "command \(c): \"\(k)\" must be a number") }
            return n
        }
        func word() throws -> WordRef { WordRef(blockId: try string("block"), index: try int("word")) }
        switch c {
        case "tool":
            guard let t = Tool(rawValue: try string("tool")) else { throw QuireError(.invalidArgument, "command tool: unknown tool") }
            self = .tool(t)
        case "undo": self = .undo
        case "redo": self = .redo
        case "clear": self = .clear
        case "convert": self = .convert
        case "convertBlock": self = .convertBlock(try string("block"))
        case "convertWord": self = .convertWord(try word())
        case "addTextBlock": self = .addTextBlock
        case "addMathBlock": self = .addMathBlock
        case "copy": self = .copy
        case "cut": self = .cut
        case "convertSelection": self = .convertSelection
        case "penStyle":
            let color = o["color"]?.stringValue
            guard color.map(PenPalette.isColor) ?? true else { throw QuireError(.invalidArgument, "command penStyle: bad colour") }
            let width = o["width"]?.doubleValue
            guard width.map({ $0.isFinite && $0 >= 0 && $0 <= 100 }) ?? true else { throw QuireError(.invalidArgument, "command penStyle: bad width") }
            self = .penStyle(color: color, width: width.map { Float($0) })
        case "paste": self = .paste(at: Point(x: try number("x"), y: try number("y")))
        case "removeBlock": self = .removeBlock(o["block"]?.stringValue)
        case "removeWord": self = .removeWord(try word())
        case "selectCandidate": self = .selectCandidate(try word(), try int("candidate"))
        case "zoomIn": self = .zoomIn
        case "zoomOut": self = .zoomOut
        case "clearSelection": self = .clearSelection
        case "typeText": self = .typeText(try string("text"))
        case "page": self = .page(try PageCommand(sessionRecord: o))
        case "pasteData", "image": return nil
        default: throw QuireError(.invalidArgument, "unknown command \"\(c)\" in the session")
        }
    }
}

extension PageCommand {
    /// The fields of a page command's record (`"op"` and its arguments); nil for what only opens
    /// or shows something (the new-page menu, the strip).
    var sessionRecord: [String: JSONValue]? {
        func op(_ name: String, _ more: [String: JSONValue] = [:]) -> [String: JSONValue] { more.merging(["op": .string(name)]) { a, _ in a } }
        switch self {
        case .next: return op("next")
        case .previous: return op("previous")
        case .goTo(let i): return op("goTo", ["page": .number(Double(i))])
        case .add(let type?): return op("add", ["type": .string(type.rawValue)])
        case .duplicate: return op("duplicate")
        case .delete: return op("delete")
        case .restore: return op("restore")
        case let .move(from, to): return op("move", ["from": .number(Double(from)), "to": .number(Double(to))])
        case .add(nil), .toggleStrip: return nil
        }
    }

    init(sessionRecord o: [String: JSONValue]) throws {
        func int(_ k: String) throws -> Int {
            guard let n = o[k]?.intValue, n >= 0 else { throw QuireError(.invalidArgument, "command page: \"\(k)\" must be a page index") }
            return n
        }
        switch o["op"]?.stringValue {
        case "next": self = .next
        case "previous": self = .previous
        case "goTo": self = .goTo(try int("page"))
        case "add":
            guard let type = o["type"]?.stringValue.flatMap(PartType.init(rawValue:)) else {
                throw QuireError(.invalidArgument, "command page: unknown page type")
            }
            self = .add(type)
        case "duplicate": self = .duplicate
        case "delete": self = .delete
        case "restore": self = .restore
        case "move": self = .move(from: try int("from"), to: try int("to"))
        default: throw QuireError(.invalidArgument, "command page: unknown \"op\"")
        }
    }
}
