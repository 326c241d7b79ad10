"""Attaching an email and signing in with it, over HTTP (the real lambda_handler on moto), as a player and
as an attacker would: wrong, used, old and misdirected codes, floods, and telling addresses apart."""

from __future__ import annotations

import json
import statistics
import time
from collections import Counter
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest

from app.aws import clients as aws_clients
from tests.support.mail import WEB, Mailroom, recorded_mail

from ..client import Client, FakeContext, Reply, make_event
from ..helpers import lobby


@pytest.fixture
def mail(aws: None, monkeypatch: pytest.MonkeyPatch) -> Mailroom:
    return recorded_mail(monkeypatch)


def from_source(method: str, path: str, body: Any, source: str = "203.0.113.7") -> Reply:
    """A public request as API Gateway hands it on, from `source`."""
    from handlers.api import lambda_handler

    event = make_event(method, path, body=body)
    event["requestContext"]["identity"]["sourceIp"] = source
    result = lambda_handler(event, FakeContext())
    headers = dict(result.get("headers") or {})
    for name, values in (result.get("multiValueHeaders") or {}).items():
        headers.setdefault(name, values[0])
    return Reply(result["statusCode"], headers, result.get("body") or "")


def confirmed(mail: Mailroom, name: str, address: str) -> Client:
    player = Client(name).register()
    assert player.post("/players/me/email", {"email": address}).status == 202
    assert player.post("/players/me/email/verify", {"code": mail.code_for(address.lower())}).status == 200
    return player


def wrong(code: str) -> str:
    return f"{(int(code) + 1) % 1_000_000:06d}"


# Attaching


def test_attaching_answers_202_mails_a_code_and_a_link_and_verifying_confirms(mail: Mailroom) -> None:
    ada = Client("Ada").register()
    reply = ada.post("/players/me/email", {"email": "Ada@Example.com"})
    assert reply.status == 202, reply.raw
    assert reply.body["email"] == "ada@example.com"
    assert reply.body["expires_at"].endswith("Z")
    assert reply.headers["Location"] == "/players/me"
    code = mail.code_for("ada@example.com")
    assert f"{WEB}/#/verify-email/{code}" in mail.last_to("ada@example.com").text
    me = ada.get("/players/me").body
    assert (me["email"], me["email_verified"], me["pending_email"]) == (
        "ada@example.com",
        False,
        "ada@example.com",
    )

    verified = ada.post("/players/me/email/verify", {"code": code})
    assert verified.status == 200, verified.raw
    assert verified.body == {**me, "email_verified": True, "pending_email": None}
    assert ada.get("/players/me").body == verified.body


def test_a_new_player_has_no_email_and_other_players_never_see_one(mail: Mailroom) -> None:
    ada = confirmed(mail, "Ada", "ada@example.com")
    bob, cy = Client("Bob").register(), Client("Cy").register()
    me = bob.get("/players/me").body
    assert (me["email"], me["email_verified"], me["pending_email"]) == (None, False, None)
    game_id = lobby([ada, bob, cy])
    for viewer in (bob, cy):
        assert "ada@example.com" not in viewer.get(f"/games/{game_id}").raw


def test_another_players_confirmed_address_is_409_at_verification_and_202_before(mail: Mailroom) -> None:
    confirmed(mail, "Ada", "ada@example.com")
    bob = Client("Bob").register()
    asked = bob.post("/players/me/email", {"email": "ada@example.com"})
    assert asked.status == 202
    taken = bob.post("/players/me/email/verify", {"code": mail.code_for("ada@example.com")})
    assert (taken.status, taken.body["code"]) == (409, "email_taken")
    assert bob.get("/players/me").body["email_verified"] is False


