import Foundation

/// The kind and pixel size of PNG and JPEG bytes, read from their headers (an image block needs
/// both; decoding happens when it is drawn).
enum ImageInfo {
    static func sniff(_ d: Data) -> (mimeType: String, width: Int, height: Int)? {
        let b = [UInt8](d.prefix(1 << 16))
        if b.count >= 24, b.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            let w = b[16..<20].reduce(0) { $0 << 8 | Int($1) }, h = b[20..<24].reduce(0) { $0 << 8 | Int($1) }
            return w > 0 && h > 0 ? ("image/png", w, h) : nil
        }
        guard b.count >= 4, b[0] == 0xFF, b[1] == 0xD8 else { return nil }
        // Walk the JPEG segments to the first start-of-frame marker, which holds the size.
        var i = 2
        while i + 9 < b.count {
            guard b[i] == 0xFF else { return nil }
            let marker = b[i + 1]
            if marker == 0xFF { i += 1; continue }
            let len = Int(b[i + 2]) << 8 | Int(b[i + 3])
            if (0xC0...0xCF).contains(marker), marker != 0xC4, marker != 0xC8, marker != 0xCC {
                let h = Int(b[i + 5]) << 8 | Int(b[i + 6]), w = Int(b[i + 7]) << 8 | Int(b[i + 8])
                return w > 0 && h > 0 ? ("image/jpeg", w, h) : nil
            }
            guard len >= 2 else { return nil }
            i += 2 + len
        }
        return nil
    }
}
