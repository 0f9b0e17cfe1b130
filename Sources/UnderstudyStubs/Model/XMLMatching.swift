/// The seam XML body matching plugs into (`xmlEquals`, `xPath`; WireMock's `equalToXml` and
/// `matchesXPath`). Parsing XML needs a C library (libxml2), and UnderstudyStubs imports no C: the
/// matcher lives in UnderstudyXML, and the daemon installs it at start-up with
/// ``XMLSupport/install(_:)`` (the way `serve --openapi` hands the engine its contract checker).
/// Without one, a stub that matches XML is refused (a WireMock mapping is skipped) with a reason.
///
/// Compiling a condition checks the stub's side once (the expected document parses, the XPath
/// compiles); the returned condition is then asked about request bodies on the engine's thread.
public protocol XMLMatching: AnyObject, Sendable {
    /// The condition "the body is XML equal to `document` under `options`", or why `document` or an
    /// option cannot be used (not XML, an unknown comparison, a bad delimiter pattern).
    func equality(to document: String, _ options: XMLComparison) throws(XMLMatchingError) -> any XMLEqualityCondition

    /// The selection of `expression` (XPath 1.0) with the given namespace prefixes, or why the
    /// expression cannot be used.
    func xPath(_ expression: String, namespaces: [XMLNamespace]) throws(XMLMatchingError) -> any XPathSelecting
}

/// A compiled `xmlEquals`.
public protocol XMLEqualityCondition: Sendable {
    /// `nil` when `body` is XML equal to the expected document; otherwise why not, for the
    /// unmatched response ("body is not XML", "element <b>: text \"2\" ≠ \"1\"").
    func mismatch(in body: [UInt8]) -> String?
}

/// A compiled XPath.
public protocol XPathSelecting: Sendable {
    /// The texts of the nodes the expression selects in `body`: an attribute's or text node's
    /// value, an element rendered as XML (as WireMock hands them to a sub-matcher). Empty when it
    /// selects nothing or gives no node set; `nil` when `body` is not XML.
    func selection(in body: [UInt8]) -> [String]?
}

/// A namespace prefix an XPath may use (`xPathNamespaces`).
public struct XMLNamespace: Sendable, Equatable {
    /// The prefix as the expression writes it.
    public var prefix: String
    /// The namespace URI it stands for.
    public var uri: String

    /// A prefix and its URI.
    public init(prefix: String, uri: String) {
        self.prefix = prefix
        self.uri = uri
    }
}

/// How `xmlEquals` compares (WireMock's `equalToXml` options).
public struct XMLComparison: Sendable, Equatable {
    /// XMLUnit placeholders in the expected document (`${xmlunit.ignore}`, `${xmlunit.isNumber}`,
    /// `${xmlunit.matchesRegex(…)}`) stand for what they name.
    public var placeholders: Bool
    /// The regular expression opening a placeholder; `nil` is `\$\{`.
    public var openingDelimiter: String?
    /// The regular expression closing a placeholder; `nil` is `\}`.
    public var closingDelimiter: String?
    /// XMLUnit comparison types that may differ (`ELEMENT_TAG_NAME`, `TEXT_VALUE`, …).
    public var exemptedComparisons: [String]

    /// The options; every one is off by default.
    public init(
        placeholders: Bool = false, openingDelimiter: String? = nil, closingDelimiter: String? = nil,
        exemptedComparisons: [String] = []
    ) {
        self.placeholders = placeholders
        self.openingDelimiter = openingDelimiter
        self.closingDelimiter = closingDelimiter
        self.exemptedComparisons = exemptedComparisons
    }
}

/// Why an XML condition cannot be compiled.
public struct XMLMatchingError: Error, Sendable {
    /// What is wrong, for the stub error ("expected XML is not well-formed: line 1: …").
    public var message: String

    /// An error saying `message`.
    public init(message: String) { self.message = message }
}

/// `xmlEquals`: the expected document as written, its options, and its compiled condition.
public struct XMLExpectation: Sendable {
    /// The expected document as the stub gives it.
    public var document: String
    /// How it is compared.
    public var options: XMLComparison
    /// The compiled comparison.
    public var condition: any XMLEqualityCondition
}

/// `xPath`: the expression and namespaces as written, and the compiled selection.
public struct XPathQuery: Sendable {
    /// The XPath as the stub gives it.
    public var expression: String
    /// The prefixes it may use.
    public var namespaces: [XMLNamespace]
    /// The compiled selection.
    public var selector: any XPathSelecting
}

/// Where the process's XML matcher is installed.
///
/// Written once, at start-up, before any stub is compiled and before the engine's threads start
/// (the daemon's `main`, a test's `setUp`); only read after that, hence no lock.
public enum XMLSupport {
    nonisolated(unsafe) private static var matcher: (any XMLMatching)?

    /// Installs the XML matcher stubs compile with; call it before loading stubs.
    public static func install(_ matching: any XMLMatching) {
        matcher = matching
    }

    /// The installed matcher, if any.
    public static var installed: (any XMLMatching)? { matcher }
}
