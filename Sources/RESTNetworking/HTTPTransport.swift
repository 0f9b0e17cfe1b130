/// Sends one request through the API's transport (see `RESTTransport`). The Combine publishers and
/// the async API both send through here, so they see the same errors: transport
/// failures classified as `HTTPTransportError`, `RESTRequestError.notHTTPResponse` for a non-HTTP
/// answer. With a pacer, every attempt (every retry of every operator) waits for its permit here
/// and reports its response back, so pacing composes with all operators without any of them
/// knowing about it.
enum HTTPTransport {
    static func send(
        _ request: URLRequest, transport: any RESTTransport, pacer: RequestPacer?,
        completion: @escaping @Sendable (Result<HTTPResponseOutput, any Error>) -> Void
    ) -> RetryCancellation {
        guard let pacer, let url = request.url else {
            return transport.send(request, completion: completion)
        }
        let stage = Locked<PacedStage>(.held)
        // A cancel can land while the permit is being granted; whichever ends first answers, once.
        let delivered = Locked(false)
        let finish: @Sendable (Result<HTTPResponseOutput, any Error>) -> Void = { result in
            if delivered.withLock({ done in
                defer { done = true }
                return !done
            }) {
                completion(result)
            }
        }
        let cancelHold = pacer.acquire(for: url) { permit in
            let proceed = stage.withLock { if case .cancelled = $0 { return false } else { return true } }
            guard proceed else {
                pacer.complete(permit, response: nil)
                return
            }
            let cancelTask = transport.send(request) { result in
                pacer.complete(permit, response: try? result.get().response)
                finish(result)
            }
            let cancelledMeanwhile = stage.withLock { current -> Bool in
                if case .cancelled = current { return true }
                current = .sending(cancelTask)
                return false
            }
            if cancelledMeanwhile { cancelTask() }
        }
        return {
            let previous = stage.withLock { current -> PacedStage in
                defer { current = .cancelled }
                return current
            }
            switch previous {
            case .held:
                // Held by the pacer: leave the queue and finish now, not when the hold would end.
                cancelHold()
                finish(.failure(CancellationError()))
            case let .sending(cancelTask):
                cancelTask()
            case .cancelled:
                break
            }
        }
    }

    static func send(_ request: URLRequest, transport: any RESTTransport, pacer: RequestPacer? = nil) async throws
        -> HTTPResponseOutput
    {
        try Task.checkCancellation()
        let cancel = Locked<RetryCancellation?>(nil)
        do {
            return try await send(request, transport: transport, pacer: pacer, cancel: cancel)
        } catch  where Task.isCancelled {
            // The data task was cancelled because the task was: report that, not URLError.cancelled.
            throw CancellationError()
        }
    }

    private static func send(
        _ request: URLRequest, transport: any RESTTransport, pacer: RequestPacer?,
        cancel: Locked<RetryCancellation?>
    ) async throws -> HTTPResponseOutput {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let cancelTask = send(request, transport: transport, pacer: pacer) { continuation.resume(with: $0) }
                cancel.withLock { $0 = cancelTask }
                if Task.isCancelled { cancelTask() }
            }
        } onCancel: {
            cancel.withLock { $0 }?()
        }
    }
}

/// Where a paced request is: waiting for its permit, on the wire, or cancelled.
private enum PacedStage {
    case held
    case sending(RetryCancellation)
    case cancelled
}

/// What every RESTNetworking request produces: the body and the response it came with.
public typealias HTTPResponseOutput = (data: Data, response: HTTPURLResponse)
