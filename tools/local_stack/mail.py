"""A real mailbox for the local stack: what the app sends through SES on the twin, kept and shown.

moto's SES v2 keeps one body of each mail (the HTML when there is one) and has no suppression list, so
the twin serves SES v2 through ``SesMailbox``, WSGI middleware in front of moto:

- ``SendEmail`` goes to moto as before (it still checks the sender is a verified identity); once moto
  has accepted it, the whole message (to, subject, text and HTML) goes into the ``Mailbox``, unless an
  address is suppressed, which SES accepts too and never delivers.
- ``GetSuppressedDestination``, ``PutSuppressedDestination`` and ``DeleteSuppressedDestination`` are
  the account's suppression list, kept here (``aws sesv2 put-suppressed-destination`` plays a bounce).

``MailTap`` prints each new mail as a ``[mail]`` line followed by its text (the code a developer needs),
and the gateway serves the latest at ``GET /_local/mail`` (``Mailbox.as_json``), newest first.
"""

from __future__ import annotations

import io
import json
import logging
import threading
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import Any
from urllib.parse import parse_qs, unquote

from local_stack.poller import Loop, Poller
from local_stack.responses import HttpResponse, problem

LOG = logging.getLogger("local_stack.mail")

#: The sender the local stack verifies on the twin when the EmailFrom parameter is not given.
LOCAL_EMAIL_FROM = "dixit@localhost.test"
#: The most mails kept (and the most ``GET /_local/mail?limit=`` returns); the default answer's length.
KEPT = 200
DEFAULT_LIMIT = 50
#: Where the gateway serves the mailbox: the local stack's own path, never a route of template.yaml.
MAILBOX_PATH = "/_local/mail"

_SEND = "/v2/email/outbound-emails"
_SUPPRESSION = "/v2/email/suppression/addresses"

WsgiApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


@dataclass(frozen=True, slots=True)
class LocalMail:
    to: list[str]
    subject: str
    text: str
    html: str
    sent_at: str
    from_address: str = ""
    message_id: str = ""
    configuration_set: str = ""
    # The extra header fields the sender set (SES v2 Simple.Headers), as {name: value}.
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class Mailbox:
    """The mails SES accepted on the twin (the last ``KEPT``) and the account's suppression list."""

    kept: int = KEPT
    clock: Callable[[], datetime] = field(default=lambda: datetime.now(UTC))
    _mails: deque[tuple[int, LocalMail]] = field(init=False)
    _count: int = field(default=0, init=False)
    _suppressed: dict[str, dict[str, str]] = field(default_factory=dict, init=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False)

    def __post_init__(self) -> None:
        self._mails = deque(maxlen=self.kept)

    def deliver(self, mail: LocalMail) -> None:
        with self._lock:
            self._count += 1
            self._mails.append((self._count, mail))

    def latest(self, limit: int = DEFAULT_LIMIT) -> list[LocalMail]:
        """The last ``limit`` mails, newest first."""
        with self._lock:
            return [mail for _, mail in reversed(self._mails)][: max(limit, 0)]

    def since(self, seen: int) -> tuple[int, list[LocalMail]]:
        """The mails delivered after the ``seen``-th one (oldest first) and how many there are in all."""
        with self._lock:
            return self._count, [mail for number, mail in self._mails if number > seen]

    def as_json(self, query: str = "") -> HttpResponse:
        """``GET /_local/mail[?limit=N]``: ``[{to, subject, text, html, sent_at, ...}]``, newest first."""
        raw = (parse_qs(query).get("limit") or [str(DEFAULT_LIMIT)])[0]
        if not raw.isdigit():
            return problem(400, "Bad Request", "invalid_limit", f"limit must be 0 to {self.kept}")
        # `to` as one string, as a mail client shows it (the app sends each mail to one address).
        mails = [{**asdict(mail), "to": ", ".join(mail.to)} for mail in self.latest(min(int(raw), self.kept))]
        body = json.dumps(mails).encode("utf-8")
        return HttpResponse(200, [("Content-Type", "application/json"), ("Cache-Control", "no-store")], body)

    # The suppression list

    def suppress(self, address: str, reason: str) -> None:
        with self._lock:
            self._suppressed[address.lower()] = {
                "EmailAddress": address,
                "Reason": reason,
                "LastUpdateTime": self.clock().isoformat(),
            }

    def unsuppress(self, address: str) -> bool:
        with self._lock:
            return self._suppressed.pop(address.lower(), None) is not None

    def suppression(self, address: str) -> dict[str, str] | None:
        with self._lock:
            entry = self._suppressed.get(address.lower())
            return dict(entry) if entry else None


def describe(mail: LocalMail) -> str:
    """The ``[mail]`` line's words: who, what, then the text body (where the code is)."""
    return f"to={','.join(mail.to)} subject={mail.subject!r}\n{mail.text.rstrip()}"


