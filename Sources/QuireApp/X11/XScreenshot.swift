import CX11
import Foundation
import Quire

/// Reads an X window's pixels back (for documentation screenshots and visual checks).
public enum XScreenshot {
    /// PNG of a window (nil: the whole screen) on a display (nil: $DISPLAY).
    public static func capture(display name: String?, window: UInt?) throws -> Data {
        let x = try XConnection(name: name)
        let win = window.map { Window($0) } ?? x.root
        var attrs = XWindowAttributes()
        guard XGetWindowAttributes(x.display, win, &attrs) != 0 else {
            throw QuireError(.invalidArgument, "no window 0x\(String(win, radix: 16)) on this display")
        }
        guard attrs.map_state == IsViewable else { throw QuireError(.invalidArgument, "window 0x\(String(win, radix: 16)) is not viewable") }
        let w = Int(attrs.width), h = Int(attrs.height)
        guard let img = XGetImage(x.display, win, 0, 0, UInt32(w), UInt32(h), UInt(bitPattern: -1), ZPixmap) else {
            throw QuireError(.ioError, "XGetImage failed for window 0x\(String(win, radix: 16))")
        }
        defer { quire_XDestroyImage(img) }
        let im = img.pointee
        guard im.bits_per_pixel == 32, let data = im.data else {
            throw QuireError(.unsupportedOperation, "screenshots need a 24/32-bit visual (this one has \(im.bits_per_pixel) bits per pixel)")
        }
        var pixels = [UInt32](repeating: 0, count: w * h)
        let stride = Int(im.bytes_per_line)
        let raw = UnsafeRawPointer(data)
        for y in 0..<h {
            for xx in 0..<w {
                pixels[y * w + xx] = raw.load(fromByteOffset: y * stride + xx * 4, as: UInt32.self) | 0xFF00_0000
            }
        }
        return try ImageCodec.encodePNG(DecodedImage(width: w, height: h, pixels: pixels))
    }
}
