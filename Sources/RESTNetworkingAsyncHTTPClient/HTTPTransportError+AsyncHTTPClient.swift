#if AsyncHTTPClient  // this module is empty without the AsyncHTTPClient trait (Package.swift)
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import RESTNetworking
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension HTTPTransportError {
    /// Classifies an AsyncHTTPClient failure into the kinds URLSession's failures get, so retry
    /// policies and callers see the same thing on both transports. `sawResponseHead` tells a
    /// body cut off by a close (`truncatedResponse`) from a close before any answer
    /// (`emptyResponse`). A certificate-chain refusal is classified by the transport itself
    /// (``TLSFailureDiagnosis``); this gives the other TLS failures their reason.
    init(asyncHTTPClientError error: any Error, url: String, sawResponseHead: Bool) {
        let (kind, code, tls) = Self.classify(asyncHTTPClientError: error, sawResponseHead: sawResponseHead)
        self.init(kind: kind, url: url, cause: error, code: code, tls: tls)
    }

    private static func classify(asyncHTTPClientError error: any Error, sawResponseHead: Bool)
        -> (Kind, URLError.Code, TLSFailure?)
    {
        switch error {
        case let error as AsyncHTTPClient.HTTPClientError:
            switch error {
            case .remoteConnectionClosed, .uncleanShutdown, .bodyLengthMismatch:
                return sawResponseHead
                    ? (.truncatedResponse, .networkConnectionLost, nil)
                    : (.emptyResponse, .badServerResponse, nil)
            case .connectTimeout:
                return (.cannotConnect, .cannotConnectToHost, nil)
            case .readTimeout, .writeTimeout, .deadlineExceeded, .getConnectionFromPoolTimeout:
                return (.timedOut, .timedOut, nil)
            case .tlsHandshakeTimeout:
                return (.tls, .secureConnectionFailed, .handshake("\(error)"))
            case .cancelled:
                return (.other, .cancelled, nil)
            case .invalidURL, .emptyHost, .emptyScheme:
                return (.other, .badURL, nil)
            default:
                return (.other, .unknown, nil)
            }
        case let error as NIOSSLExtraError where error == .failedToValidateHostname:
            return (.tls, .serverCertificateUntrusted, .hostnameMismatch)
        case let error as NIOSSLError:
            // The message BoringSSL gave, as the reason (and for the few it names, the reason's case).
            let message = "\(error)"
            return (.tls, .secureConnectionFailed, tlsFailure(message: message) ?? .handshake(message))
        case is NIOSSLExtraError:
            return (.tls, .secureConnectionFailed, .handshake("\(error)"))
        case HTTPParserError.invalidEOFState:
            // The connection closed where the parser still expected bytes: mid-body once a head came.
            return sawResponseHead
                ? (.truncatedResponse, .networkConnectionLost, nil)
                : (.emptyResponse, .badServerResponse, nil)
        case is HTTPParserError:
            return (.malformedResponse, .cannotParseResponse, nil)
        case let error as NIOConnectionError:
            let refused = error.connectionErrors.first.map {
                classify(asyncHTTPClientError: $0.error, sawResponseHead: false)
            }
            return refused ?? (.cannotConnect, .cannotFindHost, nil)
        case let error as IOError:
            switch error.errnoCode {
            case ECONNREFUSED, EHOSTUNREACH, ENETUNREACH, EADDRNOTAVAIL:
                return (.cannotConnect, .cannotConnectToHost, nil)
            case ECONNRESET, EPIPE:
                return sawResponseHead
                    ? (.truncatedResponse, .networkConnectionLost, nil)
                    : (.connectionLost, .networkConnectionLost, nil)
            default:
                return (.other, .unknown, nil)
            }
        case ChannelError.connectTimeout:
            return (.cannotConnect, .cannotConnectToHost, nil)
        case ChannelError.eof, ChannelError.ioOnClosedChannel, ChannelError.outputClosed:
            return sawResponseHead
                ? (.truncatedResponse, .networkConnectionLost, nil)
                : (.emptyResponse, .badServerResponse, nil)
        default:
            return (.other, .unknown, nil)
        }
    }
}
#endif
