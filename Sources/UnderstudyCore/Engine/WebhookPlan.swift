import UnderstudyHTTP

/// One webhook of a response, made ready for the world that serves it when the engine boxes its
/// stubs (``StubBox``): what every delivery of it would otherwise work out again when its response
/// is sent (issue 42: a webhook may cost the triggering request at most 10 %). A class, so a
/// delivery keeps it with one reference.
final class WebhookPlan {
    /// The webhook as compiled.
    let setting: WebhookSetting
    /// The stub whose response carries it; nil for one fired on demand (`POST /__admin/webhooks`).
    let stubID: String?
    /// The world's default target (``WebhookDefaults/url``), for a webhook without `url`.
    let defaultURL: String?
    /// The target when it is known without rendering: the literal `url`, or the world's default
    /// (empty when there is neither); nil when `url` is a template.
    let url: String?
    /// Whether ``url`` is known: the webhook renders when it is due (``WebhookSetting/rendersLater``).
    let rendersLater: Bool
    /// ``WebhookSetting/signing`` with the world's default secret when it gives none (nil: unsigned,
    /// or no secret to be had, which ``missing`` then says).
    let signing: WebhookSignature?
    /// Why no delivery of it can be sent for want of a secret (`no-secret`); nil when it can be signed
    /// or is unsigned.
    let secretMissing: OutboundOutcome?
    /// Why no delivery of it can be sent, when its target is known (``url``): `no-target` or
    /// ``secretMissing``; nil when it can be.
    let missing: OutboundOutcome?
    /// Whether ``missing`` says why (read per delivery: a flag is cheaper than the outcome's copy).
    let isMissing: Bool
    /// ``WebhookSetting/delayMs``, and whether a distribution adds to it.
    let delayMs: Double
    let hasDelayDistribution: Bool
    /// Whether the allow-list has let ``url`` through. Only a yes is kept: the list only grows.
    @exclusivity(unchecked) var allowed = false

    /// The plan of `setting` (carried by stub `stubID`) in a world with `defaults`.
    init(_ setting: WebhookSetting, stubID: String?, defaults: WebhookDefaults?) {
        self.setting = setting
        self.stubID = stubID
        delayMs = setting.delayMs
        hasDelayDistribution = setting.delayDistribution != nil
        defaultURL = defaults?.url
        rendersLater = setting.rendersLater
        url = setting.rendersLater ? setting.plainURL(defaultURL: defaults?.url) : nil
        let resolved = setting.signing?.resolved(defaults)
        signing = resolved ?? setting.signing
        let secretMissing = Self.secretMissing(setting.signing, resolved: resolved, defaults)
        self.secretMissing = secretMissing
        missing = url.flatMap { $0.isEmpty ? Self.noTarget : secretMissing }
        isMissing = missing != nil
    }

    /// ``missing`` for a delivery whose target rendered to `url`.
    func missing(for url: String) -> OutboundOutcome? {
        url.isEmpty ? Self.noTarget : secretMissing
    }

    /// Milliseconds before each retry, in order.
    var retryDelaysMs: [Double] { setting.retryDelaysMs }

    /// A webhook with no `url` in a world with no default target.
    static let noTarget = OutboundOutcome(
        status: nil, error: "no-target",
        reason:
            "the webhook has no `url` and its world no default target (`webhookDefaults.url` in POST /__admin/sessions)"
    )

    /// Why a signed webhook has nothing to sign with: no `secret` of its own, and its world's
    /// ``WebhookDefaults`` has none (or none that `standard-webhooks` can use); nil when it has.
    private static func secretMissing(
        _ signing: WebhookSignature?, resolved: WebhookSignature?, _ defaults: WebhookDefaults?
    ) -> OutboundOutcome? {
        guard let signing, resolved == nil else { return nil }
        let why =
            defaults?.secret == nil
            ? "its world no default secret (`webhookDefaults.secret` in POST /__admin/sessions)"
            : "the world's default secret is no `standard-webhooks` secret (`whsec_` and base64)"
        return OutboundOutcome(
            status: nil, error: "no-secret",
            reason: "the webhook's `\(signing.format.rawValue)` signing has no `secret`, and " + why)
    }
}

@available(*, unavailable)
extension WebhookPlan: Sendable {}

/// A stub's webhooks, response by response, for the world that serves it: their plans, and for a
/// response that is otherwise the same every time (as ``StubBox/staticAnswers`` has them) the
/// answer ready-made, so serving it is the static path's work plus scheduling its webhooks.
final class StubWebhooks {
    /// Per response: its webhooks' plans; nil for a response without webhooks.
    let plans: [[WebhookPlan]?]
    /// Per response with webhooks and nothing else that varies: its answer; nil otherwise.
    let answers: [HTTPResponse?]

    /// The webhooks of `stub` in a world with `defaults`; nil when none of its responses has any.
    static func of(_ stub: Stub, defaults: WebhookDefaults?) -> StubWebhooks? {
        guard stub.responses.contains(where: { $0.webhooks != nil }) else { return nil }
        return StubWebhooks(stub, defaults: defaults)
    }

    private init(_ stub: Stub, defaults: WebhookDefaults?) {
        plans = stub.responses.map { response in
            response.webhooks.map { hooks in hooks.map { WebhookPlan($0, stubID: stub.id, defaults: defaults) } }
        }
        answers = stub.responses.map { $0.webhooks != nil ? StubBox.readyAnswer($0, stubID: stub.id) : nil }
    }
}

@available(*, unavailable)
extension StubWebhooks: Sendable {}
