import Foundation

/// Blocking JSON reads over a raw socket, for tests that run on plain threads.
enum HTTPClientSync {
    static func json(port: Int, _ path: String, method: String = "GET", body: String = "") throws -> [String: Any]? {
        let connection = try RawConnection(port: port)
        connection.send(
            "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
        guard let response = connection.readResponse() else { return nil }
        return try JSONSerialization.jsonObject(with: Data(response.body.utf8)) as? [String: Any]
    }
}