def test_a_deleted_accounts_address_is_free_again_and_signs_nobody_in(mail: Mailroom) -> None:
    ada = confirmed(mail, "Ada", "ada@example.com")
    assert ada.delete("/players/me").status == 204
    # Nobody owns it now: signing in with it reaches no one, and another player can confirm it.
    assert Client("Ghost").post("/sessions", {"email": "ada@example.com"}).status == 202
    stale = from_source("POST", "/sessions/verify", {"email": "ada@example.com", "code": "123456"})
    assert stale.status == 422
    bob = confirmed(mail, "Bob", "ada@example.com")
    assert bob.get("/players/me").body["email"] == "ada@example.com"
    assert bob.get("/players/me").body["email_verified"] is True


def test_a_suppressed_address_cannot_be_attached(mail: Mailroom) -> None:
    mail.mailer.suppressed.add("bounced@example.com")
    reply = Client("Ada").register().post("/players/me/email", {"email": "bounced@example.com"})
    assert (reply.status, reply.body["code"]) == (422, "email_suppressed")


def test_without_mail_every_email_route_that_sends_is_501(aws: None) -> None:
    ada = Client("Ada").register()
    attach = ada.post("/players/me/email", {"email": "ada@example.com"})
    sign_in = from_source("POST", "/sessions", {"email": "ada@example.com"})
    for reply in (attach, sign_in):
        assert (reply.status, reply.body["code"]) == (501, "email_not_configured")


# Signing in


def test_a_confirmed_address_signs_in_on_another_device(mail: Mailroom) -> None:
    ada = confirmed(mail, "Ada", "ada@example.com")
    asked = from_source("POST", "/sessions", {"email": "ADA@example.com"})
    assert asked.status == 202, asked.raw
    assert json.loads(asked.raw) == {"sent_to": "ADA@example.com", "expires_in": 600}
    code = mail.code_for("ada@example.com")
    assert f"{WEB}/#/sign-in/ada%40example.com/{code}" in mail.last_to("ada@example.com").text

    signed = from_source(
        "POST", "/sessions/verify", {"email": "ada@example.com", "code": code, "device": "tablet"}
    )
    assert signed.status == 201, signed.raw
    body = json.loads(signed.raw)
    assert set(body) == {"player_id", "name", "session_id", "token"}
    assert (body["player_id"], body["name"]) == (ada.player_id, "Ada")
    assert signed.headers["Cache-Control"] == "no-store"
    assert signed.headers["Location"] == "/players/me"
    tablet = Client("Ada", token=body["token"], player_id=ada.player_id)
    assert tablet.get("/players/me").body["session_id"] == body["session_id"]
    devices = [s["device"] for s in ada.get("/players/me/sessions").body["sessions"]]
    assert "tablet" in devices


def test_the_sixth_try_fails_even_with_the_right_code(mail: Mailroom) -> None:
    confirmed(mail, "Ada", "ada@example.com")
    from_source("POST", "/sessions", {"email": "ada@example.com"})
    code = mail.code_for("ada@example.com")
    for n in range(5):
        reply = from_source(
            "POST", "/sessions/verify", {"email": "ada@example.com", "code": wrong(code)}, f"198.51.100.{n}"
        )
        assert (reply.status, json.loads(reply.raw)["code"]) == (422, "code_invalid")
    reply = from_source("POST", "/sessions/verify", {"email": "ada@example.com", "code": code})
    assert (reply.status, json.loads(reply.raw)["code"]) == (422, "code_expired")


def test_a_code_signs_in_once(mail: Mailroom) -> None:
    confirmed(mail, "Ada", "ada@example.com")
    from_source("POST", "/sessions", {"email": "ada@example.com"})
    body = {"email": "ada@example.com", "code": mail.code_for("ada@example.com")}
    assert from_source("POST", "/sessions/verify", body).status == 201
    again = from_source("POST", "/sessions/verify", body)
    assert (again.status, json.loads(again.raw)["code"]) == (422, "code_invalid")


def test_a_code_older_than_ten_minutes_is_refused(mail: Mailroom) -> None:
    confirmed(mail, "Ada", "ada@example.com")
    from_source("POST", "/sessions", {"email": "ada@example.com"})
    mail.clock.advance(minutes=10)
    reply = from_source(
        "POST", "/sessions/verify", {"email": "ada@example.com", "code": mail.code_for("ada@example.com")}
    )
    assert (reply.status, json.loads(reply.raw)["code"]) == (422, "code_expired")


