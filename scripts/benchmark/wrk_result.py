"""Parses `wrk --latency` output into the figures the report needs."""
import re
from dataclasses import dataclass

_UNITS = {"us": 1e-3, "ms": 1.0, "s": 1e3, "m": 60e3}


class WrkOutputError(Exception):
    """wrk printed something this parser does not understand; carries the output for the report."""

    def __init__(self, reason, output):
        super().__init__(f"{reason}\n--- wrk output ---\n{output}")
        self.reason = reason
        self.output = output


@dataclass
class WrkResult:
    requests_per_second: float
    requests: int
    seconds: float
    p50_ms: float
    p99_ms: float
    non_2xx: int
    socket_errors: int

    @classmethod
    def parse(cls, output):
        rps = re.search(r"Requests/sec:\s+([\d.]+)", output)
        total = re.search(r"(\d+) requests in ([\d.]+)(us|ms|s|m),", output)
        p50 = re.search(r"^\s*50%\s+([\d.]+)(us|ms|s|m)\s*$", output, re.M)
        p99 = re.search(r"^\s*99%\s+([\d.]+)(us|ms|s|m)\s*$", output, re.M)
        if not (rps and total):
            raise WrkOutputError("no Requests/sec or request count", output)
        non_2xx = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", output)
        errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output)
        return cls(
            requests_per_second=float(rps.group(1)),
            requests=int(total.group(1)),
            seconds=float(total.group(2)) * _UNITS[total.group(3)] / 1e3,
            p50_ms=float(p50.group(1)) * _UNITS[p50.group(2)] if p50 else float("nan"),
            p99_ms=float(p99.group(1)) * _UNITS[p99.group(2)] if p99 else float("nan"),
            non_2xx=int(non_2xx.group(1)) if non_2xx else 0,
            socket_errors=sum(int(g) for g in errors.groups()) if errors else 0,
        )
