"""Builds what the benchmark runs: the C baseline and probes, and Understudy in release mode."""
import os
import platform
import re
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


class BuildError(Exception):
    """A compiler or `swift build` failed; carries the command for the report."""

    def __init__(self, command, code):
        super().__init__(f"`{' '.join(shlex.quote(c) for c in command)}` exited with status {code}")


def _run(command, **kwargs):
    print("+ " + " ".join(shlex.quote(c) for c in command), file=sys.stderr)
    code = subprocess.call(command, **kwargs)
    if code != 0:
        raise BuildError(command, code)


def compile_c_tools(bin_dir):
    """Compiles hello_server (against libevent), startup_probe and fixed_load with -O2."""
    os.makedirs(bin_dir, exist_ok=True)
    libevent = subprocess.check_output(["pkg-config", "--cflags", "--libs", "libevent"], text=True).split()
    tools = {}
    for name, extra in (("hello_server", libevent), ("startup_probe", []), ("fixed_load", [])):
        source = os.path.join(HERE, name + ".c")
        binary = os.path.join(bin_dir, name)
        if not os.path.exists(binary) or os.path.getmtime(binary) < os.path.getmtime(source):
            _run(["cc", "-O2", "-Wall", "-o", binary, source] + extra)
        tools[name] = binary
    return tools


def static_stdlib():
    """Whether to link the Swift runtime and Foundation statically (default yes; BENCH_STATIC=0 turns
    it off). A stub server is exec'ed many times a day: a static binary skips loading and relocating
    libswiftCore and Foundation (~4 ms of every start) and maps fewer shared-library pages (RSS)."""
    return os.environ.get("BENCH_STATIC", "1") not in ("0", "no", "false")


# The package's traits (static-link-flags has --enable-all-traits) reach the compiler in a stable order
# only with this, so the build here is the one scripts/serve made (scripts/lib/ensure-deps.sh).
os.environ.setdefault("SWIFT_DETERMINISTIC_HASHING", "1")


def build_flags():
    """scripts/lib/static-link-flags (the one list, shared with scripts/serve), or none with BENCH_STATIC=0."""
    if not static_stdlib():
        return []
    with open(os.path.join(REPO, "scripts", "lib", "static-link-flags")) as handle:
        return [line.strip() for line in handle if line.strip() and not line.startswith("#")]


def build_understudy(scratch):
    """`swift build -c release [static-link-flags] --product understudy` in `scratch`; returns the
    binary's path."""
    _run(["swift", "build", "-c", "release", *build_flags(), "--scratch-path", scratch, "--product", "understudy"],
         cwd=REPO, stdout=sys.stderr)
    return understudy_path(scratch)


def understudy_path(scratch):
    bin_path = subprocess.check_output(
        ["swift", "build", "-c", "release", "--scratch-path", scratch, "--show-bin-path"], cwd=REPO, text=True
    ).strip()
    return os.path.join(bin_path, "understudy")


def machine_description():
    """What a reader needs to compare runs: cores, CPU, kernel, tool versions, commit and load."""
    cpu = "unknown"
    try:
        with open("/proc/cpuinfo") as handle:
            for line in handle:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {
        "nproc": os.cpu_count(),
        "cpu": cpu,
        "uname": " ".join(platform.uname()).strip(),
        "memory_gb": round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30, 1),
        "libevent": _output(["pkg-config", "--modversion", "libevent"]),
        "wrk": _first_line(_output(["wrk", "--version"], accept_failure=True)).split(" Copyright")[0],
        "swift": _first_line(_output(["swift", "--version"], accept_failure=True)),
        "commit": _output(["git", "-C", REPO, "rev-parse", "--short", "HEAD"]),
        "build": " ".join(["swift", "build", "-c", "release", *build_flags(), "--product", "understudy"]),
        "dirty": bool(_output(["git", "-C", REPO, "status", "--porcelain", "--untracked-files=no"])),
    }


def load_average():
    with open("/proc/loadavg") as handle:
        return float(handle.read().split()[0])


def _output(command, accept_failure=False):
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return "unavailable"
    if result.returncode != 0 and not accept_failure:
        return "unavailable"
    return (result.stdout + result.stderr).strip()


def _first_line(text):
    line = text.splitlines()[0] if text else ""
    return re.sub(r"\s+", " ", line).strip()
