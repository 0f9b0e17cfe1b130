"""The running benchmark: tools, stub directories, and how to start servers and load them."""
import os
import shutil
import socket
import subprocess
import sys
import tempfile

from scripts.benchmark import stubgen
from scripts.lib.understudy_daemon import Daemon
from scripts.benchmark.wrk_result import WrkResult


class ScenarioError(Exception):
    """A scenario could not produce trustworthy numbers (wrong answer, crash); the report says why."""


class BenchSession:
    def __init__(self, config, tools, understudy):
        self.config = config
        self.tools = tools
        self.understudy = understudy
        self.out_dir = os.path.join(os.path.abspath(config.scratch), "bench")
        os.makedirs(self.out_dir, exist_ok=True)
        self.tmp = tempfile.mkdtemp(prefix="understudy-bench-")
        self.stub_dirs = {
            "exact100": stubgen.exact_path_stubs(os.path.join(self.tmp, "exact100"), 100),
            "exact10000": stubgen.exact_path_stubs(os.path.join(self.tmp, "exact10000"), 10_000),
            "patterns100": stubgen.path_pattern_stubs(os.path.join(self.tmp, "patterns100"), 100),
            "templated100": stubgen.templated_stubs(os.path.join(self.tmp, "templated100"), 100),
            "soak": stubgen.soak_stubs(os.path.join(self.tmp, "soak")),
            # For a daemon whose stubs come in a session: one stub, so `serve` has a file to load.
            "empty": stubgen.exact_path_stubs(os.path.join(self.tmp, "empty"), 1),
        }
        self.soak_script = stubgen.soak_lua(os.path.join(self.tmp, "soak.lua"))
        self.pipeline_script = stubgen.pipeline_lua(os.path.join(self.tmp, "pipeline.lua"), depth=16)
        self._journals = 0

    def close(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def log(self, message):
        print(message, file=sys.stderr, flush=True)

    # Servers

    def start_baseline(self, port=0, changelist=False):
        name = "changelist" if changelist else "baseline"
        return Daemon(command=self.baseline_command(port, changelist), cpu=self.config.server_cpu, name=name,
                      stderr_path=os.path.join(self.out_dir, f"{name}.stderr.log"), append_log=True, timeout=180)

    def baseline_command(self, port, changelist=False):
        """The C hello server; `changelist` turns on libevent's EVENT_BASE_FLAG_EPOLL_USE_CHANGELIST
        (the second baseline: the same server with the one flag)."""
        return [self.tools["hello_server"], str(port)] + (["--changelist"] if changelist else [])

    def start_nginx(self):
        """nginx with one worker, no access log, `return 200 "hello"` for every path: the second anchor."""
        port = self.free_port()
        return Daemon(command=self.nginx_command(port), cpu=self.config.server_cpu, name="nginx",
                      stderr_path=os.path.join(self.out_dir, "nginx.stderr.log"), ready_port=port)

    def nginx_command(self, port, worker_connections=4096):
        """nginx in the foreground as one process (`master_process off; daemon off;`), so the same
        command runs under callgrind; its prefix, config and logs live in the session's temp dir."""
        prefix = os.path.join(self.tmp, f"nginx-{port}")
        os.makedirs(prefix, exist_ok=True)
        config = f"""daemon off;
master_process off;
worker_processes 1;
worker_rlimit_nofile {worker_connections + 64};
error_log {prefix}/error.log warn;
pid {prefix}/nginx.pid;
events {{ worker_connections {worker_connections}; }}
http {{
    access_log off;
    keepalive_requests 100000000;
    client_body_temp_path {prefix}/body;
    proxy_temp_path {prefix}/proxy;
    fastcgi_temp_path {prefix}/fastcgi;
    uwsgi_temp_path {prefix}/uwsgi;
    scgi_temp_path {prefix}/scgi;
    server {{
        listen 127.0.0.1:{port};
        location / {{ default_type text/plain; return 200 "hello"; }}
    }}
}}
"""
        with open(os.path.join(prefix, "nginx.conf"), "w") as handle:
            handle.write(config)
        return ["nginx", "-p", prefix, "-c", os.path.join(prefix, "nginx.conf")]

    @staticmethod
    def has_nginx():
        return shutil.which("nginx") is not None

    def start_understudy(self, stub_dir, port=0, extra=()):
        journal = self.journal_path()
        server = Daemon(command=self.understudy_command(stub_dir, port, journal, extra), cpu=self.config.server_cpu,
                        stderr_path=os.path.join(self.out_dir, "understudy.stderr.log"), append_log=True, timeout=180)
        server.journal = journal
        return server

    def understudy_command(self, stub_dir, port, journal, extra=()):
        # BENCH_SERVE_ARGS (e.g. "--https") adds serve options to every daemon, to check that an
        # option costs plain-HTTP requests nothing (scripts/bench --gate before and after).
        return [self.understudy, "serve", stub_dir, "--port", str(port), "--quiet", "--journal", journal,
                *os.environ.get("BENCH_SERVE_ARGS", "").split(), *extra]

    def journal_path(self):
        self._journals += 1
        return os.path.join(self.tmp, f"journal-{self._journals}.jsonl")

    @staticmethod
    def free_port():
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            return probe.getsockname()[1]

    # Load

    def _pinned(self, command):
        cpu = self.config.load_cpu
        return (["taskset", "-c", str(cpu)] if cpu is not None else []) + command

    def wrk(self, server, path, seconds, connections, close=False, script=None):
        command = ["wrk", "-t1", f"-c{connections}", f"-d{max(1, round(seconds))}s", "--latency", "--timeout", "10s"]
        if close:
            command += ["-H", "Connection: close"]
        if script:
            command += ["-s", script]
        command.append(server.url + path)
        result = subprocess.run(self._pinned(command), capture_output=True, text=True, timeout=seconds + 60)
        if result.returncode != 0:
            raise ScenarioError(f"wrk exited with {result.returncode}: {result.stderr.strip()[:500]}")
        if server.process.poll() is not None:
            raise ScenarioError(f"{server.name} exited (status {server.process.returncode}) under load")
        return WrkResult.parse(result.stdout)

    def fixed_load(self, server, requests, paths, connections=50):
        """Exactly `requests` answered requests; returns the parsed `key=value` summary."""
        command = self._pinned([self.tools["fixed_load"], str(server.port), str(requests), str(connections), *paths])
        result = subprocess.run(command, capture_output=True, text=True, timeout=3600)
        if result.returncode != 0:
            raise ScenarioError(f"fixed_load: {result.stderr.strip()[:500]}")
        return {k: float(v) for k, v in (item.split("=") for item in result.stdout.split())}

    def check_answer(self, server, path, body=b"hello"):
        status, answer = server.get(path)
        if status != 200 or answer != body:
            raise ScenarioError(f"{server.name}: GET {path} answered {status} {answer[:120]!r}, "
                                f"expected 200 {body!r}")

    @staticmethod
    def count_lines(path):
        if not os.path.exists(path):
            return 0
        return int(subprocess.check_output(["wc", "-l", path], text=True).split()[0])
