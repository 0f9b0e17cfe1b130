import CXML
import UnderstudyStubs

/// XML body matching on libxml2, installed into the engine with ``UnderstudyCore/XMLSupport``:
/// `xmlEquals` (WireMock's `equalToXml`, XMLUnit's rules as WireMock 2.35 applies them) and `xPath`
/// (`matchesXPath`). libxml2 is opened with dlopen when the first XML stub compiles, so creating and
/// installing this costs nothing.
public final class LibXMLMatching: XMLMatching {
    /// A matcher; libxml2 is not opened yet.
    public init() {}

    /// Parses the expected document once (its tree is kept, no libxml2 handle is) and checks the
    /// options.
    public func equality(to document: String, _ options: XMLComparison) throws(XMLMatchingError)
        -> any XMLEqualityCondition
    {
        do throws(XMLMatchingErrorBox) {
            let library = try LibXML.loaded()
            let unknown = options.exemptedComparisons.filter { !XMLComparer.comparisonTypes.contains($0) }
            if let first = unknown.first {
                throw XMLMatchingErrorBox(
                    message:
                        "unknown comparison type `\(first)` in exemptedComparisons (XMLUnit's, such as `ELEMENT_TAG_NAME`, `TEXT_VALUE`, `ATTR_VALUE`)"
                )
            }
            let placeholders =
                options.placeholders
                ? try XMLPlaceholders(opening: options.openingDelimiter, closing: options.closingDelimiter) : nil
            let handle: XMLDocumentHandle
            switch library.parse(Array(document.utf8)) {
            case .success(let parsed): handle = parsed
            case .failure(let error):
                throw XMLMatchingErrorBox(message: "the expected XML is not well-formed: \(error.message)")
            }
            guard let root = handle.root else {
                throw XMLMatchingErrorBox(message: "the expected XML has no root element")
            }
            let expected = XMLTree.element(root, library)
            if let placeholders { try Self.checkPlaceholders(in: expected, placeholders) }
            return XMLEquality(
                expected: expected, library: library,
                comparer: XMLComparer(exempted: Set(options.exemptedComparisons), placeholders: placeholders))
        } catch {
            throw XMLMatchingError(message: error.message)
        }
    }

    /// Compiles the expression once to check it; it is evaluated per request body.
    public func xPath(_ expression: String, namespaces: [XMLNamespace]) throws(XMLMatchingError) -> any XPathSelecting {
        let library: LibXML
        do { library = try LibXML.loaded() } catch { throw XMLMatchingError(message: error.message) }
        library.silence()
        guard let compiled = library.api.xpath_compile(expression) else {
            throw XMLMatchingError(message: "`\(expression)` is not a valid XPath 1.0 expression")
        }
        library.api.xpath_free_comp(compiled)
        return XPathSelector(expression: expression, namespaces: namespaces, library: library)
    }

    private static func checkPlaceholders(in element: XMLTree.Element, _ placeholders: XMLPlaceholders)
        throws(XMLMatchingErrorBox)
    {
        for attribute in element.attributes { try placeholders.check(attribute.value) }
        for child in element.children {
            switch child.kind {
            case .element(let inner): try checkPlaceholders(in: inner, placeholders)
            case .text(let text): try placeholders.check(text)
            case .processingInstruction: break
            }
        }
    }
}

/// A compiled `xmlEquals`: the expected tree, compared with each body's.
struct XMLEquality: XMLEqualityCondition {
    let expected: XMLTree.Element
    let library: LibXML
    let comparer: XMLComparer

    func mismatch(in body: [UInt8]) -> String? {
        guard case .success(let handle) = library.parse(body), let root = handle.root else { return "body is not XML" }
        let actual = XMLTree.element(root, library)
        return comparer.difference(expected, actual, path: "").map { "body XML differs: \($0)" }
    }
}

/// A compiled `xPath`, evaluated on each body.
struct XPathSelector: XPathSelecting {
    let expression: String
    let namespaces: [XMLNamespace]
    let library: LibXML

    func selection(in body: [UInt8]) -> [String]? {
        guard case .success(let handle) = library.parse(body), let root = handle.root else { return nil }
        let api = library.api
        // Without declared prefixes WireMock matches names whatever their namespace (`//a/b`
        // selects `<p:a xmlns:p="urn:x"><p:b/>`, checked against the 2.35 jar): drop them.
        if namespaces.isEmpty { Self.forgetNamespaces(root) }
        guard let context = api.xpath_new_context(handle.document) else { return [] }
        defer { api.xpath_free_context(context) }
        for namespace in namespaces { _ = api.xpath_register_ns(context, namespace.prefix, namespace.uri) }
        guard let result = api.xpath_eval(expression, context) else { return [] }
        defer { api.xpath_free_object(result) }
        guard Int(result.pointee.type) == Int(UNDERSTUDY_XPATH_NODESET), let set = result.pointee.nodesetval,
            set.pointee.nodeNr > 0
        else { return [] }
        return (0..<Int(set.pointee.nodeNr)).compactMap { index in
            set.pointee.nodeTab[index].map { text(of: $0, handle) }
        }
    }

    /// An element as XML; any other node's text (an attribute's value, a text node).
    private func text(of node: UnsafeMutablePointer<understudy_xml_node>, _ handle: XMLDocumentHandle) -> String {
        let api = library.api
        guard Int(node.pointee.type) == Int(UNDERSTUDY_XML_ELEMENT), let buffer = api.buffer_create() else {
            return library.take(api.node_get_content(node))
        }
        defer { api.buffer_free(buffer) }
        _ = api.node_dump(buffer, handle.document, node, 0, 0)
        return api.buffer_content(buffer).map { String(cString: $0) } ?? ""
    }

    private static func forgetNamespaces(_ node: UnsafeMutablePointer<understudy_xml_node>) {
        node.pointee.ns = nil
        var attribute = node.pointee.properties
        while let current = attribute {
            current.pointee.ns = nil
            attribute = current.pointee.next
        }
        var child = node.pointee.children
        while let current = child {
            if Int(current.pointee.type) == Int(UNDERSTUDY_XML_ELEMENT) { forgetNamespaces(current) }
            child = current.pointee.next
        }
    }
}
