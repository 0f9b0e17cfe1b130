import CXML

/// A parsed XML document as XMLUnit compares it under WireMock's settings (checked against the
/// WireMock 2.35.1 jar): whitespace-only text dropped and other text trimmed, comments dropped,
/// CDATA read as text, names compared by local name (prefixes and namespace URIs ignored, as the
/// jar does), `xmlns` declarations not attributes.
struct XMLTree: Sendable, Equatable {
    /// An element: its local name, attributes by local name in document order, and children.
    struct Element: Sendable, Equatable {
        var name: String
        var attributes: [(name: String, value: String)]
        var children: [XMLTree]

        static func == (lhs: Element, rhs: Element) -> Bool {
            lhs.name == rhs.name && lhs.children == rhs.children
                && lhs.attributes.elementsEqual(rhs.attributes) { $0.name == $1.name && $0.value == $1.value }
        }
    }

    enum Kind: Sendable, Equatable {
        case element(Element)
        case text(String)
        case processingInstruction(target: String, data: String)
    }

    var kind: Kind

    /// The tree under `node` (an element), read from libxml2's nodes.
    static func element(_ node: UnsafeMutablePointer<understudy_xml_node>, _ library: LibXML) -> Element {
        var attributes: [(name: String, value: String)] = []
        var attribute = node.pointee.properties
        while let current = attribute {
            let value = library.take(library.api.node_get_content(current))
            attributes.append((name: String(cString: current.pointee.name), value: value))
            attribute = current.pointee.next
        }
        var children: [XMLTree] = []
        var child = node.pointee.children
        while let current = child {
            switch Int(current.pointee.type) {
            case Int(UNDERSTUDY_XML_ELEMENT): children.append(XMLTree(kind: .element(element(current, library))))
            case Int(UNDERSTUDY_XML_TEXT), Int(UNDERSTUDY_XML_CDATA), Int(UNDERSTUDY_XML_ENTITY_REF):
                let text = trimmed(library.take(library.api.node_get_content(current)))
                if text.isEmpty { break }
                // libxml2 may split text around an entity; XMLUnit sees one text node.
                if case .text(let before)? = children.last?.kind {
                    children[children.count - 1] = XMLTree(kind: .text(before + text))
                } else {
                    children.append(XMLTree(kind: .text(text)))
                }
            case Int(UNDERSTUDY_XML_PI):
                let data = library.take(library.api.node_get_content(current))
                children.append(
                    XMLTree(kind: .processingInstruction(target: String(cString: current.pointee.name), data: data)))
            default: break  // comments
            }
            child = current.pointee.next
        }
        return Element(name: String(cString: node.pointee.name), attributes: attributes, children: children)
    }

    /// Java's `String.trim()`: XMLUnit's `ignoreWhitespace` strips characters up to U+0020.
    static func trimmed(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { $0.value > 0x20 }) else { return "" }
        let last = scalars.lastIndex(where: { $0.value > 0x20 })!
        return String(scalars[first...last])
    }
}

/// The comparison XMLUnit's `DiffBuilder` makes for WireMock's `equalToXml`: elements matched
/// to the test document's by name (so differently named children may come in any order, same-named
/// ones pair in order), attribute order ignored, and the first difference of the comparison types
/// WireMock counts reported (XMLUnit stops at it).
struct XMLComparer: Sendable {
    /// The comparison types that may differ (`exemptedComparisons`).
    var exempted: Set<String>
    /// Placeholders in the expected document's text and attribute values, if enabled.
    var placeholders: XMLPlaceholders?

    /// The comparison types `exemptedComparisons` may name: those XMLUnit defines, of which the
    /// ones WireMock counts change the comparison (the others are never counted anyway).
    static let comparisonTypes: Set<String> = [
        "ATTR_NAME_LOOKUP", "ATTR_VALUE", "ATTR_VALUE_EXPLICITLY_SPECIFIED", "CHILD_LOOKUP", "CHILD_NODELIST_LENGTH",
        "CHILD_NODELIST_SEQUENCE", "COMMENT_VALUE", "DOCTYPE_NAME", "DOCTYPE_PUBLIC_ID", "DOCTYPE_SYSTEM_ID",
        "ELEMENT_NUM_ATTRIBUTES", "ELEMENT_TAG_NAME", "HAS_DOCTYPE_DECLARATION", "NAMESPACE_PREFIX", "NAMESPACE_URI",
        "NODE_TYPE", "NO_NAMESPACE_SCHEMA_LOCATION", "PROCESSING_INSTRUCTION_DATA", "PROCESSING_INSTRUCTION_TARGET",
        "SCHEMA_LOCATION", "TEXT_VALUE", "XML_ENCODING", "XML_STANDALONE", "XML_VERSION",
    ]

