"""The accept -> read -> reply -> close path of a plain connection (docs/transport.md, "A connection's
first read and its close"): the daemon reads a new connection at once, before it watches the socket,
and adds its read event only when it has to wait; a connection the client asked to close is closed
without `shutdown(SHUT_WR)` first unless something the client sent is still unread.

Seen from raw sockets, whichever way the bytes arrive: before the daemon accepts (sent right after
connect), after it accepted (the test waits until the daemon's end of the connection has a socket
inode, which accept() gives it), or split
around the accept; every reply is whole, every close is a clean end of stream (never a reset), the
idle timeout and the lingering close after a refusal hold, and each request is journaled once."""
import socket
import time
import unittest

from Tests.BlackBox.blackbox import StubFileDaemonTestCase, request

IDLE_TIMEOUT = 2
STUBS = {
    "stubs": [
        {"id": "small", "request": {"method": "GET", "path": "/small"}, "responses": [{"status": 200, "body": "small"}]},
        {"id": "late", "request": {"method": "GET", "path": "/late"},
         "responses": [{"status": 200, "delayMs": 300, "body": "late"}]},
    ]
}
CLOSE = b"GET /small HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"


def read_to_end(sock, deadline_seconds=10):
    """Everything the daemon sends until its end of stream; raises ConnectionResetError on a reset."""
    received = bytearray()
    deadline = time.monotonic() + deadline_seconds
    while time.monotonic() < deadline:
        chunk = sock.recv(65536)
        if not chunk:
            return bytes(received)
        received += chunk
    raise AssertionError(f"no end of stream within {deadline_seconds} s; read {bytes(received[:200])!r}")


def replies(data):
    """(status, headers, body) of each Content-Length-framed reply in `data`, in order; the rest must be empty."""
    found = []
    while data:
        head, separator, rest = data.partition(b"\r\n\r\n")
        if not separator:
            raise AssertionError(f"an incomplete reply: {data[:200]!r}")
        lines = head.decode("latin-1").split("\r\n")
        headers = {line.split(":", 1)[0].lower(): line.split(":", 1)[1].strip() for line in lines[1:]}
        length = int(headers.get("content-length", "0"))
        found.append((int(lines[0].split()[1]), headers, rest[:length]))
        data = rest[length:]
    return found


