import Foundation
import Quire

/// Where things are in the page strip (pixels of its window): three buttons at the top, then a
/// thumbnail per page, scrolled by `scrollY`.
struct PageStripLayout: Equatable, Sendable {
    var scale: Double

    enum Button: String, CaseIterable, Sendable {
        case add, duplicate, delete
        var label: String {
            switch self {
            case .add: "New"
            case .duplicate: "Copy"
            case .delete: "Delete"
            }
        }
        var command: AppCommand {
            switch self {
            case .add: .page(.add(nil))
            case .duplicate: .page(.duplicate)
            case .delete: .page(.delete)
            }
        }
    }

    var width: Double { (176 * scale).rounded() }
    var headerHeight: Double { 52 * scale }
    private var margin: Double { 12 * scale }
    private var gap: Double { 12 * scale }
    var thumbnailSize: (width: Int, height: Int) {
        let w = width - 2 * margin
        return (Int(w.rounded()), Int((w * 1.2).rounded()))
    }
    var cellHeight: Double { Double(thumbnailSize.height) + 18 * scale }

    func buttonFrames() -> [(Button, Rect)] {
        let w = (width - 2 * 8 * scale - 2 * 5 * scale) / 3
        return Button.allCases.enumerated().map { i, b in
            (b, Rect(x: 8 * scale + Double(i) * (w + 5 * scale), y: 8 * scale, width: w, height: headerHeight - 16 * scale))
        }
    }

    func button(at p: Point) -> Button? { buttonFrames().first { $0.1.insetBy(dx: -2 * scale, dy: -3 * scale).contains(p) }?.0 }

    func cellFrame(_ index: Int, scrollY: Double) -> Rect {
        Rect(x: margin, y: headerHeight + gap / 2 + Double(index) * (cellHeight + gap) - scrollY,
             width: Double(thumbnailSize.width), height: cellHeight)
    }

    /// The page under a point, if any.
    func page(at p: Point, scrollY: Double, count: Int) -> Int? {
        guard p.y >= headerHeight else { return nil }
        let i = Int(((p.y + scrollY - headerHeight - gap / 2) / (cellHeight + gap)).rounded(.down))
        guard (0..<count).contains(i), cellFrame(i, scrollY: scrollY).insetBy(dx: -margin, dy: -gap / 2).contains(p) else { return nil }
        return i
    }

    /// Where a page dragged to height `y` lands (0...count-1 once taken out), and the line marking it.
    func drop(at y: Double, scrollY: Double, count: Int, from: Int) -> (index: Int, lineY: Double) {
        let slot = Int(((y + scrollY - headerHeight) / (cellHeight + gap)).rounded())
        let gapIndex = max(0, min(count, slot))
        let lineY = headerHeight + Double(gapIndex) * (cellHeight + gap) - scrollY
        // Gaps after the dragged page are one index lower once it is taken out.
        return (gapIndex > from ? gapIndex - 1 : gapIndex, lineY)
    }

    /// The highest scroll offset for `count` pages in a strip `height` high.
    func maxScroll(count: Int, height: Double) -> Double {
        max(0, headerHeight + Double(count) * (cellHeight + gap) + gap - height)
    }
}

/// The page strip at the window's right: a thumbnail per page to jump to it, a drag to reorder
/// (a finger holds still first; a finger's plain drag scrolls),
/// buttons for a new page (its kind chosen from a menu), a copy, and deleting the page shown.
final class PageStripController {
    let layout: PageStripLayout
    private let window: PaintedWindow
    /// Shown (the canvas is narrower by the strip's width).
    private(set) var visible = false
    private(set) var scrollY: Double = 0
    private var height: Double = 1
    private let thumbnailer = Thumbnailer()
    /// Thumbnails by part id, with the model revision and page width they show.
    private var thumbnails: [String: (revision: Int, pageWidth: Double, made: UInt64, surface: CairoSurface)] = [:]
    /// A page being written on gets a new thumbnail at most this often (monotonic ns).
    private static let refreshNs: UInt64 = 700_000_000
    /// The notebook the thumbnails belong to: another file's parts may have the same ids (a copy
    /// saved with Save As), so a new notebook starts afresh.
    private weak var shown: Notebook?
    private var pressedButton: PageStripLayout.Button?
    /// A press: the page under it, where and when, the scroll then, and what its drag does.
    private var press: (page: Int?, at: Point, startScroll: Double, time: UInt64, touch: Bool, mode: DragMode)?
    private enum DragMode { case undecided, scroll, reorder }
    /// How long a finger stays still on a page before its drag moves the page (monotonic ns).
    static let holdNs: UInt64 = 450_000_000
    private var dropLine: Double?
    private var signature = ""

    init(layout: PageStripLayout, window: PaintedWindow) {
        self.layout = layout
        self.window = window
    }

    func setVisible(_ on: Bool) {
        visible = on
        signature = ""
        if on { window.showRaised() } else { window.hide() }
    }

    func setFrame(_ frame: Rect) {
        window.setFrame(frame)
        height = frame.height
        signature = ""
    }

    // MARK: input (pixels of the strip)

