"""A session of a running Understudy (`POST /__admin/sessions`), loaded like a server of its own."""
import http.client
import json
from scripts.lib import understudy_daemon


class SessionsUnavailable(Exception):
    """The daemon under test has no sessions API (a build from before sessions landed)."""


class SessionPort:
    """The session's port, with what the load helpers read from a server: name, port, url, process
    (the daemon's, so a crash under load is still noticed) and get()."""

    def __init__(self, server, stubs, name="bench"):
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        try:
            connection.request("POST", "/__admin/sessions", body=json.dumps({"name": name, "stubs": stubs}),
                               headers={"Content-Type": "application/json"})
            response = connection.getresponse()
            body = response.read()
        finally:
            connection.close()
        if response.status in (404, 405):
            raise SessionsUnavailable(f"POST /__admin/sessions answered {response.status}: this build has no sessions")
        if response.status != 201:
            raise RuntimeError(f"POST /__admin/sessions answered {response.status}: {body[:300]!r}")
        created = json.loads(body)
        self.id = created["id"]
        self.port = int(created["port"])
        self.server = server
        self.name = f"{server.name} session"
        self.process = server.process
        self.journal = getattr(server, "journal", None)

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    def get(self, path):
        return understudy_daemon.get(self.port, path)

    def get_json(self, path):
        return self.server.get_json(path)

    def rss_bytes(self):
        return self.server.rss_bytes()

    def stop(self, timeout=10.0):
        return self.server.stop(timeout)
