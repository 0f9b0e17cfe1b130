import Foundation
import UnderstudyJSON
import UnderstudyJSONSchema
import UnderstudyOpenAPIContract

/// The spec's documents as parsed, positions kept (``nodes``), beside their values
/// (``store``, the contract's ``OpenAPIDocuments``, which resolves `$ref`s). External files are
/// read once, at load time, so validation does no I/O.
struct SpecDocuments: @unchecked Sendable {
    /// The root document's key (`""`) maps to the spec file; others are paths as resolved.
    var rootFile: String { store.rootFile }
    private(set) var nodes: [String: JSONNode] = [:]
    /// The documents' values.
    private(set) var store: OpenAPIDocuments

    var root: JSONValue { store.root }

    init(rootFile: String, rootNode: JSONNode) {
        store = OpenAPIDocuments(rootFile: rootFile, root: rootNode.value)
        nodes[""] = rootNode
    }

    static func read(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { [UInt8]($0) }
    }

    func file(_ document: String) -> String { store.file(document) }

    func documentKey(of filePart: String, from document: String) -> String {
        store.documentKey(of: filePart, from: document)
    }

    func resolve(_ reference: String, from document: String) -> ResolvedSchema? {
        store.resolve(reference, from: document)
    }

    /// Reads every file reachable by `$ref` and returns a located error for each `$ref` that names
    /// nothing (a missing file, a file that does not parse, a pointer into nothing).
    mutating func loadReferences() -> [OpenAPIFinding] {
        var findings: [OpenAPIFinding] = []
        var pending = [""]
        var seen: Set<String> = [""]
        while let document = pending.popLast() {
            guard let node = nodes[document] else { continue }
            var references: [(String, SourcePosition, String)] = []
            Self.collectReferences(node, pointer: "#", into: &references)
            for (reference, position, at) in references {
                let hash = reference.firstIndex(of: "#")
                let filePart = String(hash.map { reference[..<$0] } ?? Substring(reference))
                if filePart.contains("://") {
                    findings.append(
                        OpenAPIFinding(
                            file: file(document), line: position.line, column: position.column,
                            specPointer: file(document) + at,
                            message: "broken $ref `\(reference)`: remote references are not fetched"))
                    continue
                }
                let key = documentKey(of: filePart, from: document)
                if nodes[key] == nil, !seen.contains(key) {
                    seen.insert(key)
                    guard let bytes = Self.read(key) else {
                        findings.append(
                            OpenAPIFinding(
                                file: file(document), line: position.line, column: position.column,
                                specPointer: file(document) + at,
                                message: "broken $ref `\(reference)`: no such file \(key)"))
                        continue
                    }
                    do {
                        let parsed = try SpecDocumentParser.parse(bytes, file: key)
                        nodes[key] = parsed
                        store.values[key] = parsed.value
                        pending.append(key)
                    } catch {
                        findings.append(error)
                        continue
                    }
                }
                guard nodes[key] != nil else { continue }
                if resolve(reference, from: document) == nil {
                    findings.append(
                        OpenAPIFinding(
                            file: file(document), line: position.line, column: position.column,
                            specPointer: file(document) + at,
                            message: "broken $ref `\(reference)`: it names nothing in \(file(key))"))
                }
            }
        }
        return findings
    }

    private static func collectReferences(
        _ node: JSONNode, pointer: String, into references: inout [(String, SourcePosition, String)]
    ) {
        switch node.kind {
        case .object(let members):
            for member in members {
                let childPointer = pointer + "/" + JSONPointer.escape(member.key)
                if member.key == "$ref", case .string(let reference) = member.value.kind {
                    references.append((reference, member.value.position, childPointer))
                } else {
                    collectReferences(member.value, pointer: childPointer, into: &references)
                }
            }
        case .array(let items):
            for (index, item) in items.enumerated() {
                collectReferences(item, pointer: pointer + "/\(index)", into: &references)
            }
        default:
            break
        }
    }

    /// The position of the value at `tokens` in `node`, or `nil`.
    static func position(of tokens: [String], in node: JSONNode) -> SourcePosition? {
        var current = node
        for token in tokens {
            switch current.kind {
            case .object(let members):
                guard let member = members.first(where: { $0.key == token }) else { return nil }
                current = member.value
            case .array(let items):
                guard let index = Int(token), items.indices.contains(index) else { return nil }
                current = items[index]
            default:
                return nil
            }
        }
        return current.position
    }

    /// The position of the deepest value along `tokens` that exists.
    static func closestPosition(of tokens: [String], in node: JSONNode) -> SourcePosition {
        var tokens = tokens
        while !tokens.isEmpty {
            if let position = position(of: tokens, in: node) { return position }
            tokens.removeLast()
        }
        return node.position
    }

    /// The position of `pointer` in `document`, for findings in the spec.
    func position(of pointer: String, in document: String) -> SourcePosition? {
        guard let node = nodes[document], let tokens = JSONPointer.tokens(pointer) else { return nil }
        return Self.position(of: tokens, in: node)
    }
}