    /// A press (pixels of the strip). A finger that drags scrolls the strip; a finger held still
    /// for a moment first, or a pen or mouse, drags the page under it to a new place.
    func pressed(at p: Point, pages count: Int, touch: Bool = false, now: UInt64 = monotonicNs()) {
        pressedButton = layout.button(at: p)
        if pressedButton == nil {
            press = (layout.page(at: p, scrollY: scrollY, count: count), p, scrollY, now, touch, .undecided)
        }
        signature = ""
    }

    func moved(to p: Point, pages count: Int, now: UInt64 = monotonicNs()) {
        guard var pr = press else { return }
        if pr.mode == .undecided, hypot(p.x - pr.at.x, p.y - pr.at.y) > 10 * layout.scale {
            let held = now >= pr.time + Self.holdNs
            pr.mode = pr.page == nil || (pr.touch && !held) ? .scroll : .reorder
        }
        press = pr
        switch pr.mode {
        case .undecided: break
        case .scroll:
            scrollY = max(0, min(layout.maxScroll(count: count, height: height), pr.startScroll - (p.y - pr.at.y)))
            signature = ""
        case .reorder:
            if let page = pr.page { dropLine = layout.drop(at: p.y, scrollY: scrollY, count: count, from: page).lineY }
            signature = ""
        }
    }

    /// The command a release makes: a button's, a tap's jump, a drag's move.
    func released(at p: Point, pages count: Int) -> AppCommand? {
        defer { pressedButton = nil; press = nil; dropLine = nil; signature = "" }
        if let b = pressedButton { return layout.button(at: p) == b ? b.command : nil }
        guard let pr = press, let page = pr.page else { return nil }
        switch pr.mode {
        case .scroll: return nil
        case .reorder:
            let to = layout.drop(at: p.y, scrollY: scrollY, count: count, from: page).index
            return to == page ? nil : .page(.move(from: page, to: to))
        case .undecided:
            return layout.page(at: p, scrollY: scrollY, count: count) == page ? .page(.goTo(page)) : nil
        }
    }

    func wheel(by dy: Double, pages count: Int) {
        scrollY = max(0, min(layout.maxScroll(count: count, height: height), scrollY + dy))
        signature = ""
    }

    /// Scrolls so that page `index` is in view.
    func follow(_ index: Int, pages count: Int) {
        let f = layout.cellFrame(index, scrollY: scrollY)
        if f.y < layout.headerHeight { scrollY += f.y - layout.headerHeight - 6 * layout.scale }
        if f.maxY > height { scrollY += f.maxY - height + 6 * layout.scale }
        scrollY = max(0, min(layout.maxScroll(count: count, height: height), scrollY))
    }

    // MARK: painting

    /// Repaints when the pages, their content or the strip changed (or always with `force`).
    /// While `busy` (a pen is down) a changed page keeps its old thumbnail: ink comes first.
    func paint(notebook: Notebook, pageWidth: Double, theme: Theme, busy: Bool = false, force: Bool = false) {
        guard visible else { return }
        if shown !== notebook {
            thumbnails.removeAll()
            shown = notebook
            signature = ""
        }
        let pages = notebook.pages
        if busy, !force { return }
        let sig = "\(notebook.currentIndex)|\(scrollY)|\(height)|\(dropLine ?? -1)|\(press?.page ?? -1)|\(pressedButton?.rawValue ?? "")|"
            + pages.map { "\($0.id):\($0.model.revision)" }.joined(separator: ",")
        guard force || sig != signature else { return }
        signature = sig
        let (tw, th) = layout.thumbnailSize
        var cells: [PageStripCell] = []
        for (i, part) in pages.enumerated() {
            let frame = layout.cellFrame(i, scrollY: scrollY)
            guard frame.maxY >= 0, frame.y <= height else { continue }
            cells.append(PageStripCell(frame: frame, label: "\(i + 1) \u{00B7} \(part.kind.rawValue)", current: i == notebook.currentIndex,
                                       lifted: press?.mode == .reorder && press?.page == i,
                                       thumbnail: thumbnail(part, pageWidth: pageWidth, width: tw, height: th)))
        }
        // A thumbnail left stale for now is redrawn by a later call.
        if pages.contains(where: { p in thumbnails[p.id].map { $0.revision != p.model.revision } ?? false }) { signature = "" }
        let live = Set(pages.map(\.id))
        thumbnails = thumbnails.filter { live.contains($0.key) }
        let buttons = layout.buttonFrames().map { b, f in
            ChromeButton(id: b.rawValue, label: b.label, frame: f, active: b == pressedButton, enabled: b != .delete || pages.count > 1)
        }
        NotebookPainter.drawPageStrip(on: window.surface, width: layout.width, height: height, scale: layout.scale,
                                      buttons: buttons, cells: cells, dropY: dropLine, theme: theme)
    }

    private func thumbnail(_ part: ContentPart, pageWidth: Double, width: Int, height: Int) -> CairoSurface? {
        let now = monotonicNs()
        if let t = thumbnails[part.id], t.pageWidth == pageWidth,
           t.revision == part.model.revision || now - t.made < Self.refreshNs { return t.surface }
        guard let s = try? thumbnailer.render(part: part.model, pageWidth: pageWidth, width: width, height: height) else { return nil }
        thumbnails[part.id] = (part.model.revision, pageWidth, now, s)
        return s
    }
}
