"""A small client for the daemon's admin API (`/__admin/`, docs/admin-api.md), on the standard library."""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

from .journal import journal_table

JSON = Any
Stub = Mapping[str, Any]
StubSource = Union[Stub, str, Path]
"""A stub as a dict, a stub file's text as a dict (`{"stubs": [...]}`), or the path of a stub file."""


class AdminError(RuntimeError):
    """The admin API refused a call: its status and the daemon's `error` (and `errors`) text."""

    def __init__(self, method: str, path: str, status: int, body: str) -> None:
        self.status = status
        self.body = body
        try:
            parsed = json.loads(body)
            detail = parsed.get("error", body)
            if parsed.get("errors"):
                detail += ": " + "; ".join(json.dumps(error) for error in parsed["errors"])
        except (ValueError, AttributeError):
            detail = body
        super().__init__(f"{method} {path}: {status} {detail}")


class UnderstudyAssertionError(AssertionError):
    """A verification failed; the message ends with the journal as a table."""


def _stub_documents(stubs: Sequence[StubSource]) -> List[Dict[str, Any]]:
    """The stubs as a list of stub objects: a path is read as a stub file, a dict with `stubs` is a
    stub file's content, any other dict is one stub."""
    result: List[Dict[str, Any]] = []
    for source in stubs:
        if isinstance(source, (str, Path)):
            source = json.loads(Path(source).read_text())
        if isinstance(source, Mapping) and "stubs" in source:
            result.extend(dict(stub) for stub in source["stubs"])
        elif isinstance(source, Mapping):
            result.append(dict(source))
        else:
            raise TypeError(f"a stub is a dict, a stub file's dict or a path, not {type(source).__name__}")
    return result


