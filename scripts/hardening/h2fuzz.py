"""The HTTP/2 mode of scripts/netfuzz (`--http2`): broken prefaces, bad frames, a SETTINGS flood, a PING
flood, a HEADERS + CONTINUATION flood (the 2024 CONTINUATION-flood class), rapid reset (CVE-2023-44487)
and random mutations of a valid HTTP/2 exchange, each on its own h2c connection. The daemon must close
the connection (or answer with GOAWAY / RST_STREAM) within the time limit, stay up, stay bounded in
memory, and keep answering other clients (HTTP/1.1 and HTTP/2) while it is being flooded.

Frames are written with `hyperframe` and `hpack` (installed with the `h2` package)."""
import socket
import threading
import time

import hpack
import hyperframe.frame as frames

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"


def frame_bytes(frame):
    return frame.serialize()


def settings(*pairs):
    frame = frames.SettingsFrame(0)
    for key, value in pairs:
        frame.settings[key] = value
    return frame_bytes(frame)


def headers_block(encoder, path="/ok"):
    return encoder.encode([(":method", "GET"), (":path", path), (":scheme", "http"), (":authority", "127.0.0.1")])


def headers(stream_id, block, end_stream=True, end_headers=True):
    frame = frames.HeadersFrame(stream_id)
    frame.data = block
    if end_stream:
        frame.flags.add("END_STREAM")
    if end_headers:
        frame.flags.add("END_HEADERS")
    return frame_bytes(frame)


def raw_frame(kind, flags, stream_id, payload):
    """A frame header written by hand, for frames hyperframe would refuse to build."""
    return len(payload).to_bytes(3, "big") + bytes([kind, flags]) + stream_id.to_bytes(4, "big") + payload


def valid_exchange():
    encoder = hpack.Encoder()
    return PREFACE + settings() + headers(1, headers_block(encoder))


def handwritten():
    """(name, bytes): inputs after which the server must answer or close, and serve others."""
    encoder = hpack.Encoder()
    block = headers_block(encoder)
    start = PREFACE + settings()
    return [
        ("preface with a wrong magic", b"PRI * HTTP/2.0\r\n\r\nXX\r\n\r\n" + settings()),
        ("preface cut short", PREFACE[:20]),
        ("preface then garbage", PREFACE + b"\x00\xff" * 64),
        ("preface without SETTINGS", PREFACE + headers(1, block)),
        ("frame longer than SETTINGS_MAX_FRAME_SIZE", start + raw_frame(0x0, 0, 1, b"x" * 20000)),
        ("DATA on stream 0", start + raw_frame(0x0, 0, 0, b"data")),
        ("HEADERS on an even stream", start + headers(2, block)),
        ("HEADERS with a broken HPACK block", start + raw_frame(0x1, 0x5, 1, b"\xff\xff\xff\xff\xff\x7f")),
        ("HEADERS without :path", start + headers(1, hpack.Encoder().encode([(":method", "GET"), (":scheme", "http")]))),
        ("SETTINGS with a bad length", start + raw_frame(0x4, 0, 0, b"\x00\x03\x00")),
        ("SETTINGS on a stream", start + raw_frame(0x4, 0, 1, b"")),
        ("WINDOW_UPDATE of 0", start + raw_frame(0x8, 0, 0, b"\x00\x00\x00\x00")),
        ("PING of 7 bytes", start + raw_frame(0x6, 0, 0, b"1234567")),
        ("RST_STREAM on an idle stream", start + raw_frame(0x3, 0, 9, b"\x00\x00\x00\x08")),
        ("CONTINUATION without HEADERS", start + raw_frame(0x9, 0x4, 1, block)),
        ("an unknown frame type (ignored)", start + raw_frame(0xfa, 0, 0, b"whatever") + headers(1, block)),
        ("DATA past the flow-control window", start + headers(1, headers_block(hpack.Encoder(), "/post"), end_stream=False)
         + b"".join(raw_frame(0x0, 0, 1, b"b" * 16000) for _ in range(80)) + raw_frame(0x0, 0x1, 1, b"")),
        ("a window overflow", start + raw_frame(0x8, 0, 0, (0x7fffffff).to_bytes(4, "big")) * 2),
    ]


def settings_flood(count=20000):
    return PREFACE + settings() + settings((frames.SettingsFrame.MAX_CONCURRENT_STREAMS, 100)) * count


def ping_flood(count=20000):
    return PREFACE + settings() + raw_frame(0x6, 0, 0, b"12345678") * count


def continuation_flood(count=20000):
    encoder = hpack.Encoder()
    first = headers(1, headers_block(encoder), end_headers=False)
    filler = encoder.encode([("x-filler", "a" * 100)])
    return PREFACE + settings() + first + raw_frame(0x9, 0, 1, filler) * count


def rapid_reset(count=20000):
    """HEADERS then RST_STREAM CANCEL, stream after stream (CVE-2023-44487)."""
    encoder = hpack.Encoder()
    out = [PREFACE, settings()]
    for index in range(count):
        stream = 1 + 2 * index
        out.append(headers(stream, headers_block(encoder)))
        out.append(raw_frame(0x3, 0, stream, b"\x00\x00\x00\x08"))
    return b"".join(out)


def goaway_code(data):
    """The error code of the first GOAWAY in `data` (frames after the server's preface), or None."""
    offset = 0
    while offset + 9 <= len(data):
        length = int.from_bytes(data[offset:offset + 3], "big")
        kind = data[offset + 3]
        if kind == 0x7 and offset + 9 + 8 <= len(data):
            return int.from_bytes(data[offset + 13:offset + 17], "big")
        offset += 9 + length
    return None


