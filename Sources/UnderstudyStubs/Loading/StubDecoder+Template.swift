/// `"template": true`: compiles the response's body, `json` strings, header values and SSE
/// `data` into templates, each problem reported at its place in the stub file.
extension StubDecoder {
    package mutating func decodeTemplate(
        _ keys: ObjectMembers, _ response: StubResponse, _ path: JSONPath, escaping: TemplateText.Escaping = .none
    ) -> ResponseTemplate? {
        var body: ResponseTemplate.Body?
        var headerTemplates: [(index: Int, template: TemplateText)] = []
        var eventData: [(index: Int, template: TemplateText)] = []
        if let member = keys["body"], let text = member.value.stringValue, TemplateText.hasTags(text) {
            if let compiled = compileTemplate(text, at: member.value.position, path.member("body"), escaping) {
                body = .text(compiled)
            }
        } else if let member = keys["json"] {
            let json = jsonTemplate(member.value, path.member("json"), escaping)
            if json.varies { body = .json(json) }
        } else if let member = keys["bodyFile"], let name = member.value.stringValue, TemplateText.hasTags(name) {
            if let choice = templatedBodyFile(name, member, path.member("bodyFile"), escaping) { body = .file(choice) }
        } else if let member = keys["bodyFile"] {
            let text = String(decoding: response.body, as: UTF8.self)
            if TemplateText.hasTags(text) {
                switch TemplateText.compile(text, escaping: escaping) {
                case .success(let compiled): body = .text(compiled)
                case .failure(let problem):
                    fail(
                        member.value.position, path.member("bodyFile"),
                        "in the body file, line \(problem.line), column \(problem.column): \(problem.message)")
                }
            }
        } else if let member = keys["base64"] {
            fail(
                member.keyPosition, path.member("base64"),
                "`template` renders text; a `base64` body is bytes and cannot be a template (use `body`, `json` or `bodyFile`)"
            )
        }
        if let headers = keys["headers"]?.value.members {
            var index = 0
            for member in headers {
                let nodes = member.value.elements ?? [member.value]
                for (position, node) in nodes.enumerated() {
                    defer { index += 1 }
                    guard let text = node.stringValue, TemplateText.hasTags(text) else { continue }
                    let valuePath =
                        member.value.elements == nil
                        ? path.member("headers").member(member.key)
                        : path.member("headers").member(member.key).element(position)
                    if let compiled = compileTemplate(text, at: node.position, valuePath, escaping) {
                        headerTemplates.append((index, compiled))
                    }
                }
            }
        }
        if let events = keys["events"]?.value.elements {
            for (index, event) in events.enumerated() {
                guard let data = event.members?.first(where: { $0.key == "data" })?.value, let text = data.stringValue,
                    TemplateText.hasTags(text)
                else { continue }
                if let compiled = compileTemplate(
                    text, at: data.position, path.member("events").element(index).member("data"), escaping)
                {
                    eventData.append((index, compiled))
                }
            }
        }
        let template = ResponseTemplate(body: body, headers: headerTemplates, eventData: eventData)
        return template.isEmpty ? nil : template
    }

