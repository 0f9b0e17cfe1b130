"""The example suite: a client's behaviour tested against Understudy from pytest, each test in its own
session of the run's one daemon (`pytest -n 2` shares it between the workers)."""

from __future__ import annotations

import http.client
import json
import urllib.error
import urllib.request

import pytest

from understudy import Session, Understudy, UnderstudyAssertionError
from weather_client import WeatherClient


def get(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


@pytest.mark.understudy(
    {
        "id": "flaky",
        "request": {"method": "GET", "path": "/forecast/oslo"},
        "responses": [{"status": 500}, {"status": 200, "json": {"city": "oslo", "celsius": -3}}],
    }
)
def test_a_sequence_answers_in_order(understudy: Session) -> None:
    assert get(f"{understudy.url}/forecast/oslo") == 500
    assert get(f"{understudy.url}/forecast/oslo") == 200
    assert get(f"{understudy.url}/forecast/oslo") == 200  # the last response repeats
    assert [entry["responseIndex"] for entry in understudy.requests()] == [0, 1, 1]


@pytest.mark.understudy(
    {
        "id": "busy",
        "request": {"method": "GET", "path": "/forecast/rome"},
        "responses": [{"status": 429, "retryAfter": 0.3}, {"status": 200, "json": {"city": "rome", "celsius": 28}}],
    }
)
def test_the_client_waits_out_retry_after(understudy: Session) -> None:
    assert WeatherClient(understudy.url).forecast("rome") == {"city": "rome", "celsius": 28}
    first, second = understudy.verify({"method": "GET", "path": "/forecast/rome"}, times=2)
    assert (first["status"], second["status"]) == (429, 200)
    # The gap on the daemon's own clock: a lower bound only (a loaded machine is slower, never faster).
    assert second["elapsedMs"] - first["elapsedMs"] >= 290


@pytest.mark.understudy(
    {"id": "reset", "request": {"path": "/forecast/lima"}, "responses": [{"fault": "connection-reset"}]}
)
def test_a_fault_breaks_the_connection_and_is_journaled(understudy: Session) -> None:
    with pytest.raises((ConnectionError, http.client.HTTPException, urllib.error.URLError)):
        WeatherClient(understudy.url).forecast("lima")
    (entry,) = understudy.requests()
    assert (entry["fault"], entry["status"], entry["outcome"]) == ("connection-reset", None, "fault")


def test_verification_counts_matching_requests(understudy: Session) -> None:
    client = WeatherClient(understudy.url)
    client.forecast("paris")
    client.forecast("paris")
    understudy.verify({"method": "GET", "path": "/forecast/paris"}, times=2)
    understudy.verify({"method": "POST", "path": "/forecast/paris"}, times=0)
    with pytest.raises(UnderstudyAssertionError):
        understudy.verify({"path": "/forecast/paris"}, at_most=1)
    understudy.verify_no_unmatched()


def test_the_journal_records_what_went_on_the_wire(understudy: Session) -> None:
    request = urllib.request.Request(
        f"{understudy.url}/forecast/nowhere?units=metric", headers={"X-Trace": "abc"}, method="GET"
    )
    with pytest.raises(urllib.error.HTTPError) as answer:
        urllib.request.urlopen(request, timeout=10)
    assert answer.value.code == 404  # no stub: the unmatched answer
    (entry,) = understudy.wait_for_requests(1, path="/forecast/nowhere")
    assert entry["seq"] == 1 and entry["session"] == understudy.id
    assert (entry["method"], entry["path"], entry["query"]) == ("GET", "/forecast/nowhere", "units=metric")
    assert entry["headers"]["x-trace"] == ["abc"]
    assert entry["matched"] is False and entry["response"]["status"] == 404
    assert "/forecast/nowhere" in understudy.journal_table()


@pytest.mark.understudy(
    {
        "id": "limited",
        "request": {"path": "/forecast/berlin"},
        "rateLimit": {"limit": 1, "window": 60},
        "responses": [{"status": 200, "json": {"city": "berlin", "celsius": 12}}],
    }
)
def test_a_clock_advance_ends_a_rate_limit_window(understudy: Session) -> None:
    understudy.freeze_clock()
    assert get(f"{understudy.url}/forecast/berlin") == 200
    assert get(f"{understudy.url}/forecast/berlin") == 429  # one a minute
    understudy.advance_clock("PT61S")  # a minute passes in no time at all
    assert get(f"{understudy.url}/forecast/berlin") == 200
    assert [entry["rateLimited"] for entry in understudy.requests()] == [False, True, False]


@pytest.mark.understudy(
    {"id": "login", "scenario": "auth", "whenState": "Started", "setState": "in",
     "request": {"path": "/login"}, "responses": [{"status": 204}]}
)
@pytest.mark.parametrize("copy", [1, 2, 3, 4])
def test_each_test_has_a_session_of_its_own(understudy: Session, understudy_daemon: Understudy, copy: int) -> None:
    # Four copies, run in parallel under -n 2: each starts in "Started" with an empty journal.
    assert understudy.url != understudy_daemon.url
    assert understudy.scenarios() == {"auth": "Started"}
    assert understudy.requests() == []
    assert get(f"{understudy.url}/login") == 204
    assert understudy.scenarios() == {"auth": "in"}
    assert understudy.requests()[0]["seq"] == 1
    assert understudy.id in {session["id"] for session in understudy_daemon.sessions()}


def test_file_stubs_and_stubs_added_later(understudy: Session, tmp_path) -> None:
    assert WeatherClient(understudy.url).forecast("paris")["celsius"] == 21  # stubs/forecast.json
    stub_file = tmp_path / "madrid.json"
    stub_file.write_text(json.dumps({"stubs": [{"id": "madrid", "request": {"path": "/forecast/madrid"},
                                                "responses": [{"json": {"city": "madrid", "celsius": 30}}]}]}))
    assert understudy.add_stubs(stub_file) == ["madrid"]
    assert WeatherClient(understudy.url).forecast("madrid")["celsius"] == 30
    understudy.reset()
    assert understudy.requests() == []
