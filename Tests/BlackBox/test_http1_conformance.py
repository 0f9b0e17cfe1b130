"""HTTP/1.1 request-parsing conformance, from outside, with raw sockets (RFC 9112).

Every case is sent twice on fresh connections: whole, and split into one-byte writes. The client then
half-closes and reads until the daemon closes. For each case the test checks, through the daemon's own
journal (`GET /__admin/requests`), exactly which requests the server saw and where their bodies ended,
and on the wire, which statuses it answered: a refused request gets its 4xx/5xx, is journaled once with
the reason in its body, and nothing after it on the connection is read as a request (no smuggling).

Cases come from two places, each cited beside it:
- llhttp's request corpus (https://github.com/nodejs/llhttp, `test/request/*.md`), read as test data:
  the strict-mode (`"type": "request"`) cases, with CRLF line ends as llhttp's runner sends them;
- RFC 9112 sections (and RFC 9110 where it defines the field syntax), for the smuggling vectors and
  rules listed in the transport's issue and in docs/transport.md.
"""
import json
import socket
import tempfile
import time
import unittest

from Tests.BlackBox.blackbox import Daemon, request

SMUGGLED = b"GET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n"


def case(name, source, data, requests=(), refused=None, unread=False):
    """`requests`: (method, path, body) the server must see, in order; `refused`: the final status;
    `unread=True` for a refusal of bytes whose method and target could not be read: it is journaled
    all the same (every answered request is), with an empty method and path."""
    return dict(name=name, source=source, data=data, requests=list(requests), refused=refused, unread=unread)


