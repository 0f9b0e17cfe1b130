"""A plain connection's own socket I/O (docs/transport.md, "How bytes reach the socket"): replies are
written at the end of the loop pass, and only what the kernel does not take goes through the
bufferevent's write side. These drive both paths from raw sockets: a reply far larger than a small
receive window (the leftover path, then back to direct writes on the same connection), and pipelined
requests whose middle one is delayed (order across deferred writes)."""
import socket
import time
import unittest

from Tests.BlackBox.blackbox import StubFileDaemonTestCase, request

BIG = 4 * 1024 * 1024  # far beyond what a 4 KiB receive window and the send buffer take at once


def body_of(size):
    """A body whose every 64-byte line says where it is, so a lost or reordered piece shows."""
    lines = (f"{offset:063d}\n" for offset in range(0, size, 64))
    return "".join(lines)[:size]


STUBS = {
    "stubs": [
        {"id": "big", "request": {"method": "GET", "path": "/big"}, "responses": [{"status": 200, "body": body_of(BIG)}]},
        {"id": "small", "request": {"method": "GET", "path": "/small"}, "responses": [{"status": 200, "body": "small"}]},
        {"id": "late", "request": {"method": "GET", "path": "/late"},
         "responses": [{"status": 200, "delayMs": 200, "body": "late"}]},
    ]
}


def read_replies(sock, count, deadline_seconds=30):
    """Reads `count` Content-Length-framed replies from `sock`; returns their (status, body) in order."""
    buffer = bytearray()
    replies = []
    deadline = time.monotonic() + deadline_seconds
    while len(replies) < count and time.monotonic() < deadline:
        end = buffer.find(b"\r\n\r\n")
        if end >= 0:
            head = bytes(buffer[:end]).decode("latin-1").split("\r\n")
            fields = {line.split(":", 1)[0].lower(): line.split(":", 1)[1].strip() for line in head[1:]}
            length = int(fields["content-length"])
            if len(buffer) >= end + 4 + length:
                replies.append((int(head[0].split()[1]), bytes(buffer[end + 4:end + 4 + length])))
                del buffer[:end + 4 + length]
                continue
        chunk = sock.recv(65536)
        if not chunk:
            break
        buffer += chunk
    return replies


class SocketIOTests(StubFileDaemonTestCase):
    STUBS = STUBS

    def journal_paths(self):
        return [entry["path"] for entry in self.journal_entries()]

    def connect_with_small_window(self):
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # before connect: the window it advertises
        sock.settimeout(30)
        sock.connect(("127.0.0.1", self.daemon.port))
        return sock

    def test_a_reply_larger_than_the_window_arrives_whole_then_the_connection_writes_directly_again(self):
        with self.connect_with_small_window() as sock:
            # Pipelined behind the big reply: queued after its leftover, in order.
            sock.sendall(b"GET /big HTTP/1.1\r\nHost: x\r\n\r\nGET /small HTTP/1.1\r\nHost: x\r\n\r\n")
            replies = read_replies(sock, 2)
            self.assertEqual([status for status, _ in replies], [200, 200])
            self.assertEqual(len(replies[0][1]), BIG)
            self.assertEqual(replies[0][1], body_of(BIG).encode())
            self.assertEqual(replies[1][1], b"small")
            # The leftover is out: the next reply on the same connection is written at once again.
            sock.sendall(b"GET /small HTTP/1.1\r\nHost: x\r\n\r\n")
            self.assertEqual(read_replies(sock, 1), [(200, b"small")])
        self.assertEqual(self.journal_paths(), ["/big", "/small", "/small"])

    def test_pipelined_replies_keep_their_order_around_a_delayed_one(self):
        with socket.create_connection(("127.0.0.1", self.daemon.port), timeout=30) as sock:
            sock.sendall(b"GET /small HTTP/1.1\r\nHost: x\r\n\r\n"
                         b"GET /late HTTP/1.1\r\nHost: x\r\n\r\n"
                         b"GET /small HTTP/1.1\r\nHost: x\r\n\r\n")
            replies = read_replies(sock, 3)
        self.assertEqual(replies, [(200, b"small"), (200, b"late"), (200, b"small")])
        self.assertEqual(self.journal_paths(), ["/small", "/late", "/small"])


if __name__ == "__main__":
    unittest.main()
