import Foundation

/// The container of Quire's weight files (`quire-rec.bin`, `quire-math.bin`, `quire-glyph.bin`):
/// magic "QREC", format version, a JSON header with a tensor table, then float16 tensors (16-byte
/// aligned). Each network reads its own header keys and tensors from it; layout in
/// docs/RECOGNITION-MODEL.md.
public struct WeightFile {
    /// The JSON header (keys beyond the tensor table are the network's own).
    public let header: [String: Any]
    /// Weights in the file (the sum of its tensors' element counts).
    public let parameterCount: Int
    private let bytes: [UInt8]
    private let dataStart: Int
    private let entries: [String: (shape: [Int], offset: Int, count: Int)]

    /// The bytes of a weight file (`RecognitionModelError.fileUnreadable` when it cannot be read).
    public static func bytes(at url: URL) throws -> Data {
        do { return try Data(contentsOf: url) } catch {
            throw RecognitionModelError.fileUnreadable(path: url.path, reason: error.localizedDescription)
        }
    }

    /// Reads and checks the container. Throws `RecognitionModelError` for truncated, corrupt or
    /// wrong-version files.
    public init(data: Data) throws {
        let bytes = [UInt8](data)
        guard bytes.count >= 12 else { throw RecognitionModelError.truncated(expected: 12, actual: bytes.count) }
        guard bytes[0] == 0x51, bytes[1] == 0x52, bytes[2] == 0x45, bytes[3] == 0x43 else {
            throw RecognitionModelError.badMagic
        }
        func u32(_ o: Int) -> Int {
            Int(bytes[o]) | Int(bytes[o + 1]) << 8 | Int(bytes[o + 2]) << 16 | Int(bytes[o + 3]) << 24
        }
        let version = u32(4)
        guard version == RecognitionModel.formatVersion else { throw RecognitionModelError.unsupportedVersion(version) }
        let headerLength = u32(8)
        guard headerLength > 0, headerLength < 1 << 26 else { throw RecognitionModelError.corruptHeader("header length \(headerLength)") }
        guard bytes.count >= 12 + headerLength else {
            throw RecognitionModelError.truncated(expected: 12 + headerLength, actual: bytes.count)
        }
        let headerData = Data(bytes[12 ..< 12 + headerLength])
        guard let header = (try? JSONSerialization.jsonObject(with: headerData)) as? [String: Any] else {
            throw RecognitionModelError.corruptHeader("header is not a JSON object")
        }
        let dataStart = (12 + headerLength + 15) / 16 * 16
        guard let dataBytes = header["data_bytes"] as? Int, (0 ..< 1 << 40).contains(dataBytes) else {
            throw RecognitionModelError.corruptHeader("data_bytes missing")
        }
        guard bytes.count >= dataStart + dataBytes else {
            throw RecognitionModelError.truncated(expected: dataStart + dataBytes, actual: bytes.count)
        }
        guard let table = header["tensors"] as? [[String: Any]] else {
            throw RecognitionModelError.corruptHeader("tensor table missing")
        }
        var entries: [String: (shape: [Int], offset: Int, count: Int)] = [:]
        for t in table {
            guard let name = t["name"] as? String, let shape = t["shape"] as? [Int], let offset = t["offset"] as? Int,
                  let count = t["count"] as? Int, (t["dtype"] as? String) == "f16",
                  (0 ..< 1 << 40).contains(offset), (0 ..< 1 << 30).contains(count), offset + 2 * count <= dataBytes,
                  shape.count <= 4, shape.allSatisfy({ (0 ..< 1 << 30).contains($0) }),
                  shape.reduce(1, { a, b in let (v, o) = a.multipliedReportingOverflow(by: b); return o ? -1 : (a < 0 ? -1 : v) }) == count
            else { throw RecognitionModelError.corruptHeader("bad tensor entry \(t["name"] ?? "?")") }
            entries[name] = (shape, offset, count)
        }
        self.header = header
        self.bytes = bytes
        self.dataStart = dataStart
        self.entries = entries
        self.parameterCount = entries.values.reduce(0) { $0 + $1.count }
    }

    /// A tensor as floats, checked against the shape the network expects.
    public func tensor(_ name: String, _ shape: [Int]) throws -> [Float] {
        guard let e = entries[name] else { throw RecognitionModelError.missingTensor(name) }
        guard e.shape == shape else { throw RecognitionModelError.shapeMismatch(name: name, expected: shape, actual: e.shape) }
        var out = [Float](repeating: 0, count: e.count)
        let base = dataStart + e.offset
        for i in 0 ..< e.count {
            let lo = UInt16(bytes[base + 2 * i]), hi = UInt16(bytes[base + 2 * i + 1])
            out[i] = halfToFloat(lo | hi << 8)
        }
        return out
    }
}