def exchange(port, data, read_timeout):
    """Sends `data` (as far as the server reads it), half-closes, reads until the server closes.
    Returns (bytes received, outcome: 'closed' or 'hung')."""
    with socket.create_connection(("127.0.0.1", port), timeout=read_timeout) as sock:
        received = bytearray()
        sock.settimeout(read_timeout)
        try:
            sock.sendall(data)
            sock.shutdown(socket.SHUT_WR)
        except OSError:  # the server closed first (GOAWAY, then close)
            pass
        try:
            while True:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                received += chunk
        except ConnectionResetError:
            pass
        except socket.timeout:
            return bytes(received), "hung"
    return bytes(received), "closed"


def h2_get(port, timeout=5):
    """One GET /ok over h2c: (status, body)."""
    import h2.config
    import h2.connection
    import h2.events
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        conn = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=True))
        conn.initiate_connection()
        conn.send_headers(1, [(":method", "GET"), (":path", "/ok"), (":scheme", "http"), (":authority", "x")],
                          end_stream=True)
        sock.sendall(conn.data_to_send())
        status, body, deadline = None, b"", time.monotonic() + timeout
        while time.monotonic() < deadline:
            data = sock.recv(65536)
            if not data:
                break
            for event in conn.receive_data(data):
                if isinstance(event, h2.events.ResponseReceived):
                    status = int(dict(event.headers)[b":status"])
                elif isinstance(event, h2.events.DataReceived):
                    body += event.data
                elif isinstance(event, h2.events.StreamEnded):
                    return status, body
            sock.sendall(conn.data_to_send())
        return status, body


class Watcher(threading.Thread):
    """Another client, asking every 200 ms over HTTP/1.1 and h2c while the floods run: the daemon
    must keep answering it."""

    def __init__(self, port, http1_get):
        super().__init__(daemon=True)
        self.port, self.http1_get = port, http1_get
        self.stop_event = threading.Event()
        self.failures, self.answered = [], 0

    def run(self):
        while not self.stop_event.wait(0.2):
            for name, get in (("HTTP/1.1", self.http1_get), ("h2c", h2_get)):
                try:
                    status, body = get(self.port)
                except OSError as error:
                    self.failures.append(f"{name} client during the floods: {error!r}")
                    continue
                if (status, body) != (200, b"ok"):
                    self.failures.append(f"{name} client during the floods got {status} {body[:40]!r}")
                else:
                    self.answered += 1

    def stop(self):
        self.stop_event.set()
        self.join(10)


def mutate(rng, data):
    """A random byte-level mutation of an HTTP/2 exchange (after the preface, so frames are hit)."""
    data = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        if len(data) <= len(PREFACE):
            break  # an earlier deletion took every byte after the preface
        position = rng.randrange(len(PREFACE), len(data))
        choice = rng.random()
        if choice < 0.5:
            data[position] = rng.randrange(256)
        elif choice < 0.75:
            del data[position:position + rng.randint(1, 8)]
        else:
            data[position:position] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 16)))
    return bytes(data)


def run(daemon, rng, budget, seed, http1_get):
    """Runs every HTTP/2 case against `daemon`; returns (inputs tried, failures, summary line)."""
    failures, tried = [], 0
    rss_before = daemon.rss_kb()
    watcher = Watcher(daemon.port, http1_get)
    watcher.start()
    try:
        for name, data in handwritten():
            tried += 1
            _, outcome = exchange(daemon.port, data, read_timeout=8)
            if outcome == "hung":
                failures.append(f"h2 {name}: no close within 8 s")
            if not daemon.alive():
                failures.append(f"h2 {name}: the daemon died")
                return tried, failures, ""
        floods = [("SETTINGS flood", settings_flood()), ("PING flood", ping_flood()),
                  ("HEADERS + CONTINUATION flood", continuation_flood()), ("rapid reset", rapid_reset())]
        codes = {}
        for name, data in floods:
            tried += 1
            started = time.monotonic()
            received, outcome = exchange(daemon.port, data, read_timeout=15)
            codes[name] = goaway_code(received)
            if outcome == "hung":
                failures.append(f"h2 {name}: the connection was still open 15 s after the flood")
            elif time.monotonic() - started > 30:
                failures.append(f"h2 {name}: took {time.monotonic() - started:.1f} s to end")
            if not daemon.alive():
                failures.append(f"h2 {name}: the daemon died")
                return tried, failures, ""
        deadline = time.monotonic() + budget
        mutated = 0
        seedbytes = valid_exchange()
        while time.monotonic() < deadline and daemon.alive():
            data = mutate(rng, seedbytes)
            tried += 1
            mutated += 1
            _, outcome = exchange(daemon.port, data, read_timeout=8)
            if outcome == "hung":
                failures.append(f"h2 mutation (seed {seed}, #{mutated}) {data[:80]!r}: no close within 8 s")
    finally:
        watcher.stop()
    failures += watcher.failures[:10]
    if watcher.answered == 0:
        failures.append("the watching client was never answered during the floods")
    rss_after = daemon.rss_kb()
    # Bounded memory: the floods may not grow the daemon by more than 64 MiB.
    if rss_after - rss_before > 64 * 1024:
        failures.append(f"h2: RSS grew from {rss_before // 1024} MiB to {rss_after // 1024} MiB over the floods")
    named = ", ".join(f"{name}: GOAWAY {code}" if code is not None else f"{name}: closed" for name, code in codes.items())
    summary = (f"HTTP/2: {len(handwritten())} hand-written, 4 floods ({named}), {mutated} mutations; "
               f"the watching client answered {watcher.answered} times; RSS {rss_before // 1024} -> {rss_after // 1024} MiB")
    return tried, failures, summary
