import UnderstudyCore
import UnderstudyJSON
/// WireMock's `response-template` transformer (or `--global-response-templating`): every string of
/// the response that can be a template is translated from Handlebars into a native template
/// (``WireMockHandlebars``) and compiled as native templates are; a tag with no native equivalent
/// is refused by name at its position.
extension StubDecoder {
    mutating func decodeWireMockTemplate(_ keys: ObjectMembers, _ response: inout StubResponse, _ path: JSONPath) {
        let errorsBefore = errors.count
        var native = ObjectMembers()
        var translated = response
        if let member = keys["body"] {
            native["body"] = translatedMember(member, path.member("body"))
        }
        if let member = keys["jsonBody"] {
            native["json"] = translatedMember(member, path.member("jsonBody"))
        }
        var fileChoice: ResponseTemplate.FileChoice?
        if let member = keys["bodyFileName"], let name = member.value.stringValue, name.contains("{{") {
            fileChoice = templatedBodyFile(name, member, path.member("bodyFileName"))
        } else if let member = keys["bodyFileName"] {
            native["bodyFile"] = member
            let text = String(decoding: response.body, as: UTF8.self)
            if TemplateText.hasTags(text) {
                switch WireMockHandlebars.translate(text, parameters: wireMockTemplateParameters) {
                case .success(let nativeText): translated.body = Array(nativeText.utf8)
                case .failure(let problem):
                    fail(member.value.position, path.member("bodyFileName"), "in the body file: \(problem.message)")
                }
            }
        }
        if let member = keys["headers"] {
            native["headers"] = translatedMember(member, path.member("headers"))
        }
        if let member = keys["base64Body"] {
            fail(
                member.keyPosition, path.member("base64Body"),
                "`response-template` renders text; a `base64Body` cannot be a template")
        }
        guard errors.count == errorsBefore else { return }
        // What translated into plain text (`parameters.NAME` becomes a literal) is the static
        // response; where tags remain, the template renders over it per request.
        if let text = native["body"]?.value.stringValue {
            response.body = Array(text.utf8)
        } else if let json = native["json"] {
            response.body = json.value.value.javaNormalizedNumbers.jsonBytes
        } else if native["bodyFile"] != nil {
            response.body = translated.body
        }
        // The headers keep their translation too (what `convert-wiremock` writes as the native
        // template); the template renders over the values that hold tags.
        if let headers = native["headers"] {
            response.headers = decodeHeaders(headers.value, path.member("headers"))
            translated.headers = response.headers
        }
        response.template = decodeTemplate(native, translated, path, escaping: .html)
        if let fileChoice {
            response.template = ResponseTemplate(
                body: .file(fileChoice), headers: response.template?.headers ?? [],
                eventData: response.template?.eventData ?? [])
        }
    }

    /// A `bodyFileName` that is a template: its name translated and compiled, and every file of
    /// `__files/` read now (as `__files/` is for the static web root), each a template itself when
    /// it holds tags, as WireMock renders the file it reads.
    private mutating func templatedBodyFile(_ name: String, _ member: JSONNode.Member, _ path: JSONPath)
        -> ResponseTemplate.FileChoice?
    {
        let directory = StubLoader.wireMockFilesDirectory(for: file)
        let nativeName: String
        switch WireMockHandlebars.translate(name, parameters: wireMockTemplateParameters) {
        case .success(let text): nativeName = text
        case .failure(let problem):
            fail(member.value.position, path, problem.message)
            return nil
        }
        guard let compiledName = compileTemplate(nativeName, at: member.value.position, path, .html) else { return nil }
        var files: [String: ResponseTemplate.FileChoice.File] = [:]
        for (relative, bytes) in BodyFileResolver.files(in: directory) {
            let text = String(decoding: bytes, as: UTF8.self)
            guard TemplateText.hasTags(text),
                case .success(let translated) = WireMockHandlebars.translate(
                    text, parameters: wireMockTemplateParameters),
                case .success(let compiled) = TemplateText.compile(translated, escaping: .html)
            else {
                files[relative] = .bytes(bytes)
                continue
            }
            files[relative] = .template(compiled, source: translated)
        }
        return ResponseTemplate.FileChoice(
            name: compiledName, nameSource: nativeName, files: files, directory: directory)
    }

    private mutating func translatedMember(_ member: JSONNode.Member, _ path: JSONPath) -> JSONNode.Member {
        var copy = member
        copy.value = translated(member.value, path)
        return copy
    }

    /// `node` with every string (values and member names) translated into a native template.
    private mutating func translated(_ node: JSONNode, _ path: JSONPath) -> JSONNode {
        switch node.kind {
        case .string(let text):
            return JSONNode(kind: .string(translatedText(text, node.position, path)), position: node.position)
        case .array(let elements):
            let copies = elements.enumerated().map { translated($0.element, path.element($0.offset)) }
            return JSONNode(kind: .array(copies), position: node.position)
        case .object(let members):
            var copies: [JSONNode.Member] = []
            for member in members {
                var copy = member
                copy.key = translatedText(member.key, member.keyPosition, path.member(member.key))
                copy.value = translated(member.value, path.member(member.key))
                copies.append(copy)
            }
            return JSONNode(kind: .object(copies), position: node.position)
        default:
            return node
        }
    }

    private mutating func translatedText(_ text: String, _ position: SourcePosition, _ path: JSONPath) -> String {
        guard TemplateText.hasTags(text) else { return text }
        switch WireMockHandlebars.translate(text, parameters: wireMockTemplateParameters) {
        case .success(let native): return native
        case .failure(let problem):
            fail(position, path, problem.message)
            return text
        }
    }
}
