#if OpenAPI  // OpenAPIKit and Yams come with the OpenAPI trait; without it, WithoutOpenAPITrait.swift
import Foundation
import UnderstudyJSON
import Yams

/// Reads one document of a spec (the spec itself or a file a `$ref` names), JSON or YAML, into a
/// ``JSONNode`` that keeps every value's line and column, so errors can point into the spec.
enum SpecDocumentParser {
    /// Parses `bytes` from `file`: JSON when the file ends in `.json` (or the text starts with `{`),
    /// YAML otherwise.
    static func parse(_ bytes: [UInt8], file: String) throws(OpenAPIFinding) -> JSONNode {
        let looksLikeJSON =
            file.hasSuffix(".json") || bytes.first(where: { ![9, 10, 13, 32].contains($0) }) == UInt8(ascii: "{")
        if looksLikeJSON {
            do {
                return try JSONParser.parse(bytes)
            } catch {
                throw OpenAPIFinding(file: file, position: error.position, message: "not valid JSON: \(error.message)")
            }
        }
        let text = String(decoding: bytes, as: UTF8.self)
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw OpenAPIFinding(
                file: file, position: Self.position(of: error), message: "not valid YAML: \(Self.problem(error))")
        } catch {
            throw OpenAPIFinding(
                file: file, position: SourcePosition(line: 1, column: 1), message: "not valid YAML: \(error)")
        }
        guard let root else {
            throw OpenAPIFinding(
                file: file, position: SourcePosition(line: 1, column: 1), message: "the document is empty")
        }
        return node(root)
    }

    private static func position(of error: YamlError) -> SourcePosition {
        switch error {
        case .scanner(_, _, let mark, _), .parser(_, _, let mark, _), .composer(_, _, let mark, _):
            return SourcePosition(line: mark.line, column: mark.column)
        default:
            return SourcePosition(line: 1, column: 1)
        }
    }

    private static func problem(_ error: YamlError) -> String {
        switch error {
        case .scanner(_, let problem, _, _), .parser(_, let problem, _, _), .composer(_, let problem, _, _):
            return problem
        default:
            return String(describing: error).split(separator: "\n").first.map(String.init) ?? "unreadable"
        }
    }

    /// A YAML node as a JSON node: scalars typed by YAML's core schema (timestamps stay strings, as
    /// JSON Schema sees them).
    private static func node(_ yaml: Node) -> JSONNode {
        let position =
            yaml.mark.map { SourcePosition(line: $0.line, column: $0.column) } ?? SourcePosition(line: 1, column: 1)
        switch yaml {
        case .scalar(let scalar):
            let text = scalar.string
            switch yaml.tag.rawValue {
            case Tag.Name.null.rawValue: return JSONNode(kind: .null, position: position)
            case Tag.Name.bool.rawValue: return JSONNode(kind: .bool(yaml.bool ?? false), position: position)
            case Tag.Name.int.rawValue, Tag.Name.float.rawValue:
                return JSONNode(kind: number(text).map(JSONNode.Kind.number) ?? .string(text), position: position)
            default:
                return JSONNode(kind: .string(text), position: position)
            }
        case .mapping(let mapping):
            var members: [JSONNode.Member] = []
            for (key, value) in mapping {
                let keyPosition = key.mark.map { SourcePosition(line: $0.line, column: $0.column) } ?? position
                members.append(
                    JSONNode.Member(key: key.string ?? "\(key)", keyPosition: keyPosition, value: node(value)))
            }
            return JSONNode(kind: .object(members), position: position)
        case .sequence(let sequence):
            return JSONNode(kind: .array(sequence.map(node)), position: position)
        case .alias:
            return JSONNode(kind: .null, position: position)
        }
    }

    /// A YAML number as JSON number text (`0x1F`, `1_000`, `.5`, `+1` rewritten; `.inf` and `.nan`
    /// are not JSON numbers, so they stay strings).
    private static func number(_ text: String) -> String? {
        let plain = text.replacingOccurrences(of: "_", with: "")
        if isJSONNumber(plain) { return plain }
        if let int = Int(plain.hasPrefix("+") ? String(plain.dropFirst()) : plain) { return String(int) }
        if plain.hasPrefix("0x"), let int = Int(plain.dropFirst(2), radix: 16) { return String(int) }
        if plain.hasPrefix("0o"), let int = Int(plain.dropFirst(2), radix: 8) { return String(int) }
        if let double = Double(plain), double.isFinite { return String(double) }
        return nil
    }

    private static func isJSONNumber(_ text: String) -> Bool {
        guard let node = try? JSONParser.parse(Array(text.utf8)), case .number = node.kind else { return false }
        return true
    }
}
#endif
