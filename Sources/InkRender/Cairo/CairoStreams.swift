import CCairo
import Foundation

/// Collects bytes written by Cairo's stream functions (PNG, PDF and SVG output).
final class DataSink {
    var data = Data()
}

let dataSinkWrite: cairo_write_func_t = { closure, bytes, length in
    guard let closure else { return CAIRO_STATUS_WRITE_ERROR }
    let sink = Unmanaged<DataSink>.fromOpaque(closure).takeUnretainedValue()
    if length > 0, let bytes { sink.data.append(bytes, count: Int(length)) }
    return CAIRO_STATUS_SUCCESS
}

/// Feeds bytes to Cairo's stream readers (PNG input).
final class DataSource {
    let data: Data
    var offset = 0
    init(_ data: Data) { self.data = data }
}

let dataSourceRead: cairo_read_func_t = { closure, out, length in
    guard let closure, let out else { return CAIRO_STATUS_READ_ERROR }
    let src = Unmanaged<DataSource>.fromOpaque(closure).takeUnretainedValue()
    let n = Int(length)
    if n == 0 { return CAIRO_STATUS_SUCCESS }
    guard src.offset + n <= src.data.count else { return CAIRO_STATUS_READ_ERROR }
    src.data.withUnsafeBytes { buf in
        out.update(from: buf.baseAddress!.assumingMemoryBound(to: UInt8.self) + src.offset, count: n)
    }
    src.offset += n
    return CAIRO_STATUS_SUCCESS
}

/// Cairo's message for a status, for error texts.
func cairoStatusMessage(_ st: cairo_status_t) -> String {
    String(validatingCString: cairo_status_to_string(st)) ?? "unknown"
}
