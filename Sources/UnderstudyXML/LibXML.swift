import CXML

/// libxml2's entry points, opened with dlopen the first time a stub matches XML (never at
/// start-up: a daemon without XML stubs does not load libxml2). Process-wide and never closed,
/// like the C library's own global state.
final class LibXML: @unchecked Sendable, CustomReflectable {
    /// The table `understudy_xml_load` fills; read-only once loaded.
    let api: understudy_xml

    private init(api: understudy_xml) { self.api = api }

    /// No children: the entry points are the process's, not part of what a stub compiled to.
    var customMirror: Mirror { Mirror(self, children: [:]) }

    /// The library, opened on first use (Swift runs a static's initializer once, thread-safely),
    /// or `nil` when libxml2.so.2 is not installed.
    static let shared: LibXML? = {
        var api = understudy_xml()
        guard understudy_xml_load(&api) == 1 else { return nil }
        return LibXML(api: api)
    }()

    /// The library, or the error a stub reports when it is missing.
    static func loaded() throws(XMLMatchingErrorBox) -> LibXML {
        guard let library = shared else {
            throw XMLMatchingErrorBox(
                message:
                    "XML matching needs libxml2 (libxml2.so.2), which is not installed; on Debian: apt-get install libxml2"
            )
        }
        return library
    }

    /// Parses `bytes` (libxml2's messages silenced on this thread): the document, or the error
    /// with its line and column.
    func parse(_ bytes: [UInt8]) -> Result<XMLDocumentHandle, XMLMatchingErrorBox> {
        // An empty body is no document (and its buffer may have no address to hand libxml2).
        guard !bytes.isEmpty, bytes.count <= Int(Int32.max) else {
            return .failure(XMLMatchingErrorBox(message: "line 1, column 1: the document is empty"))
        }
        silence()
        api.reset_last_error()
        let document = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                api.read_memory($0, Int32(buffer.count), "body.xml", nil, Int32(UNDERSTUDY_XML_PARSE_OPTIONS))
            }
        }
        guard let document else { return .failure(XMLMatchingErrorBox(message: lastError() ?? "not XML")) }
        return .success(XMLDocumentHandle(document: document, library: self))
    }

    /// Sends libxml2's messages on this thread nowhere (its handlers are per thread).
    func silence() {
        withUnsafePointer(to: api) { understudy_xml_silence($0) }
    }

    /// The last libxml2 error on this thread as "line L, column C: message".
    func lastError() -> String? {
        guard let error = api.last_error(), let message = error.pointee.message else { return nil }
        var text = String(cString: message)
        while text.last?.isWhitespace == true { text.removeLast() }
        return "line \(error.pointee.line), column \(error.pointee.int2): \(text)"
    }

    /// A string libxml2 allocated, copied and freed.
    func take(_ pointer: UnsafeMutablePointer<understudy_xml_char>?) -> String {
        guard let pointer else { return "" }
        defer { withUnsafePointer(to: api) { understudy_xml_free($0, pointer) } }
        return String(cString: pointer)
    }
}

/// An error on its way to an ``XMLMatchingError`` (kept apart so this file imports no Core).
struct XMLMatchingErrorBox: Error {
    var message: String
}

/// One parsed document; frees it when the last reference goes.
final class XMLDocumentHandle {
    let document: UnsafeMutableRawPointer
    let library: LibXML

    init(document: UnsafeMutableRawPointer, library: LibXML) {
        self.document = document
        self.library = library
    }

    deinit { library.api.free_doc(document) }

    /// The root element, if the document has one.
    var root: UnsafeMutablePointer<understudy_xml_node>? { library.api.root_element(document) }
}
