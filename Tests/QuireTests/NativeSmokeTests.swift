import CCairo
import CX11
import Foundation
import Testing

/// Proves the native dependencies link and work: Cairo draws and encodes a PNG; Xlib is callable.
@Suite struct NativeSmokeTests {
    @Test func cairoDrawsIntoAnImageSurface() throws {
        let surface = try #require(cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 16, 16))
        defer { cairo_surface_destroy(surface) }
        let cr = try #require(cairo_create(surface))
        defer { cairo_destroy(cr) }
        cairo_set_source_rgb(cr, 1, 0, 0)
        cairo_rectangle(cr, 4, 4, 8, 8)
        cairo_fill(cr)
        cairo_surface_flush(surface)
        #expect(cairo_status(cr) == CAIRO_STATUS_SUCCESS)
        let data = try #require(cairo_image_surface_get_data(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        let pixel = data.advanced(by: 8 * stride + 8 * 4).withMemoryRebound(to: UInt32.self, capacity: 1) { $0.pointee }
        #expect(pixel == 0xFFFF_0000, "opaque red inside the rectangle")
        let corner = data.withMemoryRebound(to: UInt32.self, capacity: 1) { $0.pointee }
        #expect(corner == 0, "transparent outside")
    }

    @Test func xlibIsLinkedAndFailsCleanlyWithoutADisplay() {
        // XOpenDisplay on a display that cannot exist returns nil instead of crashing.
        #expect(XOpenDisplay(":999999") == nil)
        #expect(XInitThreads() != 0)
        #expect(quire_XIMaskLen(XI_LASTEVENT) > 0)
    }
}