def test_a_code_for_one_address_cannot_sign_in_another(mail: Mailroom) -> None:
    confirmed(mail, "Ada", "ada@example.com")
    confirmed(mail, "Bob", "bob@example.com")
    from_source("POST", "/sessions", {"email": "ada@example.com"})
    from_source("POST", "/sessions", {"email": "bob@example.com"})
    ada_code = mail.code_for("ada@example.com")
    reply = from_source("POST", "/sessions/verify", {"email": "bob@example.com", "code": ada_code})
    assert reply.status == 422
    assert "token" not in reply.raw


def test_no_code_link_or_unknown_address_is_stored_in_clear(mail: Mailroom, table: Any) -> None:
    confirmed(mail, "Ada", "ada@example.com")
    from_source("POST", "/sessions", {"email": "ada@example.com"})
    from_source("POST", "/sessions", {"email": "stranger@example.com"})
    Client("Bob").register().post("/players/me/email", {"email": "bob@example.com"})
    stored = json.dumps(table.scan()["Items"], default=str)
    assert mail.mailer.sent
    for sent in mail.mailer.sent:
        code = next(word for word in sent.subject.split() if word.isdigit())
        assert code not in stored, sent.subject
        link = next(word for word in sent.text.split() if word.startswith(WEB))
        assert link not in stored
    assert "stranger@example.com" not in stored
    assert "203.0.113.7" not in stored
    items = table.scan()["Items"]
    codes = [i for i in items if i["pk"].startswith("SIGNIN#") or i["sk"] == "EMAIL_CODE"]
    assert len(codes) == 3
    assert all(len(i["code_hash"]) == 64 and int(i["expires_at"]) > time.time() for i in codes)


def test_codes_to_an_address_wait_longer_and_longer_and_requests_are_limited_per_source(
    mail: Mailroom,
) -> None:
    # The limits are fixed windows (app.core.rates): start just inside a ten-minute window, so that the
    # four asks below, a minute apart, fall in one window whatever the time the test runs at.
    start = mail.clock.now
    mail.clock.now = start - timedelta(seconds=start.timestamp() % 600 - 5)
    assert from_source("POST", "/sessions", {"email": "ada@example.com"}, "198.51.100.1").status == 202
    limited = from_source("POST", "/sessions", {"email": "ada@example.com"}, "198.51.100.99")
    assert (limited.status, json.loads(limited.raw)["code"]) == (429, "too_many_codes")
    assert 0 < int(limited.headers["Retry-After"]) <= 60
    for _ in range(2):
        mail.clock.advance(minutes=1)
        assert from_source("POST", "/sessions", {"email": "ada@example.com"}, "198.51.100.2").status == 202
    mail.clock.advance(minutes=1)
    longer = from_source("POST", "/sessions", {"email": "ada@example.com"}, "198.51.100.3")
    assert (longer.status, json.loads(longer.raw)["code"]) == (429, "too_many_codes")
    assert 60 < int(longer.headers["Retry-After"]) <= 600
    for n in range(20):
        assert from_source("POST", "/sessions", {"email": f"p{n}@example.com"}, "192.0.2.1").status == 202
    limited = from_source("POST", "/sessions", {"email": "new@example.com"}, "192.0.2.1")
    assert (limited.status, json.loads(limited.raw)["code"]) == (429, "too_many_requests")
    assert "Retry-After" in limited.headers


def test_wrong_codes_from_many_sources_never_stop_the_owner_signing_in_with_a_fresh_code(
    mail: Mailroom,
) -> None:
    """#37: 10 wrong tries from 10 sources, and the owner's right code got 429 too_many_attempts."""
    confirmed(mail, "Ada", "ada@example.com")
    from_source("POST", "/sessions", {"email": "ada@example.com"})
    for n in range(25):
        reply = from_source(
            "POST", "/sessions/verify", {"email": "ada@example.com", "code": "000000"}, f"198.51.100.{n}"
        )
        assert reply.status == 422, reply.raw
    mail.clock.advance(minutes=1)
    assert from_source("POST", "/sessions", {"email": "ada@example.com"}).status == 202
    code = mail.code_for("ada@example.com")
    signed = from_source(
        "POST", "/sessions/verify", {"email": "ada@example.com", "code": code, "device": "x"}
    )
    assert signed.status == 201, signed.raw


