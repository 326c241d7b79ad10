"""The local stack's clock: the wall clock plus an offset a developer moves forward over HTTP.

``POST /_local/clock`` (``{"advance": "PT2H"}``, ``{"advance_seconds": 7200}`` or ``{"set":
"2026-12-05T08:00:00Z"}``) moves it, ``GET`` reads it, ``DELETE`` puts it back on the wall clock; each
answers ``{"now", "wall_clock", "offset_seconds"}``. The offset is written to a file whose path the stack
puts in ``DIXIT_LOCAL_CLOCK_FILE`` (``app.core.clock.LOCAL_CLOCK_FILE``), so every function it runs, in
this process or in a worker, reads the moved time through ``utc_now()``; its schedules run on it too
(``local_stack.schedules``). It only ever runs ahead of the wall clock: a move back is refused, and
``DELETE`` is the one way back. Like every ``/_local`` path it is the gateway's, never the API's.
"""

from __future__ import annotations

import json
import math
import os
import re
import tempfile
import threading
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from http import HTTPStatus
from pathlib import Path
from typing import Any, TextIO

from local_stack.responses import HttpResponse, problem

CLOCK_PATH = "/_local/clock"

#: The longest single move: far enough for any game's deadline, short of datetime's limits.
MAX_ADVANCE_SECONDS = 366 * 86_400

_ISO_DURATION = re.compile(
    r"^P(?:(?P<weeks>\d+(?:\.\d+)?)W)?(?:(?P<days>\d+(?:\.\d+)?)D)?"
    r"(?:T(?:(?P<hours>\d+(?:\.\d+)?)H)?(?:(?P<minutes>\d+(?:\.\d+)?)M)?(?:(?P<seconds>\d+(?:\.\d+)?)S)?)?$"
)
_SHORT_DURATION = re.compile(
    r"^\+?(?:(?P<days>\d+)d)?(?:(?P<hours>\d+)h)?(?:(?P<minutes>\d+)m)?(?:(?P<seconds>\d+)s)?$"
)
_UNIT_SECONDS = {"weeks": 604_800, "days": 86_400, "hours": 3_600, "minutes": 60, "seconds": 1}