    /// The first difference between the expected element and the body's, at `path`; `nil` when
    /// equal.
    func difference(_ control: XMLTree.Element, _ test: XMLTree.Element, path: String) -> String? {
        let here = path + "/" + control.name
        if control.name != test.name, counts("ELEMENT_TAG_NAME") {
            return "element <\(test.name)> at \(path.isEmpty ? "/" : path) ≠ <\(control.name)>"
        }
        if control.attributes.count != test.attributes.count, counts("ELEMENT_NUM_ATTRIBUTES") {
            return "\(here) has \(test.attributes.count) attributes, expected \(control.attributes.count)"
        }
        for attribute in control.attributes {
            guard let actual = test.attributes.first(where: { $0.name == attribute.name }) else {
                if counts("ATTR_NAME_LOOKUP") { return "\(here) lacks attribute \(attribute.name)" }
                continue
            }
            if !valueEquals(attribute.value, actual.value), counts("ATTR_VALUE") {
                return "\(here)/@\(attribute.name) \"\(actual.value)\" ≠ \"\(attribute.value)\""
            }
        }
        if control.children.count != test.children.count, counts("CHILD_NODELIST_LENGTH") {
            return "\(here) has \(test.children.count) child nodes, expected \(control.children.count)"
        }
        var taken = [Bool](repeating: false, count: test.children.count)
        for child in control.children {
            guard let index = test.children.indices.first(where: { !taken[$0] && pairs(child, test.children[$0]) })
            else {
                if counts("CHILD_LOOKUP") { return "\(here) lacks \(describe(child))" }
                continue
            }
            taken[index] = true
            if let difference = difference(child, test.children[index], path: here) { return difference }
        }
        if counts("CHILD_LOOKUP"), let extra = test.children.indices.first(where: { !taken[$0] }) {
            return "\(here) has an unexpected \(describe(test.children[extra]))"
        }
        return nil
    }

    private func difference(_ control: XMLTree, _ test: XMLTree, path: String) -> String? {
        switch (control.kind, test.kind) {
        case (.element(let expected), .element(let actual)): return difference(expected, actual, path: path)
        case (.text(let expected), .text(let actual)):
            guard !valueEquals(expected, actual), counts("TEXT_VALUE") else { return nil }
            return "text of \(path) \"\(snippet(actual))\" ≠ \"\(snippet(expected))\""
        case (.processingInstruction(let target, let data), .processingInstruction(let actualTarget, let actualData)):
            if target != actualTarget, counts("PROCESSING_INSTRUCTION_TARGET") {
                return "processing instruction <?\(actualTarget)?> in \(path) ≠ <?\(target)?>"
            }
            if data != actualData, counts("PROCESSING_INSTRUCTION_DATA") {
                return "processing instruction <?\(target)?> in \(path) has data \"\(actualData)\" ≠ \"\(data)\""
            }
            return nil
        default: return nil
        }
    }

    /// Whether XMLUnit's node matcher pairs the two: elements by name, other nodes by kind.
    private func pairs(_ control: XMLTree, _ test: XMLTree) -> Bool {
        switch (control.kind, test.kind) {
        case (.element(let expected), .element(let actual)): return expected.name == actual.name
        case (.text, .text), (.processingInstruction, .processingInstruction): return true
        default: return false
        }
    }

    private func counts(_ comparison: String) -> Bool { !exempted.contains(comparison) }

    private func valueEquals(_ expected: String, _ actual: String) -> Bool {
        if let placeholders, let verdict = placeholders.accepts(actual, expected: expected) { return verdict }
        return expected == actual
    }

    private func describe(_ node: XMLTree) -> String {
        switch node.kind {
        case .element(let element): return "element <\(element.name)>"
        case .text(let text): return "text \"\(snippet(text))\""
        case .processingInstruction(let target, _): return "processing instruction <?\(target)?>"
        }
    }

    private func snippet(_ text: String) -> String { text.count <= 40 ? text : String(text.prefix(37)) + "..." }
}
