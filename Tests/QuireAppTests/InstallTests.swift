import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// `scripts/install` into a temporary prefix, with the binary already built (no rebuild), then the
/// installed binary must work from the installed tree and find its resources in ../share/quire.
struct InstallTests {
    let desktopDir = repositoryRoot.appendingPathComponent("desktop")

    /// Runs a command in `dir` (a fresh folder, so no search falls back to the repository's
    /// Resources through the current directory), without the resource overrides of the caller.
    private func run(_ command: [String], in dir: String, environment: [String: String] = [:]) throws -> (exit: ChildExit, output: String) {
        let quoted = command.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        var env = environment
        env["QUIRE_RESOURCES"] = ""
        env["QUIRE_RECOGNITION_MODEL"] = ""
        return try runTool("/bin/sh", ["-c", "cd '\(dir)' && exec \(quoted)"], environment: env, timeout: 120)
    }

    @Test func installedTreeWorks() throws {
        let tmp = TempDir()
        let prefix = tmp.path("prefix")
        let work = tmp.path("work")
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        let built = try builtQuireBinary()
        let install = try run([repositoryRoot.appendingPathComponent("scripts/install").path], in: work, environment: [
            "PREFIX": prefix, "DESTDIR": "", "QUIRE_INSTALL_SKIP_BUILD": "1", "QUIRE_BINARY": built.path,
        ])
        try #require(install.exit == .exited(0), "scripts/install failed:\n\(install.output)")

        let fm = FileManager.default
        let bin = "\(prefix)/bin/quire"
        #expect(fm.isExecutableFile(atPath: bin))
        for rel in ["share/quire/configuration.json", "share/quire/theme.json", "share/quire/recognition/quire-rec.bin",
                    "share/quire/samples/welcome.iink", "share/applications/quire.desktop",
                    "share/icons/hicolor/scalable/apps/quire.svg", "share/mime/packages/quire.xml"] {
            #expect(fm.fileExists(atPath: "\(prefix)/\(rel)"), "missing \(rel)")
        }

        let info = try run([bin, "info", "\(prefix)/share/quire/samples/welcome.iink"], in: work)
        #expect(info.exit == .exited(0), "\(info.output)")
        #expect(info.output.contains("parts: 1") && info.output.contains("Text Document"), "\(info.output)")

        // Rendering reads theme.json through the installed ../share/quire: change the page colour
        // there and the export must follow it (the repository's theme is white).
        try fm.copyItem(atPath: "\(prefix)/share/quire/samples/welcome.iink", toPath: "\(work)/w.iink")
        let white = try export(bin, "\(work)/w.iink", to: "\(work)/white.png", in: work)
        #expect(white.pixel(x: 1, y: 1) == (255, 255, 255) ? true : false, "\(white.pixel(x: 1, y: 1))")
        #expect(white.countDark() > 100, "the sample's ink should render")
        let themePath = "\(prefix)/share/quire/theme.json"
        let theme = try String(contentsOfFile: themePath, encoding: .utf8)
        #expect(theme.contains("\"background\": \"#ffffff\""))
        try theme.replacingOccurrences(of: "\"background\": \"#ffffff\"", with: "\"background\": \"#00ff00\"")
            .write(toFile: themePath, atomically: true, encoding: .utf8)
        let green = try export(bin, "\(work)/w.iink", to: "\(work)/green.png", in: work)
        #expect(green.pixel(x: 1, y: 1) == (0, 255, 0) ? true : false, "installed theme.json not used: \(green.pixel(x: 1, y: 1))")

        // update-mime-database ran on the prefix (DESTDIR empty): the type is registered there.
        if which("update-mime-database") != nil {
            #expect(fm.fileExists(atPath: "\(prefix)/share/mime/application/x-quire-package.xml"))
            let globs = (try? String(contentsOfFile: "\(prefix)/share/mime/globs2", encoding: .utf8)) ?? ""
            #expect(globs.contains("application/x-quire-package:*.iink") && globs.contains("application/inkml+xml:*.inkml")
                    && globs.contains("application/x-xopp:*.xopp"))
        }
        if which("update-desktop-database") != nil {
            let cache = (try? String(contentsOfFile: "\(prefix)/share/applications/mimeinfo.cache", encoding: .utf8)) ?? ""
            #expect(cache.contains("application/x-quire-package=quire.desktop;"))
        }
    }

    @Test func stagedInstallLeavesCachesAlone() throws {
        let tmp = TempDir()
        let stage = tmp.path("stage")
        let r = try run([repositoryRoot.appendingPathComponent("scripts/install").path], in: tmp.url.path, environment: [
            "PREFIX": "/usr", "DESTDIR": stage, "QUIRE_INSTALL_SKIP_BUILD": "1", "QUIRE_BINARY": try builtQuireBinary().path,
        ])
        try #require(r.exit == .exited(0), "\(r.output)")
        #expect(FileManager.default.isExecutableFile(atPath: "\(stage)/usr/bin/quire"))
        #expect(FileManager.default.fileExists(atPath: "\(stage)/usr/share/mime/packages/quire.xml"))
        #expect(!FileManager.default.fileExists(atPath: "\(stage)/usr/share/mime/mime.cache"))
    }

    private func export(_ bin: String, _ package: String, to png: String, in dir: String) throws -> CairoImage {
        let r = try run([bin, "export", package, "--format", "png", "--dpi", "40", "-o", png], in: dir)
        try #require(r.exit == .exited(0), "export failed: \(r.output)")
        return try CairoImage(png: png)
    }

    @Test func desktopEntryIsValid() throws {
        let path = desktopDir.appendingPathComponent("quire.desktop").path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var keys: [String: String] = [:]
        for line in text.split(separator: "\n") where line.contains("=") && !line.hasPrefix("#") {
            let kv = line.split(separator: "=", maxSplits: 1).map(String.init)
            keys[kv[0]] = kv.count > 1 ? kv[1] : ""
        }
        #expect(text.hasPrefix("[Desktop Entry]"))
        #expect(keys["Type"] == "Application" && keys["Exec"] == "quire edit %f" && keys["Icon"] == "quire")
        #expect(keys["Categories"] == "Office;Graphics;")
        #expect(keys["MimeType"]?.split(separator: ";").contains("application/x-quire-package") == true)
        // Ink from elsewhere opens too: `quire edit` imports it into a package beside it.
        let types = Set(keys["MimeType"]?.split(separator: ";").map(String.init) ?? [])
        #expect(types.isSuperset(of: ["application/inkml+xml", "application/x-xopp", "application/x-xojpp", "application/x-xoj"]))
        if let validate = which("desktop-file-validate") {
            let r = try runTool(validate, [path])
            // Hints (two main categories) are allowed; errors and warnings are not.
            #expect(r.exit == .exited(0) && !r.output.contains("error:") && !r.output.contains("warning:"), "\(r.output)")
        }
    }

    #if canImport(FoundationXML) || os(macOS)
    /// corelibs' attribute(forName:) misses attributes of elements in a default namespace.
    private func attr(_ element: XMLElement?, _ name: String) -> String? {
        element?.attributes?.first { $0.name == name || $0.localName == name }?.stringValue
    }
    #endif

    @Test func iconAndMimeInfoParse() throws {
        #if canImport(FoundationXML) || os(macOS)
        let svg = try XMLDocument(contentsOf: desktopDir.appendingPathComponent("quire.svg"), options: [])
        let root = try #require(svg.rootElement())
        #expect(root.name == "svg")
        #expect(attr(root, "viewBox") == "0 0 128 128")
        #expect((root.children ?? []).count > 3)

        let mime = try XMLDocument(contentsOf: desktopDir.appendingPathComponent("quire-mime.xml"), options: [])
        let info = try #require(mime.rootElement())
        #expect(info.name == "mime-info")
        let type = try #require(info.elements(forName: "mime-type").first)
        #expect(attr(type, "type") == "application/x-quire-package")
        #expect(attr(type.elements(forName: "glob").first, "pattern") == "*.iink")
        #expect(attr(type.elements(forName: "sub-class-of").first, "type") == "application/zip")
        var globs: [String: String] = [:]
        for t in info.elements(forName: "mime-type") { globs[attr(t, "type") ?? ""] = attr(t.elements(forName: "glob").first, "pattern") }
        #expect(globs["application/inkml+xml"] == "*.inkml" && globs["application/x-xopp"] == "*.xopp" && globs["application/x-xojpp"] == "*.xoj")
        let inkml = try #require(info.elements(forName: "mime-type").first { attr($0, "type") == "application/inkml+xml" })
        #expect(attr(inkml.elements(forName: "root-XML").first, "localName") == "ink")
        #endif
    }
}
