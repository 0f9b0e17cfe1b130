"""Starting and stopping a daemon process."""

from __future__ import annotations

import os
import signal
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any, List, Optional, Sequence, Union

from ._binary import binary_path
from .client import Understudy

PathLike = Union[str, Path]


class DaemonError(RuntimeError):
    """The daemon did not start (its stderr is in the message) or did not stop."""


class Daemon(Understudy):
    """An `understudy serve` process of its own, on a free loopback port.

    `Daemon.start(...)` returns once it answers; `stop()` sends SIGTERM and waits. As a context manager
    it stops on exit. With `detach=True` the daemon outlives this process (`understudy serve --detach`)
    and is stopped through its pid file, which is how the pytest plugin shares one daemon between
    pytest-xdist workers; otherwise it is this process's child and follows it if it dies
    (`--exit-on-stdin-eof`).
    """

    def __init__(self, url: str, pid: int, state_dir: Path, process: Optional["subprocess.Popen[bytes]"]) -> None:
        super().__init__(url)
        self.pid = pid
        self.state_dir = state_dir
        self._process = process

    @classmethod
    def start(
        cls,
        stubs: Sequence[PathLike] = (),
        *,
        journal: Optional[PathLike] = None,
        extra_arguments: Sequence[str] = (),
        binary: Optional[PathLike] = None,
        state_dir: Optional[PathLike] = None,
        detach: bool = False,
        startup_timeout: float = 30.0,
    ) -> "Daemon":
        """Starts `understudy serve STUBS... --port 0` (an empty stub directory when `stubs` is empty)."""
        directory = Path(state_dir) if state_dir else Path(tempfile.mkdtemp(prefix="understudy-"))
        directory.mkdir(parents=True, exist_ok=True)
        paths = [str(path) for path in stubs]
        if not paths:
            empty = directory / "no-stubs"
            empty.mkdir(exist_ok=True)
            paths = [str(empty)]
        port_file, pid_file = directory / "port", directory / "pid"
        command: List[str] = [
            str(binary or binary_path()), "serve", *paths, "--port", "0", "--quiet",
            "--port-file", str(port_file), "--pid-file", str(pid_file),
        ]
        if journal is not None:
            command += ["--journal", str(journal)]
        command += list(extra_arguments)
        if detach:
            # --detach returns once the daemon is ready (or failed, with the error on stderr).
            done = subprocess.run(
                command + ["--detach", "--log-file", str(directory / "daemon.log")],
                stdin=subprocess.DEVNULL, capture_output=True, timeout=startup_timeout,
            )
            if done.returncode != 0:
                raise DaemonError(f"understudy did not start: {done.stderr.decode(errors='replace').strip()}")
            return cls(f"http://127.0.0.1:{port_file.read_text().strip()}", int(pid_file.read_text()), directory, None)
        stderr = open(directory / "daemon.log", "wb")
        process = subprocess.Popen(command + ["--exit-on-stdin-eof"], stdin=subprocess.PIPE, stdout=stderr, stderr=stderr)
        stderr.close()
        deadline = time.monotonic() + startup_timeout
        # The port file appears, atomically, once the daemon listens: polled with a deadline.
        while not port_file.exists():
            if process.poll() is not None:
                raise DaemonError(f"understudy exited with {process.returncode}: {(directory / 'daemon.log').read_text().strip()}")
            if time.monotonic() > deadline:
                process.kill()
                raise DaemonError(f"understudy did not listen within {startup_timeout:g} s")
            time.sleep(0.005)
        return cls(f"http://127.0.0.1:{port_file.read_text().strip()}", process.pid, directory, process)

    @classmethod
    def attach(cls, state_dir: PathLike) -> "Daemon":
        """The detached daemon whose port and pid files are in `state_dir`."""
        directory = Path(state_dir)
        return cls(
            f"http://127.0.0.1:{(directory / 'port').read_text().strip()}",
            int((directory / "pid").read_text()), directory, None,
        )

    def stop(self, timeout: float = 10.0) -> None:
        """SIGTERM, then waits for the process to end (its journal flushed, its ports closed)."""
        if self._process is not None:
            if self._process.poll() is None:
                self._process.send_signal(signal.SIGTERM)
                try:
                    self._process.wait(timeout)
                except subprocess.TimeoutExpired:
                    self._process.kill()
                    raise DaemonError(f"understudy (pid {self.pid}) did not stop within {timeout:g} s") from None
            if self._process.stdin:
                self._process.stdin.close()
            return
        try:
            os.kill(self.pid, signal.SIGTERM)
        except ProcessLookupError:
            return
        # Not our child: its pid file goes when it has exited.
        deadline = time.monotonic() + timeout
        while (self.state_dir / "pid").exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        if (self.state_dir / "pid").exists():
            raise DaemonError(f"understudy (pid {self.pid}) did not stop within {timeout:g} s")

    def __enter__(self) -> "Daemon":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()
