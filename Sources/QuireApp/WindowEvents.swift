import Foundation
import Quire

// What the window system tells the app, as plain Swift values: X11/ decodes Xlib's events into
// these, so everything above it (controllers, commands, tests) works without a display.

/// A window of the window system (an X window id), opaque to the app.
typealias WindowID = UInt

/// A key the app treats specially; everything else arrives as the text it types.
enum Key: Equatable, Sendable {
    case escape, up, down, left, right, home, end, tab, enter, menu, backspace, delete, f11, f12
    case pageUp, pageDown
    /// The keypad's + and - (which type no character of their own keysym).
    case keypadPlus, keypadMinus
    /// A key whose symbol is a character (Latin-1 or Unicode keysyms; space is " ").
    case character(Character)
    /// Any other key.
    case other
    /// No key symbol (the end of a Compose sequence: only text).
    case none
}

/// One key press.
struct KeyInput: Equatable, Sendable {
    var key: Key
    /// The text the press commits through the input method (UTF-8; empty for none).
    var text: String
    var ctrl = false
    var shift = false
    var alt = false
    /// The key's symbol name with letters in lower case ("q", "escape"), for key chords.
    var name: String?
    /// Window-system time of the press.
    var time: UInt = 0
}

/// One pointer or touch event, in the coordinates of the window it was reported on.
struct PointerInput: Sendable {
    enum Phase: Sendable { case buttonPress, buttonRelease, motion, touchBegin, touchUpdate, touchEnd }
    var phase: Phase
    var window: WindowID
    /// The physical device, with its kind and pressure range.
    var device: InputDevice
    /// The button (1 left, 3 right, 4...7 wheel) or the touch id.
    var detail: Int
    var point: Point
    var ctrl: Bool
    /// Window-system time (milliseconds).
    var serverTime: UInt
    /// Normalised pressure when the event carried the device's pressure axis.
    var pressure: Double?
    /// Monotonic nanoseconds when the event was read off the connection.
    var received: UInt64

    var isTouch: Bool { phase == .touchBegin || phase == .touchUpdate || phase == .touchEnd }
    var isPress: Bool { phase == .buttonPress || phase == .touchBegin }
    var isRelease: Bool { phase == .buttonRelease || phase == .touchEnd }
    var isMotion: Bool { phase == .motion || phase == .touchUpdate }
}

/// An event of the window system.
enum WindowEvent: Sendable {
    /// Some event other than pointer input arrived (it follows): held pen releases apply first.
    case nonPointer
    /// A part of a window must be repainted; `last` is the last of a series.
    case expose(WindowID, Rect, last: Bool)
    case mapped(WindowID)
    case resized(WindowID, width: Int, height: Int)
    case key(KeyInput)
    /// The top-level window lost the focus in a way that ends a stroke (the grab is gone).
    case focusLost
    /// The window manager asks to close the window.
    case closeRequested
    case pointer(PointerInput)
    /// Input devices went away or were disabled.
    case devicesLost([Int])
}

/// Monotonic clock, nanoseconds.
func monotonicNs() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// Turns the window system's event times into the editor's (milliseconds since 1970).
final class EventClock {
    /// Wall clock minus monotonic clock, ms, taken once: events stamped in the same server
    /// millisecond then get the same time, and later events never get an earlier one (sampling
    /// both clocks per event jittered by a millisecond, which could put a double tap's second tap
    /// before its first).
    private let wallMinusMonoMs = Int64((Date().timeIntervalSince1970 * 1000).rounded()) - Int64(monotonicNs() / 1_000_000)

    /// Milliseconds since 1970 for a server timestamp. Xorg and Xvfb stamp events with
    /// CLOCK_MONOTONIC milliseconds; when that does not hold, the arrival time is used.
    func epochMs(_ serverTime: UInt) -> Int64 {
        let mono = Int64(monotonicNs() / 1_000_000)
        let age = (mono & 0xFFFF_FFFF) - Int64(serverTime)
        return ((0...60_000).contains(age) ? mono - age : mono) + wallMinusMonoMs
    }
}

/// A child window the app paints with Cairo (the canvas, the candidates bar, a popup).
protocol PaintedWindow: AnyObject {
    var id: WindowID { get }
    /// The surface that paints the window (sized with it).
    var surface: CairoSurface { get }
    /// Moves and resizes the window (pixels of its parent) and its surface.
    func setFrame(_ frame: Rect)
    /// Maps the window above its siblings.
    func showRaised()
    func raise()
    func hide()
}
