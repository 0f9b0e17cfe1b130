import UnderstudyHTTP

/// `GET /__admin/webhooks` and `POST /__admin/webhooks`. GET: the world's webhook deliveries,
/// oldest first, each with its state
/// (`pending`, `retrying`, `delivered`, `failed`), its attempts, the request as sent and how the last attempt
/// ended (docs/webhooks.md). POST: sends a webhook on demand, its body one webhook object as in a
/// stub (`{"url": …, "json": …, "signing": …, "retry": …}`); a bad one is a 400 that says why.
enum WebhooksAdmin {
    static func fire(_ call: AdminCall) -> HTTPResponse {
        let node: JSONNode
        do {
            node = try JSONParser.parse(call.request.body)
        } catch {
            return AdminResponse.error(
                400,
                "body must be a webhook object (`{\"url\": \"http://127.0.0.1:9000/hook\", \"json\": {}}`): "
                    + "\(error.message) at line \(error.position.line), column \(error.position.column)")
        }
        var decoder = StubDecoder(file: "<admin>", bodyFiles: nil)
        guard let hook = decoder.decodeWebhook(node, JSONPath.root), decoder.errors.isEmpty else {
            return AdminResponse.error(400, "the webhook is not valid (docs/webhooks.md)", errors: decoder.errors)
        }
        let delivery = call.engine.fireWebhook(hook, for: call.request)
        return AdminResponse.value(encode(delivery), status: 202)
    }

    static func list(_ call: AdminCall) -> HTTPResponse {
        let deliveries = call.engine.webhookDeliveries
        return AdminResponse.value(
            .object([
                JSONMember("deliveries", .array(deliveries.map(encode))),
                JSONMember("total", .int(deliveries.count)),
            ]))
    }

    static func encode(_ delivery: WebhookDelivery) -> JSONValue {
        var members = [
            JSONMember("id", .string(delivery.id)),
            JSONMember("state", .string(delivery.state.rawValue)),
            JSONMember("attempts", .int(delivery.attempts)),
        ]
        if let stub = delivery.stubID { members.append(JSONMember("stub", .string(stub))) }
        members.append(JSONMember("eventId", .string(delivery.eventID)))
        let request = delivery.sent ?? delivery.request
        members.append(
            JSONMember(
                "request",
                .object([
                    JSONMember("method", .string(request.method)),
                    JSONMember("url", .string(request.url)),
                    JSONMember("headers", headers(request.headers)),
                    JSONMember("body", .string(String(decoding: request.body, as: UTF8.self))),
                ])))
        if let outcome = delivery.lastOutcome {
            var last: [JSONMember] = []
            if let status = outcome.status {
                last.append(JSONMember("status", .int(status)))
                last.append(JSONMember("headers", headers(outcome.headers)))
                last.append(JSONMember("body", .string(String(decoding: outcome.body, as: UTF8.self))))
            }
            if let error = outcome.error { last.append(JSONMember("error", .string(error))) }
            if let reason = outcome.reason { last.append(JSONMember("reason", .string(reason))) }
            last.append(JSONMember("ms", .number(String(Int(outcome.milliseconds.rounded())))))
            members.append(JSONMember("lastAttempt", .object(last)))
        }
        return .object(members)
    }

    private static func headers(_ fields: HTTPHeaders) -> JSONValue {
        .object(fields.fields.map { JSONMember($0.name, .string($0.value)) })
    }
}
