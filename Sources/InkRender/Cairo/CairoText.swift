import Foundation

/// The process-wide lock for Cairo text.
///
/// Cairo shares its scaled fonts (and their glyph caches) between all contexts of a process, and
/// Debian 12's Cairo 1.16 races on them when two threads use one at once: it aborts in
/// `cairo_scaled_font_destroy` ("! scaled_font->cache_frozen"). So every use of the toy font API,
/// every restore or destroy of a context that may hold a font, and every finish of a PDF or SVG
/// surface (which embeds fonts) runs under this lock. Recursive, because measuring can happen
/// while a page is drawn.
public enum CairoText {
    private static let mutex = NSRecursiveLock()

    /// Takes the lock; pair with `unlock()` (a `defer` right after).
    public static func lock() { mutex.lock() }

    public static func unlock() { mutex.unlock() }

    /// Runs `body` under the lock.
    public static func withLock<T>(_ body: () throws -> T) rethrows -> T {
        mutex.lock()
        defer { mutex.unlock() }
        return try body()
    }
}