class ClockChangeError(ValueError):
    """A change the clock refuses: ``status`` and a stable ``code`` for its problem+json answer."""

    def __init__(self, status: int, code: str, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail


def parse_duration(text: str) -> float:
    """Seconds in an ISO 8601 duration without years or months (``PT2H``, ``P1DT30M``) or a shorthand
    (``+2h``, ``1d2h30m``, ``90s``); a duration of no length or of another shape is refused."""
    cleaned = text.strip()
    match = _ISO_DURATION.fullmatch(cleaned.upper()) if cleaned.upper().startswith("P") else None
    match = match or _SHORT_DURATION.fullmatch(cleaned.lower())
    if match is None or not any(match.groupdict().values()) or cleaned.upper().endswith("T"):
        raise ClockChangeError(
            422,
            "clock_duration_invalid",
            f"{text!r} is not a duration: use ISO 8601 without years or months (PT2H, P1DT30M) or 2h, 1d2h",
        )
    parts = match.groupdict().items()
    return float(sum(float(value) * _UNIT_SECONDS[unit] for unit, value in parts if value))


def parse_instant(text: str) -> datetime:
    """An ISO 8601 date and time with its offset (``Z`` or ``+01:00``): a bare local time is ambiguous."""
    try:
        moment = datetime.fromisoformat(text.strip().replace("z", "Z").replace("Z", "+00:00"))
    except ValueError:
        moment = None
    if moment is None or moment.tzinfo is None:
        raise ClockChangeError(
            422,
            "clock_time_invalid",
            f"{text!r} is not an ISO 8601 time with an offset (e.g. 2026-12-05T08:00:00Z)",
        )
    return moment.astimezone(UTC)


def _iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class StackClock:
    """The stack's time: ``wall()`` plus an offset, kept in a file every function's process reads."""

    def __init__(
        self,
        path: Path | None = None,
        *,
        wall: Callable[[], datetime] = lambda: datetime.now(UTC),
        on_move: Callable[[], None] | None = None,
    ) -> None:
        """``path`` defaults to a new temporary file; ``on_move`` is called after each change."""
        if path is None:
            handle, name = tempfile.mkstemp(prefix="dixit-local-clock-", suffix=".txt")
            os.close(handle)
            path = Path(name)
        self.path = path
        self.wall = wall
        self.on_move = on_move
        self._offset = 0.0
        self._lock = threading.Lock()
        self._write()

    @property
    def offset_seconds(self) -> float:
        return self._offset

    def now(self) -> datetime:
        return self.wall() + timedelta(seconds=self._offset)

    def advance(self, seconds: float) -> datetime:
        """Move forward by ``seconds`` (more than 0, at most MAX_ADVANCE_SECONDS); the new time."""
        if not (math.isfinite(seconds) and 0 < seconds <= MAX_ADVANCE_SECONDS):
            raise ClockChangeError(
                422,
                "clock_duration_invalid",
                f"a move is forward, by more than 0 and at most {MAX_ADVANCE_SECONDS} seconds (366 days)",
            )
        return self._move(lambda: self._offset + seconds)

    def set(self, moment: datetime) -> datetime:
        """Move to ``moment``, from which the clock runs on; never earlier than the clock now."""

        def offset() -> float:
            wanted = (moment - self.wall()).total_seconds()
            if wanted < self._offset:
                raise ClockChangeError(
                    409,
                    "clock_backwards",
                    f"the stack's clock is at {_iso(self.now())}: it only moves forward (DELETE resets it)",
                )
            if wanted - self._offset > MAX_ADVANCE_SECONDS:
                raise ClockChangeError(422, "clock_time_invalid", "a move is at most 366 days")
            return wanted

        return self._move(offset)

    def reset(self) -> datetime:
        """Back on the wall clock."""
        return self._move(lambda: 0.0)

    def _move(self, offset: Callable[[], float]) -> datetime:
        with self._lock:
            self._offset = offset()
            self._write()
        if self.on_move is not None:
            self.on_move()
        return self.now()

    def _write(self) -> None:
        # Written aside and renamed over: a reader sees the old offset or the new one, never half of one.
        temporary = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        temporary.write_text(repr(self._offset), encoding="ascii")
        os.replace(temporary, self.path)

    def as_json(self) -> dict[str, Any]:
        wall = self.wall()
        return {
            "now": _iso(wall + timedelta(seconds=self._offset)),
            "wall_clock": _iso(wall),
            "offset_seconds": self._offset,
        }

    def close(self) -> None:
        """Remove the file: a process still reading it is back on the wall clock."""
        self.path.unlink(missing_ok=True)


def apply_change(clock: StackClock, change: Any) -> datetime:
    """One change from a request body: exactly one of ``advance``, ``advance_seconds`` or ``set``."""
    keys = ("advance", "advance_seconds", "set")
    if not isinstance(change, dict) or len(change) != 1 or next(iter(change)) not in keys:
        raise ClockChangeError(
            400,
            "clock_request_invalid",
            'the body is one JSON object with exactly one of "advance" (an ISO 8601 duration), '
            '"advance_seconds" (a number) or "set" (an ISO 8601 time)',
        )
    ((key, value),) = change.items()
    if key == "advance_seconds":
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ClockChangeError(400, "clock_request_invalid", '"advance_seconds" is a number of seconds')
        return clock.advance(float(value))
    if not isinstance(value, str):
        raise ClockChangeError(400, "clock_request_invalid", f'"{key}" is a string')
    if key == "advance":
        return clock.advance(parse_duration(value))
    return clock.set(parse_instant(value))


def _answer(clock: StackClock) -> HttpResponse:
    body = json.dumps(clock.as_json()).encode("utf-8")
    return HttpResponse(200, [("Content-Type", "application/json"), ("Cache-Control", "no-store")], body)


def clock_app(clock: StackClock) -> Callable[[str, str, str, Sequence[tuple[str, str]], bytes], HttpResponse]:
    """The gateway's ``/_local/clock``: GET reads the clock, POST moves it, DELETE resets it."""

    def handle(
        method: str, path: str, _query: str, headers: Sequence[tuple[str, str]], body: bytes
    ) -> HttpResponse:
        if path != CLOCK_PATH:
            return problem(404, "Not Found", "route_not_found", f"no local path {path}")
        if method in ("GET", "HEAD"):
            return _answer(clock)
        if method == "DELETE":
            clock.reset()
            return _answer(clock)
        if method != "POST":
            refused = problem(
                405, "Method Not Allowed", "method_not_allowed", f"{method} is not served on {CLOCK_PATH}"
            )
            return HttpResponse(405, [*refused.headers, ("Allow", "GET, POST, DELETE")], refused.body)
        content_type = next((v for k, v in headers if k.lower() == "content-type"), "")
        # JSON only: a web page can send a form or text/plain here without asking, never JSON.
        if content_type.split(";")[0].strip().lower() != "application/json":
            return problem(
                415, "Unsupported Media Type", "unsupported_media_type", "send the change as application/json"
            )
        try:
            change = json.loads(body or b"null")
        except ValueError:
            change = None
        try:
            apply_change(clock, change)
        except ClockChangeError as refused_change:
            return problem(
                refused_change.status,
                HTTPStatus(refused_change.status).phrase,
                refused_change.code,
                refused_change.detail,
            )
        return _answer(clock)

    return handle


# -- `python -m local_stack clock`: the same, against a running stack --------------------------------


def cli_request(change: str | None) -> tuple[str, dict[str, str] | None]:
    """The method and body ``/_local/clock`` is sent for a command-line change: none reads the clock,
    ``reset`` resets it, a duration (``+2h``, ``PT2H``) advances it, anything else is a time to set."""
    if change is None or not change.strip():
        return "GET", None
    if change.strip().lower() == "reset":
        return "DELETE", None
    try:
        parse_duration(change)
    except ClockChangeError:
        return "POST", {"set": change}
    return "POST", {"advance": change}


def clock_command(api_url: str, change: str | None, *, out: TextIO, err: TextIO, timeout: float = 30) -> int:
    """Send one change to the stack at ``api_url``; print its answer (the clock, or the problem)."""
    if not api_url.startswith(("http://", "https://")):
        print(f"not an http(s) address: {api_url}", file=err)
        return 2
    method, body = cli_request(change)
    request = urllib.request.Request(  # noqa: S310 - http(s) only: the stack's address
        f"{api_url.rstrip('/')}{CLOCK_PATH}",
        method=method,
        data=None if body is None else json.dumps(body).encode("utf-8"),
        headers={} if body is None else {"Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310 - as above
            print(response.read().decode("utf-8"), file=out)
            return 0
    except urllib.error.HTTPError as refused:
        print(refused.read().decode("utf-8", "replace"), file=err)
        return 1
    except (urllib.error.URLError, OSError) as exc:
        print(f"cannot reach the local stack at {api_url}: {exc}", file=err)
        return 2
