// URLSession and friends live in FoundationNetworking on Linux; re-exported so clients of
// RESTNetworking can name `URLRequest`/`HTTPURLResponse` without their own `#if`.
@_exported import Foundation
#if canImport(FoundationNetworking)
@_exported import FoundationNetworking
#endif