CASES = [
    # --- Framing that must be read exactly (accepted) ---
    case("content-length body then pipelined request", "RFC 9112 §6.2",
         b"POST /c/a HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhelloGET /c/b HTTP/1.1\r\nHost: x\r\n\r\n",
         [("POST", "/c/a", "hello"), ("GET", "/c/b", "")]),
    case("chunked with lowercase size", "llhttp test/request/transfer-encoding.md: Parse chunks with lowercase size",
         b"PUT /c/url HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\na\r\n0123456789\r\n0\r\n\r\n",
         [("PUT", "/c/url", "0123456789")]),
    case("chunked with uppercase size", "llhttp test/request/transfer-encoding.md: Parse chunks with uppercase size",
         b"PUT /c/url HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nA\r\n0123456789\r\n0\r\n\r\n",
         [("PUT", "/c/url", "0123456789")]),
    case("two chunks and a triple-zero last chunk", "llhttp test/request/transfer-encoding.md: Two chunks and triple zero prefixed end chunk",
         b"POST /c/two HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n000\r\n\r\n",
         [("POST", "/c/two", "hello world")]),
    case("trailer fields", "llhttp test/request/transfer-encoding.md: Trailing headers; RFC 9112 §7.1.2",
         b"POST /c/trailers HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n"
         b"Vary: *\r\nContent-Type: text/plain\r\n\r\n" + SMUGGLED,
         [("POST", "/c/trailers", "hello world"), ("GET", "/smuggled", "")]),
    case("chunk extensions", "llhttp test/request/transfer-encoding.md: Chunk extensions; RFC 9112 §7.1.1",
         b"POST /c/ext HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
         b"5;ilovew3;somuchlove=aretheseparametersfor;another=withvalue\r\nhello\r\n6;blahblah;blah\r\n world\r\n0\r\n\r\n",
         [("POST", "/c/ext", "hello world")]),
    case("chunk extension 5;foo=bar", "RFC 9112 §7.1.1 (refused with 413 before this transport)",
         b"POST /c/ext HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5;foo=bar\r\nhello\r\n0\r\n\r\n",
         [("POST", "/c/ext", "hello")]),
    case("HEAD with a body", "RFC 9112 §6.3 (the body of any method is framed by its fields)",
         b"HEAD /c/head HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello" + SMUGGLED,
         [("HEAD", "/c/head", "hello"), ("GET", "/smuggled", "")]),
    case("TRACE with a body", "RFC 9112 §6.3",
         b"TRACE /c/trace HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello" + SMUGGLED,
         [("TRACE", "/c/trace", "hello"), ("GET", "/smuggled", "")]),
    case("CRLF before the request line", "RFC 9112 §2.2 (a server SHOULD ignore at least one empty line)",
         b"\r\nGET /c/after-crlf HTTP/1.1\r\nHost: x\r\n\r\n",
         [("GET", "/c/after-crlf", "")]),
    case("identical Content-Length values", "RFC 9110 §8.6; RFC 9112 §6.3",
         b"POST /c/same HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\nhello",
         [("POST", "/c/same", "hello")]),
    case("HTTP/1.0 without Host", "RFC 9112 §3.2 (Host is required of HTTP/1.1 only)",
         b"GET /c/old HTTP/1.0\r\n\r\n", [("GET", "/c/old", "")]),
    case("pipelined requests", "llhttp test/request/pipelining.md",
         b"POST /c/1 HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nAAA\r\nPOST /c/2 HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nBBB",
         [("POST", "/c/1", "AAA"), ("POST", "/c/2", "BBB")]),

    # --- Chunk sizes (RFC 9112 §7.1: chunk-size = 1*HEXDIG) ---
    case("chunk size 0x5", "RFC 9112 §7.1",
         b"POST /c/x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0x5\r\nhello\r\n0\r\n\r\n" + SMUGGLED, refused=400),
    case("chunk size +5", "RFC 9112 §7.1",
         b"POST /c/x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n+5\r\nhello\r\n0\r\n\r\n" + SMUGGLED, refused=400),
    case("chunk size with leading space", "RFC 9112 §7.1",
         b"POST /c/x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n 5\r\nhello\r\n0\r\n\r\n" + SMUGGLED, refused=400),
    case("chunk size followed by junk without ;", "llhttp test/request/transfer-encoding.md: No semicolon before chunk extensions",
         b"POST /c/x HTTP/1.1\r\nHost: localhost\r\nTransfer-encoding: chunked\r\n\r\n2 erfrferferf\r\naa\r\n0 rrrr\r\n\r\n" + SMUGGLED,
         refused=400),
    case("overflowing chunk size", "RFC 9112 §7.1 (an over-long size must not wrap)",
         b"POST /c/x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n10000000000000005\r\nhello\r\n0\r\n\r\n" + SMUGGLED,
         refused=400),
    case("bare-LF chunk line", "RFC 9112 §7.1 (chunk lines end in CRLF)",
         b"POST /c/x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\nhello\r\n0\r\n\r\n" + SMUGGLED, refused=400),
    case("chunk data shorter than its size", "RFC 9112 §7.1",
         b"POST /c/x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n9\r\nhello\r\n0\r\n\r\n" + SMUGGLED, refused=400),
    case("chunk data longer than its size", "RFC 9112 §7.1",
         b"POST /c/x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nhello\r\n0\r\n\r\n" + SMUGGLED, refused=400),

    # --- Transfer-Encoding (RFC 9112 §6.1, §6.3) ---
    case("Transfer-Encoding xchunked", "RFC 9112 §6.3 (a final coding other than chunked)",
         b"POST /c/x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: xchunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n" + SMUGGLED, refused=400),
    case("Transfer-Encoding pigeons", "llhttp test/request/transfer-encoding.md: Ignoring `pigeons`",
         b"PUT /c/url HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: pigeons\r\n\r\n" + SMUGGLED, refused=400),
    case("Transfer-Encoding \\x0bchunked", "RFC 9110 §5.5 (a control character in a field value)",
         b"POST /c/x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: \x0bchunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n" + SMUGGLED, refused=400),
    case("Transfer-Encoding chunked x", "RFC 9112 §6.1 (not a list of codings)",
         b"POST /c/x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked x\r\n\r\n5\r\nhello\r\n0\r\n\r\n" + SMUGGLED, refused=400),
    case("folded Transfer-Encoding", "RFC 9112 §5.2 (obs-fold)",
         b"POST /c/x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding:\r\n chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n" + SMUGGLED, refused=400),
    case("empty Transfer-Encoding with Content-Length", "llhttp test/request/transfer-encoding.md: Empty `Transfer-Encoding` with `Content-Length`",
         b"POST /c/first HTTP/1.1\r\nHost: x\r\nTransfer-Encoding:\r\nContent-Length: 5\r\n\r\nhello" + SMUGGLED, refused=400),
    case("Transfer-Encoding and Content-Length", "llhttp test/request/transfer-encoding.md: POST with `Transfer-Encoding` and `Content-Length`; RFC 9112 §6.1",
         b"POST /c/x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n" + SMUGGLED, refused=400),
    case("chunked not last", "RFC 9112 §6.3",
         b"POST /c/x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, gzip\r\n\r\n5\r\nhello\r\n0\r\n\r\n" + SMUGGLED, refused=400),
    case("unsupported coding before chunked", "RFC 9112 §6.1 (501 for a coding the server does not understand)",
         b"POST /c/x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n" + SMUGGLED, refused=501),
    case("HTTP/1.0 with chunked framing", "RFC 9112 §6.1 (an HTTP/1.0 message with Transfer-Encoding has faulty framing)",
         b"POST /c/x HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n" + SMUGGLED, refused=400),

    # --- Field names and values (RFC 9112 §5, RFC 9110 §5) ---
    case("Content-Length : 5", "RFC 9112 §5.1 (no whitespace between name and colon)",
         b"POST /c/x HTTP/1.1\r\nHost: x\r\nContent-Length : 5\r\n\r\nhello" + SMUGGLED, refused=400),
    case("Transfer-Encoding : chunked", "RFC 9112 §5.1",
         b"POST /c/x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding : chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n" + SMUGGLED, refused=400),
    case("obs-fold", "RFC 9112 §5.2",
         b"GET /c/x HTTP/1.1\r\nHost: x\r\nX-Folded: a\r\n b\r\n\r\n" + SMUGGLED, refused=400),
    case("invalid field name", "RFC 9110 §5.1 (field-name = token)",
         b"GET /c/x HTTP/1.1\r\nHost: x\r\nBad(Name): v\r\n\r\n" + SMUGGLED, refused=400),
    case("NUL in a field value", "RFC 9110 §5.5",
         b"GET /c/x HTTP/1.1\r\nHost: x\r\nX-A: a\x00b\r\n\r\n" + SMUGGLED, refused=400),
    case("bare CR in a field value", "RFC 9112 §2.2",
         b"GET /c/x HTTP/1.1\r\nHost: x\r\nX-A: a\rb\r\n\r\n" + SMUGGLED, refused=400),
    case("bare LF line end", "RFC 9112 §2.2 (this server takes CRLF only)",
         b"GET /c/x HTTP/1.1\r\nHost: x\nX-A: b\r\n\r\n" + SMUGGLED, refused=400),
    case("field line without a colon", "llhttp test/request/invalid.md; RFC 9112 §5",
         b"GET /c/x HTTP/1.1\r\nHost: x\r\nNoColonHere\r\n\r\n" + SMUGGLED, refused=400),

    # --- Content-Length (RFC 9110 §8.6, RFC 9112 §6.3) ---
    case("Content-Length +5", "RFC 9110 §8.6 (Content-Length = 1*DIGIT)",
         b"POST /c/x HTTP/1.1\r\nHost: x\r\nContent-Length: +5\r\n\r\nhello" + SMUGGLED, refused=400),
    case("Content-Length -5", "RFC 9110 §8.6",
         b"POST /c/x HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\nhello" + SMUGGLED, refused=400),
    case("conflicting Content-Length values", "RFC 9112 §6.3",
         b"POST /c/x HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!" + SMUGGLED, refused=400),
    case("conflicting Content-Length list", "RFC 9112 §6.3",
         b"POST /c/x HTTP/1.1\r\nHost: x\r\nContent-Length: 5, 6\r\n\r\nhello!" + SMUGGLED, refused=400),
    case("Content-Length with leading zeros and trailing space", "RFC 9110 §8.6 (1*DIGIT; OWS around a field value is not part of it)",
         b"PUT /c/url HTTP/1.1\r\nHost: x\r\nContent-Length: 003 \r\n\r\n" + b"abc" + SMUGGLED,
         [("PUT", "/c/url", "abc"), ("GET", "/smuggled", "")]),
    case("Content-Length with a space inside", "llhttp test/request/content-length.md: Spaces in `Content-Length` (surrounding)",
         b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 4 2\r\n\r\n" + SMUGGLED, refused=400),
    case("overflowing Content-Length", "llhttp test/request/content-length.md: Content-Length overflow",
         b"PUT /c/url HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000000000000000000\r\n\r\n" + SMUGGLED, refused=400),

    # --- Host (RFC 9112 §3.2) ---
    case("HTTP/1.1 without Host", "RFC 9112 §3.2",
         b"GET /c/x HTTP/1.1\r\nX-A: b\r\n\r\n" + SMUGGLED, refused=400),
    case("two Host fields", "RFC 9112 §3.2",
         b"GET /c/x HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n" + SMUGGLED, refused=400),

    # --- Request line (RFC 9112 §3) ---
    case("two spaces after the method", "RFC 9112 §3",
         b"GET  /c/x HTTP/1.1\r\nHost: x\r\n\r\n" + SMUGGLED, refused=400, unread=True),
    case("a TLS ClientHello on the plain port", "RFC 9112 §3 (no method token: not a request line at all)",
         b"\x16\x03\x01\x00\xa5\x01\x00\x00\xa1\x03\x03" + SMUGGLED, refused=400, unread=True),
    case("a control byte where the method starts", "RFC 9110 §9.1 (a method is a token); RFC 9112 §3",
         b"\x01GET /c/x HTTP/1.1\r\nHost: x\r\n\r\n" + SMUGGLED, refused=400, unread=True),
    case("HTTP/2.0 request line", "RFC 9112 §2.3 (505 for an unsupported major version)",
         b"GET /c/x HTTP/2.0\r\nHost: x\r\n\r\n" + SMUGGLED, refused=505),
    case("lowercase http in the version", "llhttp test/request/invalid.md; RFC 9112 §2.3 (HTTP-name is case-sensitive)",
         b"GET /c/x http/1.1\r\nHost: x\r\n\r\n" + SMUGGLED, refused=400),

    # --- Issue 39: rules added or relaxed after the independent HTTP/1.1 corpus ---
    # Chunk extensions follow RFC 9112 §7.1.1's grammar exactly:
    # chunk-ext = *( BWS ";" BWS chunk-ext-name [ BWS "=" BWS chunk-ext-val ] ), chunk-ext-val = token / quoted-string.
    case("; with no extension name", "llhttp test/request/transfer-encoding.md: No extension after semicolon; RFC 9112 §7.1.1",
         b"POST /c/x HTTP/1.1\r\nHost: localhost\r\nTransfer-encoding: chunked\r\n\r\n2;\r\naa\r\n0\r\n\r\n" + SMUGGLED, refused=400),
    case("; and whitespace with no extension name", "RFC 9112 §7.1.1 (BWS around `;`, then a chunk-ext-name is required)",
         b"POST /c/x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5 ; \r\nhello\r\n0\r\n\r\n" + SMUGGLED, refused=400),
    case("; with no name on the last chunk", "RFC 9112 §7.1.1 (last-chunk = 1*\"0\" [ chunk-ext ] CRLF)",
         b"POST /c/x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0;\r\n\r\n" + SMUGGLED, refused=400),
    case("chunk extension with = and no value", "RFC 9112 §7.1.1 (chunk-ext-val = token / quoted-string)",
         b"POST /c/x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5;a=\r\nhello\r\n0\r\n\r\n" + SMUGGLED, refused=400),
    case("chunk extension value with a space in a token", "RFC 9112 §7.1.1 (an unquoted value is a token)",
         b"POST /c/x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5;a=b c\r\nhello\r\n0\r\n\r\n" + SMUGGLED, refused=400),
    case("unbalanced chunk extension quoting", "llhttp test/request/transfer-encoding.md: Unbalanced chunk extensions quoting; RFC 9110 §5.6.4",
         b"POST /c/x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
         b"5;ilovew3=\"abc\";somuchlove=\"def; ghi\r\nhello\r\n6;blahblah;blah\r\n world\r\n0\r\n\r\n" + SMUGGLED, refused=400),
    case("chunk extension 5;ext=value", "RFC 9112 §7.1.1 (a recipient MUST ignore unrecognized chunk extensions)",
         b"POST /c/ext HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=value\r\nhello\r\n0\r\n\r\n" + SMUGGLED,
         [("POST", "/c/ext", "hello"), ("GET", "/smuggled", "")]),
    case("quoted chunk extension 5;ext=\"a b\"", "RFC 9112 §7.1.1; RFC 9110 §5.6.4 (quoted-string)",
         b"POST /c/ext HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=\"a b\"\r\nhello\r\n0\r\n\r\n" + SMUGGLED,
         [("POST", "/c/ext", "hello"), ("GET", "/smuggled", "")]),
    case("chunk extensions with BWS around ; and =", "RFC 9112 §7.1.1 (BWS before and after `;` and `=`)",
         b"POST /c/ext HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5 ; a = b\t;\tc\r\nhello\r\n0 ; d=\"e\"\r\n\r\n" + SMUGGLED,
         [("POST", "/c/ext", "hello"), ("GET", "/smuggled", "")]),
    case("chunk extensions quoting", "llhttp test/request/transfer-encoding.md: Chunk extensions quoting (Host added, RFC 9112 §3.2)",
         b"POST /chunked_w_unicorns_after_length HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
         b"5;ilovew3=\"I \\\"love\\\"; \\\\extensions\\\\\";somuchlove=\"aretheseparametersfor\";blah;foo=bar\r\nhello\r\n"
         b"6;blahblah;blah\r\n world\r\n0\r\n\r\n",
         [("POST", "/chunked_w_unicorns_after_length", "hello world")]),
    case("chunked head, then its last chunk", "llhttp test/request/transfer-encoding.md: Parsing and setting flag (Host added, RFC 9112 §3.2; "
         "the head alone is a complete head with chunked framing, and the body follows)",
         b"PUT /url HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n" + b"0\r\n\r\n" + SMUGGLED,
         [("PUT", "/url", ""), ("GET", "/smuggled", "")]),
    # Content-Length: OWS around a field value is not part of it (RFC 9110 §5.5); whitespace inside the
    # number, or a list of differing values, is still refused (the cases above).
    case("Content-Length with spaces around its value", "RFC 9110 §5.5; RFC 9110 §8.6",
         b"POST /c/cl HTTP/1.1\r\nHost: x\r\nContent-Length:  5 \r\n\r\nhello" + SMUGGLED,
         [("POST", "/c/cl", "hello"), ("GET", "/smuggled", "")]),
    case("Content-Length with tabs around its value", "RFC 9110 §5.5 (OWS is SP or HTAB)",
         b"POST /c/cl HTTP/1.1\r\nHost: x\r\nContent-Length:\t5\t\r\n\r\nhello" + SMUGGLED,
         [("POST", "/c/cl", "hello"), ("GET", "/smuggled", "")]),
    case("Content-Length list of differing values with OWS", "RFC 9112 §6.3",
         b"POST /c/x HTTP/1.1\r\nHost: x\r\nContent-Length:  5 ,\t6 \r\n\r\nhello!" + SMUGGLED, refused=400),
    # HTTP-version: a higher minor version of HTTP/1 is processed as 1.1 (RFC 9110 §2.5); another major is 505.
    case("HTTP/1.2 request line", "RFC 9110 §2.5 (a higher minor version is processed as the highest one implemented)",
         b"GET /c/v12 HTTP/1.2\r\nHost: x\r\n\r\nPOST /c/after HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nok",
         [("GET", "/c/v12", ""), ("POST", "/c/after", "ok")]),
    case("HTTP/1.9 request line without Host", "RFC 9110 §2.5; RFC 9112 §3.2 (processed as 1.1, so Host is required)",
         b"GET /c/v19 HTTP/1.9\r\n\r\n" + SMUGGLED, refused=400),
    case("HTTP/3.0 request line", "RFC 9112 §2.3; RFC 9110 §15.6.6 (505 for an unsupported major version)",
         b"GET /c/x HTTP/3.0\r\nHost: x\r\n\r\n" + SMUGGLED, refused=505),
    # Host = uri-host [ ":" port ] (RFC 9112 §3.2: a server MUST answer 400 to an invalid one; RFC 3986 §3.2.2, §3.2.3).
    case("Host with a /", "RFC 9112 §3.2; RFC 3986 §3.2.2 (reg-name has no `/`)",
         b"GET /c/x HTTP/1.1\r\nHost: a/b\r\n\r\n" + SMUGGLED, refused=400),
    case("Host with userinfo", "RFC 9112 §3.2 (uri-host [\":\" port], no userinfo); RFC 3986 §3.2.2",
         b"GET /c/x HTTP/1.1\r\nHost: user@x\r\n\r\n" + SMUGGLED, refused=400),
    case("Host with a space inside", "RFC 9112 §3.2; RFC 3986 §3.2.2",
         b"GET /c/x HTTP/1.1\r\nHost: a b\r\n\r\n" + SMUGGLED, refused=400),
    case("Host with characters outside the grammar", "RFC 9112 §3.2; RFC 3986 §3.2.2",
         b"GET /c/x HTTP/1.1\r\nHost: <x>\"{}\r\n\r\n" + SMUGGLED, refused=400),
    case("Host with raw UTF-8", "RFC 9112 §3.2; RFC 3986 §3.2.2 (a reg-name is ASCII; others are percent-encoded)",
         "GET /c/x HTTP/1.1\r\nHost: caf\u00e9.example\r\n\r\n".encode() + SMUGGLED, refused=400),
    case("Host with a port that is not a number", "RFC 9112 §3.2; RFC 3986 §3.2.3 (port = *DIGIT)",
         b"GET /c/x HTTP/1.1\r\nHost: x:8o\r\n\r\n" + SMUGGLED, refused=400),
    case("Host with a bad percent-encoding", "RFC 9112 §3.2; RFC 3986 §2.1 (pct-encoded = \"%\" HEXDIG HEXDIG)",
         b"GET /c/x HTTP/1.1\r\nHost: a%zz\r\n\r\n" + SMUGGLED, refused=400),
    case("Host with a bad IP literal", "RFC 9112 §3.2; RFC 3986 §3.2.2 (IP-literal = \"[\" ( IPv6address / IPvFuture ) \"]\")",
         b"GET /c/x HTTP/1.1\r\nHost: [1:2:3]:80\r\n\r\n" + SMUGGLED, refused=400),
    case("Host with text after an IP literal", "RFC 9112 §3.2; RFC 3986 §3.2.2",
         b"GET /c/x HTTP/1.1\r\nHost: [::1]x\r\n\r\n" + SMUGGLED, refused=400),
    case("valid Host forms", "RFC 9112 §3.2; RFC 3986 §3.2.2 (reg-name, IPv4, IPv6 and IPvFuture literals, a port, empty)",
         b"GET /c/h1 HTTP/1.1\r\nHost: ex-am_ple.test.:8080\r\n\r\n"
         b"GET /c/h2 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
         b"GET /c/h3 HTTP/1.1\r\nHost: [::1]:80\r\n\r\n"
         b"GET /c/h4 HTTP/1.1\r\nHost: [2001:db8::ffff:192.0.2.1]\r\n\r\n"
         b"GET /c/h5 HTTP/1.1\r\nHost: [v1.fe80::a+en1]\r\n\r\n"
         b"GET /c/h6 HTTP/1.1\r\nHost: %41b!$&'()*+,;=~\r\n\r\n"
         b"GET /c/h7 HTTP/1.1\r\nHost:\r\n\r\n",
         [("GET", "/c/h%d" % number, "") for number in range(1, 8)]),
    # request-target: ASCII only (RFC 3986 §2.1; llhttp's strict mode refuses other bytes).
    case("raw UTF-8 in the request target", "llhttp test/request/uri.md: Disallow UTF-8 in URI path in strict mode; RFC 3986 §2.1",
         "GET /\u03b4\u00b6/\u03b4t/pope?q=1#narf HTTP/1.1\r\nHost: github.com\r\n\r\n".encode() + SMUGGLED, refused=400),
    case("raw UTF-8 in a short request target", "RFC 3986 §2.1; RFC 9112 §3.2",
         "GET /caf\u00e9 HTTP/1.1\r\nHost: x\r\n\r\n".encode() + SMUGGLED, refused=400),
    case("a raw non-UTF-8 byte in the query", "RFC 3986 §2.1, §3.4; RFC 9112 §3.2",
         b"GET /c/x?q=\xff HTTP/1.1\r\nHost: x\r\n\r\n" + SMUGGLED, refused=400),
    case("percent-encoded UTF-8 in the request target", "RFC 3986 §2.1 (the encoded form is accepted)",
         b"GET /caf%C3%A9 HTTP/1.1\r\nHost: x\r\n\r\n", [("GET", "/caf%C3%A9", "")]),
]


class HTTP1ConformanceTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.TemporaryDirectory(prefix="understudy-h1-")
        with open(f"{cls.work.name}/stubs.json", "w") as stubs:
            stubs.write('{"stubs":[{"id":"ok","request":{"method":"GET","path":"/ok"},"responses":[{"status":200,"body":"ok"}]}]}')
        cls.daemon = Daemon([f"{cls.work.name}/stubs.json", "--quiet", "--idle-timeout", "10"], f"{cls.work.name}/stderr.log")

    @classmethod
    def tearDownClass(cls):
        cls.daemon.stop()
        cls.work.cleanup()

    def exchange(self, data, bytewise):
        with socket.create_connection(("127.0.0.1", self.daemon.port), timeout=10) as sock:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            try:
                if bytewise:
                    for index in range(len(data)):
                        sock.sendall(data[index:index + 1])
                else:
                    sock.sendall(data)
                sock.shutdown(socket.SHUT_WR)
            except OSError:
                pass  # the server refused and closed before the rest was sent
            received = bytearray()
            deadline = time.monotonic() + 10
            try:
                while time.monotonic() < deadline:
                    chunk = sock.recv(65536)
                    if not chunk:
                        break
                    received += chunk
            except ConnectionResetError:
                pass
        return bytes(received)

    def journal(self):
        status, _, body = request(self.daemon.port, "GET", "/__admin/requests")
        self.assertEqual(status, 200)
        entries = json.loads(body)["requests"]
        return sorted(entries, key=lambda entry: entry["seq"])

    def clear(self):
        status, _, _ = request(self.daemon.port, "DELETE", "/__admin/requests")
        self.assertEqual(status, 200)

    @staticmethod
    def statuses(data):
        """The statuses of the responses in `data`, read one after another by their Content-Length."""
        found = []
        while data.startswith(b"HTTP/1.1 "):
            head, separator, rest = data.partition(b"\r\n\r\n")
            if not separator:
                break
            lines = head.split(b"\r\n")
            found.append(int(lines[0][9:12]))
            length = 0
            for line in lines[1:]:
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value.strip())
            data = rest[length:]
        return found

    def check(self, spec, bytewise):
        self.clear()
        received = self.exchange(spec["data"], bytewise)
        statuses = self.statuses(received)
        entries = [entry for entry in self.journal() if not entry["path"].startswith("/__admin")]
        seen = [(entry["method"], entry["path"], entry.get("body", "")) for entry in entries if entry["outcome"] != "refused"]
        refusals = [entry for entry in entries if entry["outcome"] == "refused"]
        where = f"{spec['name']} ({spec['source']}){' one byte at a time' if bytewise else ''}: wire {received[:600]!r}"
        self.assertEqual(seen, spec["requests"], where)
        if spec["refused"] is None:
            self.assertEqual(len(statuses), len(spec["requests"]), where)
            self.assertEqual(refusals, [], where)
        else:
            self.assertTrue(statuses, where)
            self.assertEqual(statuses[-1], spec["refused"], where)
            self.assertEqual(len(statuses), len(spec["requests"]) + 1, where)
            self.assertEqual(len(refusals), 1, where)  # journaled exactly once, even with no method read
            for refusal in refusals:
                self.assertEqual(refusal["response"]["status"], spec["refused"], where)
                self.assertTrue(refusal["reason"], where)
                if spec["unread"]:
                    self.assertEqual((refusal["method"], refusal["path"]), ("", ""), where)
                    # The journal's reason is the sentence the client got in the 400's body.
                    self.assertIn(refusal["reason"].encode(), received, where)
            self.assertNotIn(b"/smuggled", b"".join(entry["path"].encode() for entry in entries), where)
            # The refusal says why, in its body.
            body = received.rsplit(b"\r\n\r\n", 1)[-1]
            self.assertTrue(body.strip(), where)

    def test_every_case_whole(self):
        for spec in CASES:
            with self.subTest(spec["name"]):
                self.check(spec, bytewise=False)

    def test_every_case_one_byte_at_a_time(self):
        for spec in CASES:
            with self.subTest(spec["name"]):
                self.check(spec, bytewise=True)

    def test_refusal_names_the_rule_on_the_wire_and_in_the_journal(self):
        self.clear()
        received = self.exchange(b"POST /c/why HTTP/1.1\r\nHost: x\r\nContent-Length : 5\r\n\r\nhello", bytewise=False)
        self.assertIn(b"whitespace before the colon in `Content-Length`", received)
        entries = [entry for entry in self.journal() if entry["path"] == "/c/why"]
        self.assertEqual(len(entries), 1)
        self.assertEqual(entries[0]["method"], "POST")
        self.assertEqual(entries[0]["outcome"], "refused")
        self.assertEqual(entries[0]["response"]["status"], 400)
        self.assertEqual(entries[0]["reason"], "whitespace before the colon in `Content-Length` (RFC 9112 §5.1)")

    def test_host_and_target_refusals_are_journaled_with_their_reason(self):
        """Issue 39, item 7: an invalid Host (RFC 9112 §3.2) and a raw non-ASCII target (RFC 3986 §2.1) are
        refused like every other rule: 400 with the rule in the body, journaled once as `refused` with the
        method and the target as sent, and the same sentence as the journal's reason."""
        for data, path, reason in [
            (b"GET /c/host HTTP/1.1\r\nHost: a/b\r\n\r\n", "/c/host",
             "the Host value `a/b` is not `host[:port]`: `/` cannot appear in a host name (RFC 3986 §3.2.2, RFC 9112 §3.2)"),
            (b"GET /c/port HTTP/1.1\r\nHost: x:8o\r\n\r\n", "/c/port",
             "the Host value `x:8o` has a port that is not a number (RFC 3986 §3.2.3, RFC 9112 §3.2)"),
            ("GET /c/caf\u00e9 HTTP/1.1\r\nHost: x\r\n\r\n".encode(), "/c/caf\u00e9",
             "the request target has a raw non-ASCII byte 0xC3; bytes outside ASCII must be percent-encoded "
             "(RFC 3986 §2.1, RFC 9112 §3.2)"),
        ]:
            with self.subTest(path):
                self.clear()
                received = self.exchange(data, bytewise=False)
                self.assertTrue(received.startswith(b"HTTP/1.1 400 "), received)
                self.assertIn(reason.encode(), received)
                entries = [entry for entry in self.journal() if not entry["path"].startswith("/__admin")]
                self.assertEqual(len(entries), 1, entries)
                self.assertEqual((entries[0]["method"], entries[0]["path"]), ("GET", path))
                self.assertEqual(entries[0]["outcome"], "refused")
                self.assertEqual(entries[0]["response"]["status"], 400)
                self.assertEqual(entries[0]["reason"], reason)

    def test_http_1_2_is_answered_as_http_1_1(self):
        """RFC 9110 §2.5: an HTTP/1.2 request is processed as HTTP/1.1 (the reply is HTTP/1.1 and the
        connection stays open, as an HTTP/1.1 one does)."""
        with socket.create_connection(("127.0.0.1", self.daemon.port), timeout=10) as sock:
            sock.sendall(b"GET /ok HTTP/1.2\r\nHost: x\r\n\r\n")
            reply = b""
            while not reply.endswith(b"\r\n\r\nok"):
                chunk = sock.recv(65536)
                self.assertTrue(chunk, reply)
                reply += chunk
            self.assertTrue(reply.startswith(b"HTTP/1.1 200 "), reply)
            self.assertNotIn(b"connection: close", reply.lower())
            sock.sendall(b"GET /ok HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            rest = b""
            while True:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                rest += chunk
        self.assertTrue(rest.startswith(b"HTTP/1.1 200 "), rest)

    def test_expect_100_continue_gets_an_interim_response(self):
        with socket.create_connection(("127.0.0.1", self.daemon.port), timeout=10) as sock:
            sock.sendall(b"POST /c/continue HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n")
            interim = sock.recv(100)
            self.assertEqual(interim, b"HTTP/1.1 100 Continue\r\n\r\n")
            sock.sendall(b"hello")
            sock.shutdown(socket.SHUT_WR)
            rest = b""
            while True:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                rest += chunk
        self.assertTrue(rest.startswith(b"HTTP/1.1 404 "), rest)


if __name__ == "__main__":
    unittest.main()
