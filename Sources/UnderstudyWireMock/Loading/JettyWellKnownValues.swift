import UnderstudyCore

extension HeaderValueForm {
    /// The form WireMock roots use for a header named `name`: Jetty's well-known values of that
    /// header in Jetty's spelling (``JettyWellKnownValues``), or `.asSent` when Jetty knows none.
    static func jetty(for name: String) -> HeaderValueForm {
        guard let values = JettyWellKnownValues.byHeader[name.lowercased()] else { return .asSent }
        return .canonical(Dictionary(values.map { ($0.lowercased(), $0) }, uniquingKeysWith: { _, last in last }))
    }
}

/// The header values Jetty 9.4's `HttpParser` (the one in the WireMock 2.35.1 jar) keeps in its
/// field cache, as it spells them: a request field equal to one of them, ignoring case, reaches
/// WireMock's matchers in this spelling. Where two entries differ only in case the later one wins
/// (the cache is a case-insensitive trie), so `; charset=utf-8` arrives as `; charset=UTF-8`.
enum JettyWellKnownValues {
    static let byHeader: [String: [String]] = {
        var table: [String: [String]] = [
            "connection": ["close", "keep-alive", "Upgrade"],
            "accept-encoding": ["gzip", "gzip, deflate", "gzip, deflate, br", "gzip,deflate,sdch"],
            "accept-language": [
                "en-US,en;q=0.5", "en-GB,en-US;q=0.8,en;q=0.6",
                "en-AU,en;q=0.9,it-IT;q=0.8,it;q=0.7,en-GB;q=0.6,en-US;q=0.5",
            ],
            "accept-charset": ["ISO-8859-1,utf-8;q=0.7,*;q=0.3"],
            "accept": [
                "*/*", "image/png,image/*;q=0.8,*/*;q=0.5",
                "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
                "text/html,application/xhtml+xml,application/xml;q=0.9,image/webp,image/apng,*/*;q=0.8",
            ],
            "accept-ranges": ["bytes"],
            "pragma": ["no-cache"],
            "cache-control": ["private, no-cache, no-cache=Set-Cookie, proxy-revalidate", "no-cache", "max-age=0"],
            "content-length": ["0"],
            "content-encoding": ["gzip", "deflate"],
            "transfer-encoding": ["chunked"],
            "expires": ["Fri, 01 Jan 1990 00:00:00 GMT"],
        ]
        var contentTypes: [String] = []
        for type in [
            "text/plain", "text/html", "text/xml", "text/json", "application/json",
            "application/x-www-form-urlencoded",
        ] {
            contentTypes.append(type)
            for charset in ["utf-8", "iso-8859-1"] {
                contentTypes += [
                    type + ";charset=" + charset, type + "; charset=" + charset,
                    type + ";charset=" + charset.uppercased(), type + "; charset=" + charset.uppercased(),
                ]
            }
        }
        table["content-type"] = contentTypes
        return table
    }()
}