def _answer(start_response: Callable[..., Any], status: str, body: Any, error: str = "") -> list[bytes]:
    payload = json.dumps(body).encode("utf-8")
    headers = [("Content-Type", "application/json"), ("Content-Length", str(len(payload)))]
    if error:
        headers.append(("x-amzn-ErrorType", error))  # how botocore reads a rest-json error's code
    start_response(status, headers)
    return [payload]


class SesMailbox:
    """WSGI middleware on the twin: SES v2 sends land in ``mailbox``; the suppression list lives there."""

    def __init__(self, app: WsgiApp, mailbox: Mailbox) -> None:
        self.app = app
        self.mailbox = mailbox

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        path = str(environ.get("PATH_INFO", ""))
        method = str(environ.get("REQUEST_METHOD", ""))
        if path.startswith(_SUPPRESSION):
            return self._suppression(
                method, unquote(path[len(_SUPPRESSION) :].strip("/")), environ, start_response
            )
        if path == _SEND and method == "POST":
            return self._send(environ, start_response)
        return self.app(environ, start_response)

    def _suppression(
        self, method: str, address: str, environ: dict[str, Any], start_response: Callable[..., Any]
    ) -> list[bytes]:
        if method == "PUT" and not address:
            request = json.loads(_read_body(environ) or b"{}")
            self.mailbox.suppress(str(request.get("EmailAddress", "")), str(request.get("Reason", "BOUNCE")))
            return _answer(start_response, "200 OK", {})
        if method == "GET" and address:
            entry = self.mailbox.suppression(address)
            if entry is not None:
                return _answer(start_response, "200 OK", {"SuppressedDestination": entry})
        elif method == "DELETE" and address:
            if self.mailbox.unsuppress(address):
                return _answer(start_response, "200 OK", {})
        else:
            return _answer(
                start_response, "400 Bad Request", {"message": "not served locally"}, "BadRequestException"
            )
        return _answer(
            start_response, "404 Not Found", {"message": f"{address} is not suppressed"}, "NotFoundException"
        )

    def _send(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> list[bytes]:
        body = _read_body(environ)
        status: list[str] = []

        def capture(code: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            status.append(code)
            return start_response(code, headers, exc_info)

        answer = b"".join(self.app(environ, capture))
        if status and status[0].startswith("200"):
            try:
                self._deliver(json.loads(body), json.loads(answer))
            except (ValueError, KeyError, TypeError, AttributeError) as exc:
                LOG.warning("a mail SES accepted could not be read into the mailbox: %s", exc)
        return [answer]

    def _deliver(self, request: dict[str, Any], answer: dict[str, Any]) -> None:
        destination = request.get("Destination") or {}
        to = [
            *destination.get("ToAddresses", []),
            *destination.get("CcAddresses", []),
            *destination.get("BccAddresses", []),
        ]
        if any(self.mailbox.suppression(address) for address in to):
            LOG.info("mail to a suppressed address accepted and dropped, as SES does: %s", ", ".join(to))
            return
        simple = request["Content"]["Simple"]
        parts = simple.get("Body") or {}
        self.mailbox.deliver(
            LocalMail(
                to=to,
                subject=str(simple["Subject"]["Data"]),
                text=str((parts.get("Text") or {}).get("Data", "")),
                html=str((parts.get("Html") or {}).get("Data", "")),
                sent_at=self.mailbox.clock().isoformat(timespec="milliseconds"),
                from_address=str(request.get("FromEmailAddress", "")),
                message_id=str(answer.get("MessageId", "")),
                configuration_set=str(request.get("ConfigurationSetName", "")),
                headers={str(header["Name"]): str(header["Value"]) for header in simple.get("Headers") or []},
            )
        )


def _read_body(environ: dict[str, Any]) -> bytes:
    """The request body, put back so the app after us reads it too."""
    length = int(environ.get("CONTENT_LENGTH") or 0)
    body = environ["wsgi.input"].read(length) if length else b""
    environ["wsgi.input"] = io.BytesIO(body)
    return bytes(body)


class MailTap(Poller):
    """Reports each mail the mailbox receives through ``report`` (a ``[mail]`` line and the text)."""

    def __init__(
        self, mailbox: Mailbox, *, report: Callable[[str], None] | None = None, poll_seconds: float = 0.2
    ) -> None:
        super().__init__(LOG)
        self.mailbox = mailbox
        self.report = report or (lambda line: LOG.info("mail: %s", line))
        self.poll_seconds = poll_seconds
        self._seen = 0

    def poll_once(self) -> list[str]:
        self._seen, mails = self.mailbox.since(self._seen)
        lines = [describe(mail) for mail in mails]
        for line in lines:
            self.report(line)
        return lines

    def loops(self) -> list[Loop]:
        pause = self.poll_seconds
        return [Loop("mail-tap", "reading the mailbox", self.poll_once, pause, pause, fixed_rate=True)]