class ConnectionClosePathTests(StubFileDaemonTestCase):
    STUBS = STUBS
    DAEMON_ARGS = ("--idle-timeout", IDLE_TIMEOUT)

    def journal(self):
        return [(entry["path"], (entry["response"] or {}).get("status"), entry["outcome"])
                for entry in self.journal_entries()]

    def accepted(self, sock):
        """Whether the daemon has accepted `sock`'s connection: the kernel gives the daemon's end a
        socket inode only once accept() has made it a descriptor (0 while it waits in the queue)."""
        client_port = sock.getsockname()[1]
        with open(f"/proc/{self.daemon.process.pid}/net/tcp") as table:
            for line in table.readlines()[1:]:
                fields = line.split()
                local, remote, inode = fields[1], fields[2], fields[9]
                if int(local.split(":")[1], 16) == self.daemon.port and int(remote.split(":")[1], 16) == client_port:
                    return inode != "0"
        return False

    def wait_until_accepted(self, sock):
        deadline = time.monotonic() + 10
        while not self.accepted(sock) and time.monotonic() < deadline:
            time.sleep(0.01)  # polling with a deadline: the daemon says nothing when it accepts
        self.assertTrue(self.accepted(sock), "the daemon accepted the connection")

    def test_close_requests_sent_at_connect_are_answered_whole_and_end_cleanly(self):
        # Most of these are in the socket when the daemon accepts (read and answered in that pass);
        # whichever are not are read once they come. Either way: one reply, then a clean end of stream.
        for index in range(200):
            version = b"1.0" if index % 2 else b"1.1"
            with socket.create_connection(("127.0.0.1", self.daemon.port), timeout=10) as sock:
                if version == b"1.0":
                    sock.sendall(b"GET /small HTTP/1.0\r\n\r\n")
                else:
                    sock.sendall(CLOSE)
                got = replies(read_to_end(sock))
            self.assertEqual([(status, body) for status, _, body in got], [(200, b"small")], f"connection {index}")
            self.assertEqual(got[0][1].get("connection"), "close", f"connection {index}")
        self.assertEqual(self.journal(), [("/small", 200, "answered")] * 200)

    def test_a_request_sent_after_the_accept_is_read_when_it_comes(self):
        with socket.create_connection(("127.0.0.1", self.daemon.port), timeout=10) as sock:
            self.wait_until_accepted(sock)
            sock.sendall(CLOSE)
            got = replies(read_to_end(sock))
        self.assertEqual([(status, body) for status, _, body in got], [(200, b"small")])
        self.assertEqual(self.journal(), [("/small", 200, "answered")])

    def test_a_head_split_around_the_accept_is_read_whole(self):
        with socket.create_connection(("127.0.0.1", self.daemon.port), timeout=10) as sock:
            sock.sendall(CLOSE[:20])
            self.wait_until_accepted(sock)  # its first read has come and gone
            sock.sendall(CLOSE[20:])
            got = replies(read_to_end(sock))
        self.assertEqual([(status, body) for status, _, body in got], [(200, b"small")])
        self.assertEqual(self.journal(), [("/small", 200, "answered")])

    def test_a_kept_alive_connection_read_at_accept_goes_on_reading(self):
        with socket.create_connection(("127.0.0.1", self.daemon.port), timeout=10) as sock:
            sock.sendall(b"GET /small HTTP/1.1\r\nHost: x\r\n\r\n")
            first = sock.recv(65536)
            sock.sendall(b"GET /late HTTP/1.1\r\nHost: x\r\n\r\n" + CLOSE)
            got = replies(first + read_to_end(sock))
        self.assertEqual([(status, body) for status, _, body in got], [(200, b"small"), (200, b"late"), (200, b"small")])
        self.assertEqual(self.journal(), [("/small", 200, "answered"), ("/late", 200, "answered"),
                                          ("/small", 200, "answered")])

    def test_a_client_that_leaves_while_its_close_request_waits_is_journaled_as_gone(self):
        # The reply is delayed, so the connection is read on after the first read: the client's end
        # of stream is seen, and the request is journaled as `client-gone`, not answered.
        with socket.create_connection(("127.0.0.1", self.daemon.port), timeout=10) as sock:
            sock.sendall(b"GET /late HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            sock.shutdown(socket.SHUT_WR)
            self.assertEqual(read_to_end(sock), b"")
        deadline = time.monotonic() + 10
        while self.journal() != [("/late", None, "client-gone")] and time.monotonic() < deadline:
            time.sleep(0.05)  # polling the journal with a deadline
        self.assertEqual(self.journal(), [("/late", None, "client-gone")])

    def test_a_close_request_followed_by_more_bytes_still_ends_cleanly(self):
        # Pipelined after `Connection: close` (RFC 9112 §9.6: the client should not): the daemon
        # answers the first, leaves the rest unread and shuts down before closing, so the client
        # reads the reply and an end of stream rather than a reset.
        with socket.create_connection(("127.0.0.1", self.daemon.port), timeout=10) as sock:
            sock.sendall(CLOSE + b"GET /small HTTP/1.1\r\nHost: x\r\n\r\n" * 50)
            got = replies(read_to_end(sock))
        self.assertEqual([(status, body) for status, _, body in got], [(200, b"small")])
        self.assertEqual(self.journal(), [("/small", 200, "answered")])

    def test_a_refusal_read_at_accept_still_lingers_while_the_client_sends(self):
        # Refused on the first read; the client goes on sending a body far larger than both socket
        # buffers can hold (loopback autotunes them to a few MiB). The daemon reads and drops it (a
        # lingering close), so the send completes and the client reads the 400 and an end of stream,
        # not a reset.
        body = b"b" * (32 * 1024 * 1024)
        with socket.create_connection(("127.0.0.1", self.daemon.port), timeout=10) as sock:
            sock.sendall(b"POST /small HTTP/1.1\r\nHost: x\r\nContent-Length : 5\r\n\r\n" + body)
            got = replies(read_to_end(sock))
        self.assertEqual([status for status, _, _ in got], [400])
        self.assertIn(b"whitespace", got[0][2])
        self.assertEqual(self.journal(), [("/small", 400, "refused")])

    def test_the_idle_timeout_closes_a_connection_that_sent_nothing_or_part_of_a_head(self):
        for first in (b"", b"GET /small HTTP/1.1\r\nHo"):
            with self.subTest(sent=first):
                with socket.create_connection(("127.0.0.1", self.daemon.port), timeout=15) as sock:
                    started = time.monotonic()
                    if first:
                        sock.sendall(first)
                    self.assertEqual(read_to_end(sock, deadline_seconds=15), b"")
                    waited = time.monotonic() - started
                # Closed by the timeout, not at once (a lower bound, with margin for a loaded machine).
                self.assertGreaterEqual(waited, IDLE_TIMEOUT * 0.5)
        self.assertEqual(self.journal(), [])


if __name__ == "__main__":
    unittest.main()