# Telling addresses apart


class DynamoCalls:
    """Every DynamoDB call the API makes, by operation and the key prefixes it touches."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple[str, ...]]] = []

    def __call__(self, params: dict[str, Any], model: Any, **_: Any) -> None:
        if model.name == "TransactWriteItems":
            keys = [
                (next(iter(e.values())).get("Key") or next(iter(e.values()))["Item"])
                for e in params["TransactItems"]
            ]
        else:
            keys = [params.get("Key") or params.get("Item") or {}]
        self.calls.append((model.name, tuple(self._kind(k) for k in keys)))

    @staticmethod
    def _kind(key: dict[str, Any]) -> str:
        pk = str(key.get("pk", {}).get("S", ""))
        return f"{pk.split('#')[0]}#/{key.get('sk', {}).get('S', '').split('#')[0]}"


@pytest.fixture
def dynamo_calls(aws: None) -> Iterator[DynamoCalls]:
    recorder = DynamoCalls()
    client = aws_clients.dynamodb()
    client.meta.events.register("provide-client-params.dynamodb", recorder)
    yield recorder
    client.meta.events.unregister("provide-client-params.dynamodb", recorder)


def test_a_players_address_and_a_strangers_get_the_same_answer_the_same_calls_and_time(
    monkeypatch: pytest.MonkeyPatch, dynamo_calls: DynamoCalls
) -> None:
    # A floor of 50 ms: long enough to cover a recorded mail and moto's jitter, short enough for CI.
    mail = recorded_mail(monkeypatch, floor_seconds=0.05)
    known, unknown = "ada@example.com", "nobody@example.com"
    confirmed(mail, "Ada", known)
    sent_before = len(mail.mailer.sent)
    replies: dict[str, list[Reply]] = {known: [], unknown: []}
    calls: dict[str, list[Counter[tuple[str, tuple[str, ...]]]]] = {known: [], unknown: []}
    took: dict[str, list[float]] = {known: [], unknown: []}
    for n in range(30):
        for address in (known, unknown) if n % 2 else (unknown, known):
            mail.clock.advance(hours=1)  # a fresh hour: the per-address limit would stop the loop at 5
            dynamo_calls.calls.clear()
            started = time.perf_counter()
            replies[address].append(from_source("POST", "/sessions", {"email": address}, f"198.51.100.{n}"))
            took[address].append(time.perf_counter() - started)
            calls[address].append(Counter(dynamo_calls.calls))

    for address, answers in replies.items():
        assert {r.status for r in answers} == {202}
        assert all(json.loads(r.raw) == {"sent_to": address, "expires_in": 600} for r in answers)
    assert {frozenset(r.headers) for r in replies[known]} == {frozenset(r.headers) for r in replies[unknown]}
    # The same reads and writes, of the same items' kinds, on every request of either address.
    (known_calls,) = {tuple(sorted(c.items())) for c in calls[known]}
    (unknown_calls,) = {tuple(sorted(c.items())) for c in calls[unknown]}
    assert known_calls == unknown_calls
    assert len(mail.mailer.sent) - sent_before == 30  # only the player's address was mailed
    # Timing within noise: the medians agree to 20 ms or 50 %, whichever is looser (busy CI machines);
    # both are held to the floor, so neither can be much under it.
    assert min(min(took[known]), min(took[unknown])) >= 0.05
    known_median, unknown_median = statistics.median(took[known]), statistics.median(took[unknown])
    assert abs(known_median - unknown_median) <= max(0.02, 0.5 * min(known_median, unknown_median))
