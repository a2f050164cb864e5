import Foundation
import Quire

/// The app's way into X11: opens the connection and makes the pieces that talk to it (the
/// top-level window, the CLIPBOARD, the event source). Nothing outside X11/ calls Xlib.
final class X11Display {
    let connection: XConnection

    /// `name` nil: $DISPLAY.
    init(name: String?) throws { connection = try XConnection(name: name) }

    /// Screen resolution in dots per inch.
    var dpi: Double { connection.dpi }
    var screenSize: (width: Int, height: Int) { connection.screenSize }

    func makeTopLevel(width: Int, height: Int, title: String, fullscreen: Bool) -> XTopLevel {
        XTopLevel(x: connection, width: width, height: height, title: title, fullscreen: fullscreen)
    }

    /// The CLIPBOARD, owned and requested through a window of ours.
    func makeClipboard(window: XTopLevel) -> XClipboard { XClipboard(x: connection, window: window.id) }

    func makeEventSource(top: XTopLevel, clipboard: XClipboard) -> XEventSource {
        XEventSource(x: connection, top: top, clipboard: clipboard)
    }
}