class Understudy:
    """The admin API of one daemon port: the main port, or a session's (see `Session`).

    `url` is the port's base URL (`http://127.0.0.1:PORT`), the one the code under test should call.
    """

    def __init__(self, url: str, admin_token: Optional[str] = None, timeout: float = 30.0) -> None:
        self.url = url.rstrip("/")
        self.admin_token = admin_token
        self.timeout = timeout

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.url!r})"

    # -- plumbing -----------------------------------------------------------------------------------

    def call(self, method: str, path: str, body: JSON = None, query: Optional[Mapping[str, Any]] = None) -> JSON:
        """One admin call: `path` under the port's URL, `body` sent as JSON; the answer parsed as JSON.

        Raises `AdminError` for a 4xx/5xx answer."""
        target = path + ("?" + urllib.parse.urlencode(query) if query else "")
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + target, data=data, method=method)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if self.admin_token:
            request.add_header("Authorization", f"Bearer {self.admin_token}")
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                text = response.read().decode()
        except urllib.error.HTTPError as error:
            raise AdminError(method, target, error.code, error.read().decode(errors="replace")) from None
        return json.loads(text) if text else None

    # -- stubs and state ----------------------------------------------------------------------------

    def add_stubs(self, *stubs: StubSource) -> List[str]:
        """Adds stubs (dicts, stub files' dicts or stub file paths), all or nothing; a stub with an id
        already there replaces it. Returns the ids added or replaced."""
        answer = self.call("POST", "/__admin/stubs", {"stubs": _stub_documents(stubs)})
        return list(answer.get("added", [])) + list(answer.get("replaced", []))

    def stubs(self) -> List[Dict[str, Any]]:
        """The stubs with their progress (`timesServed`, `nextResponseIndex`, `exhausted`...)."""
        return list(self.call("GET", "/__admin/stubs")["stubs"])

    def delete_stub(self, stub_id: str) -> None:
        self.call("DELETE", f"/__admin/stubs/{urllib.parse.quote(stub_id, safe='')}")

    def reset(self) -> None:
        """Sequences, scenarios, rate limits and the journal back to the start; stubs stay."""
        self.call("POST", "/__admin/reset")

    def health(self) -> Dict[str, Any]:
        return dict(self.call("GET", "/__admin/health"))

    def scenarios(self) -> Dict[str, str]:
        """Each scenario's current state."""
        return {item["name"]: item["state"] for item in self.call("GET", "/__admin/scenarios")["scenarios"]}

    def set_scenario(self, name: str, state: str) -> None:
        self.call("PUT", f"/__admin/scenarios/{urllib.parse.quote(name, safe='')}", {"state": state})

    # -- the journal --------------------------------------------------------------------------------

    def requests(self, **filters: Any) -> List[Dict[str, Any]]:
        """The journal, oldest first; filters as `GET /__admin/requests` takes them (`stub`, `method`,
        `path`, `matched`, `status`, `since`, `limit`)."""
        query = {key: str(value).lower() if isinstance(value, bool) else value for key, value in filters.items()}
        return list(self.call("GET", "/__admin/requests", query=query)["requests"])

    def find(self, matcher: Stub) -> List[Dict[str, Any]]:
        """The journal entries whose request `matcher` (a stub's `request` object) matches."""
        return list(self.call("POST", "/__admin/requests/find", {"request": dict(matcher)})["requests"])

    def count(self, matcher: Stub) -> int:
        return int(self.call("POST", "/__admin/requests/count", {"request": dict(matcher)})["count"])

    def wait_for_requests(self, count: int = 1, timeout: float = 5.0, **filters: Any) -> List[Dict[str, Any]]:
        """Waits (a long poll on the daemon, not a sleep) until `count` entries pass the filters;
        raises `UnderstudyAssertionError` with the journal when `timeout` seconds pass first."""
        query = {key: str(value).lower() if isinstance(value, bool) else value for key, value in filters.items()}
        __tracebackhide__ = True  # pytest shows the caller's line, not this one
        query.update(count=count, timeoutMs=int(timeout * 1000))
        answer = self.call("GET", "/__admin/requests/wait", query=query)
        if answer.get("timedOut"):
            raise UnderstudyAssertionError(
                f"waited {timeout:g} s for {count} request(s) matching {filters or 'anything'}, saw "
                f"{len(answer['requests'])}; the journal:\n{journal_table(self.requests())}"
            )
        return list(answer["requests"])

    def journal_table(self, **filters: Any) -> str:
        """The journal (or the filtered part) as the table failures print."""
        return journal_table(self.requests(**filters))

    # -- verification -------------------------------------------------------------------------------

    def verify(
        self,
        matcher: Stub,
        times: Optional[int] = None,
        at_least: Optional[int] = None,
        at_most: Optional[int] = None,
        headers: Sequence[str] = (),
    ) -> List[Dict[str, Any]]:
        """Checks how many journaled requests `matcher` matches: exactly `times`, or within
        `at_least`..`at_most` (default: at least one). Returns the matching entries; on failure raises
        `UnderstudyAssertionError` whose message shows the whole journal with `▶` on the matches (and a
        column for each of `headers`)."""
        __tracebackhide__ = True
        found = self.find(matcher)
        count = len(found)
        if times is not None:
            ok, expected = count == times, f"exactly {times}"
        else:
            low = 1 if at_least is None and at_most is None else (at_least or 0)
            ok = count >= low and (at_most is None or count <= at_most)
            expected = f"at least {low}" + ("" if at_most is None else f" and at most {at_most}")
        if not ok:
            raise UnderstudyAssertionError(
                f"expected {expected} request(s) matching {json.dumps(dict(matcher), sort_keys=True)}, "
                f"found {count}; the journal (▶ matched):\n"
                + journal_table(self.requests(), mark=[entry["seq"] for entry in found], headers=headers)
            )
        return found

    def verify_no_unmatched(self) -> None:
        """Fails, with the journal, when any request matched no stub."""
        __tracebackhide__ = True
        # Webhook attempts are journaled unmatched (the daemon sent them), but no stub missed them.
        unmatched = [entry for entry in self.requests(matched=False) if "outbound" not in entry]
        if unmatched:
            raise UnderstudyAssertionError(
                f"{len(unmatched)} request(s) matched no stub; the journal (▶ unmatched):\n"
                + journal_table(self.requests(), mark=[entry["seq"] for entry in unmatched])
            )

    # -- the clock (docs/clock.md) ------------------------------------------------------------------

    def clock(self) -> Dict[str, Any]:
        return dict(self.call("GET", "/__admin/clock"))

    def freeze_clock(self, at: Optional[str] = None) -> Dict[str, Any]:
        """Stops the port's clock, at `at` (an ISO 8601 instant) or now."""
        return dict(self.call("POST", "/__admin/clock", {"freeze": at}))

    def advance_clock(self, duration: Union[str, float]) -> List[Dict[str, Any]]:
        """Moves the clock forward (`"PT30S"`, or seconds as a number); returns what fell due
        (`[{"kind","at","stub","request"}]`: delayed answers, rate-limit windows...)."""
        amount: Union[str, int] = duration if isinstance(duration, str) else int(round(duration * 1000))
        return list(self.call("POST", "/__admin/clock", {"advance": amount}).get("fired", []))

    def real_clock(self) -> Dict[str, Any]:
        return dict(self.call("POST", "/__admin/clock", {"real": True}))

    # -- sessions (main port only) ------------------------------------------------------------------

    def create_session(self, name: Optional[str] = None, stubs: Sequence[StubSource] = (), **options: Any) -> "Session":
        """A private Understudy on this daemon, behind a port of its own, with the daemon's file stubs
        plus `stubs`; `options` are the other keys of `POST /__admin/sessions` (`tls`, `clock`...)."""
        body: Dict[str, Any] = dict(options)
        if name is not None:
            body["name"] = name
        if stubs:
            body["stubs"] = _stub_documents(stubs)
        answer = self.call("POST", "/__admin/sessions", body)
        return Session(answer, main=self)

    def sessions(self) -> List[Dict[str, Any]]:
        return list(self.call("GET", "/__admin/sessions")["sessions"])


class Session(Understudy):
    """One session: its own port (`url`), stubs, sequences, scenarios, clock and journal (`seq` from 1).

    Usable as a context manager, which deletes it on exit."""

    def __init__(self, info: Mapping[str, Any], main: Understudy) -> None:
        super().__init__(info["url"], admin_token=main.admin_token, timeout=main.timeout)
        self.id: str = info["id"]
        self.name: Optional[str] = info.get("name")
        self.port: int = int(info["port"])
        self.info = dict(info)
        self._main = main

    def close(self) -> None:
        """Deletes the session: its port closes and its memory is freed."""
        try:
            self._main.call("DELETE", f"/__admin/sessions/{self.id}")
        except AdminError as error:
            if error.status != 404:  # already gone (idle timeout): nothing left to free
                raise

    def __enter__(self) -> "Session":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
