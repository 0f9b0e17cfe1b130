"""Headless Debian `chromium` driven over the DevTools protocol, stdlib only.

Chromium's `--remote-debugging-pipe` speaks the protocol as NUL-terminated JSON on file descriptors 3
(commands in) and 4 (replies and events out), so no WebSocket client, chromedriver or Selenium is needed.
"""
import base64
import fcntl
import json
import os
import queue
import shutil
import subprocess
import tempfile
import threading
import time


def chromium_binary():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


class ProtocolError(RuntimeError):
    pass


class Chromium:
    """One headless browser with one page attached (`self.session`). Events are kept in `self.events`."""

    def __init__(self, width=1440, height=900, timeout=60.0):
        binary = chromium_binary()
        if not binary:
            raise RuntimeError("chromium is not installed (apt-get install chromium)")
        self.profile = tempfile.TemporaryDirectory()
        commands_read, self._commands = os.pipe()
        self._replies, replies_write = os.pipe()

        def attach_pipes():
            # Chromium reads commands on fd 3 and writes on fd 4; move them there in the child.
            inbound = fcntl.fcntl(commands_read, fcntl.F_DUPFD, 10)
            outbound = fcntl.fcntl(replies_write, fcntl.F_DUPFD, 10)
            os.dup2(inbound, 3)
            os.dup2(outbound, 4)

        args = [binary, "--headless", "--remote-debugging-pipe", "--no-sandbox", "--disable-gpu",
                "--disable-dev-shm-usage", f"--user-data-dir={self.profile.name}", "--no-first-run",
                "--no-default-browser-check", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--disable-extensions", "--disable-default-apps", "--mute-audio",
                "--hide-scrollbars", f"--window-size={width},{height}", "about:blank"]
        self.stderr = tempfile.TemporaryFile()
        self.process = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=self.stderr,
                                        preexec_fn=attach_pipes, close_fds=False)
        os.close(commands_read)
        os.close(replies_write)
        self._next_id = 0
        self._pending = {}
        self._lock = threading.Lock()
        self.events = queue.Queue()
        self.all_events = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self.timeout = timeout
        self.session = None
        targets = self.call("Target.getTargets", timeout=timeout)["targetInfos"]
        page = next(t for t in targets if t["type"] == "page")
        self.session = self.call("Target.attachToTarget", {"targetId": page["targetId"], "flatten": True})["sessionId"]
        self.call("Target.setAutoAttach", {"autoAttach": True, "waitForDebuggerOnStart": False, "flatten": True})
        for domain in ("Page", "Network", "Runtime", "Log"):
            self.call(domain + ".enable", session=self.session)
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}, session=self.session)

    def _read(self):
        buffer = b""
        while True:
            try:
                chunk = os.read(self._replies, 1 << 16)
            except OSError:
                chunk = b""
            if not chunk:
                with self._lock:
                    for waiter in self._pending.values():
                        waiter.put({"error": {"message": "chromium closed the pipe"}})
                return
            buffer += chunk
            while b"\0" in buffer:
                raw, buffer = buffer.split(b"\0", 1)
                message = json.loads(raw)
                if "id" in message:
                    with self._lock:
                        waiter = self._pending.pop(message["id"], None)
                    if waiter:
                        waiter.put(message)
                else:
                    self.all_events.append(message)
                    self.events.put(message)

    def call(self, method, params=None, session="page", timeout=None):
        """Sends one command and waits for its reply; `session="page"` targets the attached page."""
        with self._lock:
            self._next_id += 1
            ident = self._next_id
            waiter = queue.Queue()
            self._pending[ident] = waiter
        message = {"id": ident, "method": method, "params": params or {}}
        target = self.session if session == "page" else session
        if target:
            message["sessionId"] = target
        data = json.dumps(message).encode() + b"\0"
        while data:
            written = os.write(self._commands, data)
            data = data[written:]
        try:
            reply = waiter.get(timeout=timeout or self.timeout)
        except queue.Empty:
            raise ProtocolError(f"{method}: no reply within {timeout or self.timeout} s") from None
        if "error" in reply:
            raise ProtocolError(f"{method}: {reply['error'].get('message')}")
        return reply.get("result", {})

    def evaluate(self, expression):
        """The value of a JavaScript expression in the page (promises awaited)."""
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True})
        if "exceptionDetails" in result:
            raise ProtocolError(f"{expression!r} threw: {result['exceptionDetails'].get('exception', {}).get('description')}")
        return result["result"].get("value")

    def wait_for(self, expression, timeout=10.0, interval=0.02):
        """Polls `expression` until it is truthy, with a deadline; returns (value, seconds waited)."""
        start = time.monotonic()
        deadline = start + timeout
        while True:
            value = self.evaluate(expression)
            if value:
                return value, time.monotonic() - start
            if time.monotonic() >= deadline:
                raise AssertionError(f"not true within {timeout} s: {expression}")
            time.sleep(interval)

    def navigate(self, url, timeout=30.0):
        self.call("Page.navigate", {"url": url})
        self.wait_for("document.readyState === 'complete'", timeout=timeout)

    def key(self, key, code=None, key_code=None, text=None):
        """One key press (down and up) sent to the focused element, as a user's keyboard would."""
        down = {"type": "keyDown", "key": key, "code": code or key}
        if key_code:
            down["windowsVirtualKeyCode"] = key_code
        if text:
            down["text"] = text
        self.call("Input.dispatchKeyEvent", down)
        up = {"type": "keyUp", "key": key, "code": code or key}
        if key_code:
            up["windowsVirtualKeyCode"] = key_code
        self.call("Input.dispatchKeyEvent", up)

    def type_text(self, text):
        self.call("Input.insertText", {"text": text})

    def screenshot(self, path):
        data = self.call("Page.captureScreenshot", {"format": "png"})["data"]
        with open(path, "wb") as file:
            file.write(base64.b64decode(data))

    def requested_urls(self):
        """Every URL the page asked the network for, from the DevTools Network events."""
        return [event["params"]["request"]["url"] for event in self.all_events
                if event.get("method") == "Network.requestWillBeSent"]

    def close(self):
        try:
            self.call("Browser.close", session=None, timeout=5)
        except (ProtocolError, OSError):
            pass
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self._commands)
        self.stderr.close()
        self.profile.cleanup()
