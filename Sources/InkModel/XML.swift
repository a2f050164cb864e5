/// XML text for attribute values and character data (SVG, InkML), in one place.
public enum XML {
    /// Escapes markup characters and drops what XML 1.0 forbids even escaped: control characters
    /// other than tab, newline and return, and U+FFFE/U+FFFF. Typed text can hold any of them, and a
    /// single one makes the whole document unreadable to a conforming parser.
    public static func escape(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for u in s.unicodeScalars {
            switch u {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default:
                if u.value < 0x20 && u != "\t" && u != "\n" && u != "\r" { continue }
                if u.value == 0xFFFE || u.value == 0xFFFF { continue }
                out.unicodeScalars.append(u)
            }
        }
        return out
    }
}
