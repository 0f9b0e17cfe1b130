"""The code under test of the example suite: a small HTTP client that retries a 429 or 503 after the
server's Retry-After, as a real API client would. Tests point it at their session's URL."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from typing import Any, Dict


class WeatherClient:
    def __init__(self, base_url: str, attempts: int = 3) -> None:
        self.base_url = base_url
        self.attempts = attempts

    def forecast(self, city: str) -> Dict[str, Any]:
        for attempt in range(1, self.attempts + 1):
            try:
                with urllib.request.urlopen(f"{self.base_url}/forecast/{city}", timeout=10) as response:
                    return json.loads(response.read())
            except urllib.error.HTTPError as error:
                retry_after = error.headers.get("Retry-After")
                if error.code in (429, 503) and retry_after is not None and attempt < self.attempts:
                    time.sleep(float(retry_after))  # the server said how long: this is the behaviour tested
                    continue
                raise
        raise AssertionError("unreachable")
