import CLibeventTLS

/// OpenSSL (libssl with libcrypto) and libevent_openssl, opened with `dlopen` the first time the
/// daemon needs them: an HTTPS listener's certificates (``TLSContext``) or a webhook's signature.
/// A daemon that never does neither loads nor relocates them at start-up (issue 46: they cost every
/// start 3.4 M instructions and 1.7 MB of RSS), as libcurl (``UpstreamClient``) and zlib
/// (``BodyCompressor``) are opened when first used.
enum OpenSSLLibrary {
    /// The entry points, or why the libraries could not be opened; loaded once (`swift_once`, so
    /// two threads racing to it open them once). Unchecked: a table written once by this
    /// initialiser and only read after it, never freed.
    nonisolated(unsafe) private static let loaded: Result<UnsafePointer<understudy_openssl>, ServerError> = {
        let api = UnsafeMutablePointer<understudy_openssl>.allocate(capacity: 1)
        var error = [CChar](repeating: 0, count: 512)
        let opened = error.withUnsafeMutableBufferPointer { understudy_openssl_load(api, $0.baseAddress!, $0.count) }
        guard opened == 1 else {
            api.deallocate()
            return .failure(.setupFailed("OpenSSL: " + TLSIdentity.message(error)))
        }
        return .success(UnsafePointer(api))
    }()

    /// The entry points, opening the libraries on the first call; throws why they cannot be opened.
    static func api() throws(ServerError) -> UnsafePointer<understudy_openssl> {
        try loaded.get()
    }

    /// The entry points where they are open for certain: on an HTTPS port's connections, whose SSL
    /// context ``TLSContext`` made after ``api()`` succeeded.
    static var opened: UnsafePointer<understudy_openssl> {
        guard case .success(let api) = loaded else { preconditionFailure("OpenSSL used before it was opened") }
        return api
    }
}