    /// A `bodyFile` whose name is a template: the name is rendered per request and picks one of
    /// the files below the name's fixed leading directories (`bodies/` for
    /// `bodies/{{request.pathSegments.[1]}}.json`), all read now through the stub root's resolver
    /// and each a template itself when it holds tags. A rendered name that is none of them answers
    /// as WireMock does for a missing body file.
    private mutating func templatedBodyFile(
        _ name: String, _ member: JSONNode.Member, _ path: JSONPath, _ escaping: TemplateText.Escaping
    ) -> ResponseTemplate.FileChoice? {
        guard let resolver = bodyFiles else {
            fail(
                member.value.position, path,
                "`bodyFile` needs a stub file on disk; stubs posted to the admin API must use `body`, `json` or `base64`"
            )
            return nil
        }
        guard let compiledName = compileTemplate(name, at: member.value.position, path, escaping) else { return nil }
        let fixed = name[..<(name.firstRange(of: "{{")?.lowerBound ?? name.endIndex)]
        guard let slash = fixed.lastIndex(of: "/"), fixed[..<slash].contains(where: { $0 != "/" && $0 != "." }) else {
            // Without one, the stub files beside it would be among the files it can name.
            fail(
                member.value.position, path,
                "a templated `bodyFile` needs a fixed directory before its first tag (`bodies/{{request.pathSegments.[1]}}.json`)"
            )
            return nil
        }
        let prefix = String(fixed[...slash])
        let stubDirectory = file.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(
            separator: "/")
        let base = stubDirectory.isEmpty ? "." : stubDirectory
        var files: [String: ResponseTemplate.FileChoice.File] = [:]
        for (relative, _) in BodyFileResolver.files(in: base + "/" + String(prefix.dropLast())) {
            // Read again through the stub root's resolver: a file that leaves the root is not served.
            guard case .success(let read) = resolver.read(prefix + relative) else { continue }
            bodyFilesRead.append(read.realPath)
            let text = String(decoding: read.bytes, as: UTF8.self)
            if TemplateText.hasTags(text), case .success(let compiled) = TemplateText.compile(text, escaping: escaping)
            {
                files[prefix + relative] = .template(compiled, source: text)
            } else {
                files[prefix + relative] = .bytes(read.bytes)
            }
        }
        return ResponseTemplate.FileChoice(name: compiledName, nameSource: name, files: files, directory: base)
    }

    /// A JSON body's strings (values and member names) as templates where they have tags.
    mutating func jsonTemplate(
        _ node: JSONNode, _ path: JSONPath, _ escaping: TemplateText.Escaping, sent: Bool = false
    )
        -> JSONTemplate
    {
        switch node.kind {
        case .string(let text):
            if let (type, tag) = JSONTemplate.typedTag(text) {
                guard let compiled = compileTemplate(tag, at: node.position, path, escaping, sent: sent) else {
                    return .literal(node.value)
                }
                return .typed(compiled, type)
            }
            guard TemplateText.hasTags(text),
                let compiled = compileTemplate(text, at: node.position, path, escaping, sent: sent)
            else {
                return .literal(node.value)
            }
            return .string(compiled)
        case .array(let elements):
            let parts = elements.enumerated().map {
                jsonTemplate($0.element, path.element($0.offset), escaping, sent: sent)
            }
            return parts.contains(where: \.varies) ? .array(parts) : .literal(node.value)
        case .object(let members):
            var parts: [(key: JSONTemplate, value: JSONTemplate)] = []
            for member in members {
                var key = JSONTemplate.literal(.string(member.key))
                if TemplateText.hasTags(member.key),
                    let compiled = compileTemplate(
                        member.key, at: member.keyPosition, path.member(member.key), escaping, sent: sent)
                {
                    key = .string(compiled)
                }
                parts.append((key, jsonTemplate(member.value, path.member(member.key), escaping, sent: sent)))
            }
            return parts.contains(where: { $0.key.varies || $0.value.varies }) ? .object(parts) : .literal(node.value)
        default:
            return .literal(node.value)
        }
    }

    /// Compiles one string of the stub file. The string starts at `position` (its opening
    /// quote); a problem on the template's first line is placed at its column in the file
    /// (exact unless escapes come before it), one on a later line (after a `\n` escape) at the
    /// string with the template's own line and column.
    /// With `sent`, the string is a webhook's and may read the sent response (`response.…`).
    package mutating func compileTemplate(
        _ text: String, at position: SourcePosition, _ path: JSONPath, _ escaping: TemplateText.Escaping,
        sent: Bool = false
    ) -> TemplateText? {
        switch TemplateText.compile(text, escaping: escaping, sent: sent) {
        case .success(let compiled):
            return compiled
        case .failure(let problem):
            if problem.line == 1 {
                fail(
                    SourcePosition(line: position.line, column: position.column + problem.column), path, problem.message
                )
            } else {
                fail(position, path, "template line \(problem.line), column \(problem.column): \(problem.message)")
            }
            return nil
        }
    }
}
