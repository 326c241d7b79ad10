"""Notification mail over HTTP and the stream, on moto: a turn mail reaches a verified address, and its
one-click unsubscribe link works with no sign-in (GET shows, only POST changes anything)."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

import pytest

from app.aws.dynamodb.notify import DynamoNotificationStore
from app.notify.email import unsubscribe
from app.notify.preferences import Channel
from tests.support.aws import TABLE
from tests.support.mail import WEB, Mailroom, recorded_mail

from ..client import Client, call
from ..helpers import assert_problem, started, storyteller
from ..stream import StreamFeed

SECRET = "test-unsubscribe-secret"


@pytest.fixture
def mail(aws: None, monkeypatch: pytest.MonkeyPatch) -> Mailroom:
    monkeypatch.setenv("UNSUBSCRIBE_SECRET", SECRET)
    return recorded_mail(monkeypatch)


def confirmed(mail: Mailroom, player: Client, address: str) -> Client:
    assert player.post("/players/me/email", {"email": address}).status == 202
    assert player.post("/players/me/email/verify", {"code": mail.code_for(address)}).status == 200
    return player


def token_of(header: str) -> str:
    url = re.fullmatch(r"<(.+)>", header)
    assert url is not None
    assert url.group(1).startswith(f"{WEB}/notifications/unsubscribe?token=")
    return parse_qs(urlsplit(url.group(1)).query)["token"][0]


def test_a_turn_mail_reaches_the_storyteller_and_its_one_click_link_unsubscribes_them(
    mail: Mailroom, players: list[Client]
) -> None:
    feed = StreamFeed(TABLE)
    for n, player in enumerate(players[:3]):
        confirmed(mail, player, f"p{n}@example.com")
    game_id = started(players[:3])
    teller = storyteller(players[:3], game_id)
    assert feed.deliver() == {"batchItemFailures": []}
    address = f"p{players.index(teller)}@example.com"
    (turn,) = [m for m in mail.mailer.to(address) if m.subject.startswith("Your turn")]
    assert f"{WEB}/play/{game_id}" in turn.text
    headers = dict(turn.headers)
    assert headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    token = token_of(headers["List-Unsubscribe"])

    store = DynamoNotificationStore(TABLE)
    looked = call(
        "GET", "/notifications/unsubscribe", query={"token": token}, headers={"Accept": "text/html"}
    )
    assert looked.status == 200
    assert looked.headers["Content-Type"].startswith("text/html")
    assert 'method="post"' in looked.raw
    assert store.preferences(teller.player_id).channels[Channel.EMAIL]  # opening the link changed nothing

    done = call(
        "POST",
        "/notifications/unsubscribe",
        query={"token": token},
        headers={"Content-Type": "application/x-www-form-urlencoded"},
        raw_body="List-Unsubscribe=One-Click",
    )
    assert done.status == 200, done.raw
    assert done.body == {
        "scope": "email",
        "unsubscribed": True,
        "detail": done.body["detail"],
    }
    assert store.preferences(teller.player_id).channels[Channel.EMAIL] == frozenset()
    again = call(
        "POST",
        "/notifications/unsubscribe",
        query={"token": token},
        headers={"Content-Type": "application/x-www-form-urlencoded"},
        raw_body="List-Unsubscribe=One-Click",
    )
    assert again.status == 200  # idempotent


def test_a_forged_or_altered_unsubscribe_token_is_refused_and_changes_nothing(
    mail: Mailroom, players: list[Client]
) -> None:
    ada = confirmed(mail, players[0], "ada@example.com")
    now = int(mail.clock().timestamp())
    forged = unsubscribe.sign(
        "another secret", ada.player_id, unsubscribe.Scope.EMAIL, address="ada@example.com", generation=0,
        issued_at=now,
    )  # fmt: skip
    for token in (forged, forged[:-2] + "AA"):
        reply = call("POST", "/notifications/unsubscribe", query={"token": token})
        assert_problem(reply, 422, "invalid_unsubscribe_token")
    assert DynamoNotificationStore(TABLE).preferences(ada.player_id).channels[Channel.EMAIL]
    genuine = unsubscribe.sign(
        SECRET, ada.player_id, unsubscribe.Scope.EMAIL, address="ada@example.com", generation=0, issued_at=now
    )
    shown = call("GET", "/notifications/unsubscribe", query={"token": genuine})
    assert shown.body["unsubscribed"] is False
    assert shown.body["scope"] == "email"


def test_an_expired_or_outdated_unsubscribe_link_answers_a_problem_and_changes_nothing(
    mail: Mailroom, players: list[Client]
) -> None:
    ada = confirmed(mail, players[0], "ada@example.com")
    now = int(mail.clock().timestamp())
    days = unsubscribe.LINK_LIFETIME.days

    def link(address: str = "ada@example.com", generation: int = 0, age_days: float = 0) -> str:
        return unsubscribe.sign(
            SECRET, ada.player_id, unsubscribe.Scope.EMAIL, address=address, generation=generation,
            issued_at=now - int(age_days * 86_400),
        )  # fmt: skip

    one_click = {"Content-Type": "application/x-www-form-urlencoded"}
    for token, code in (
        (link(age_days=days + 1), "unsubscribe_link_expired"),
        (link(address="old@example.com"), "unsubscribe_link_outdated"),  # mailed to an address since changed
        (link(generation=1), "unsubscribe_link_outdated"),  # not this player's generation
    ):
        shown = call("GET", "/notifications/unsubscribe", query={"token": token})
        assert_problem(shown, 422, code)
        followed = call("POST", "/notifications/unsubscribe", query={"token": token}, headers=one_click,
                        raw_body="List-Unsubscribe=One-Click")  # fmt: skip
        assert_problem(followed, 422, code)
    assert DynamoNotificationStore(TABLE).preferences(ada.player_id).channels[Channel.EMAIL]
    # A link mailed 29 days ago still unsubscribes in one click (RFC 8058).
    fresh = call("POST", "/notifications/unsubscribe", query={"token": link(age_days=days - 1)},
                 headers=one_click, raw_body="List-Unsubscribe=One-Click")  # fmt: skip
    assert fresh.status == 200, fresh.raw
    assert DynamoNotificationStore(TABLE).preferences(ada.player_id).channels[Channel.EMAIL] == frozenset()
    # Turning email back on makes every link mailed before it outdated.
    assert ada.put("/players/me/notifications", {"channels": {"email": ["your_turn"]}}).status == 200
    again = call("POST", "/notifications/unsubscribe", query={"token": link()}, headers=one_click,
                 raw_body="List-Unsubscribe=One-Click")  # fmt: skip
    assert_problem(again, 422, "unsubscribe_link_outdated")


def test_choosing_a_digest_hour_files_the_player_in_the_digest_index_and_turning_it_off_removes_them(
    mail: Mailroom, players: list[Client]
) -> None:
    from app.aws.dynamodb.mail_ledger import DynamoDigestIndex
    from app.notify.email.digest_schedule import digest_shard, next_due

    ada = players[0]
    index = DynamoDigestIndex(TABLE)
    assert ada.put("/players/me/notifications", {"digest": 8, "time_zone": "Europe/Paris"}).status == 200
    utc_hour = next_due("Europe/Paris", 8, mail.clock()).hour
    (entry,) = index.due_digests(utc_hour, digest_shard(ada.player_id))
    assert (entry.player_id, entry.hour, entry.time_zone) == (ada.player_id, 8, "Europe/Paris")
    assert ada.put("/players/me/notifications", {"digest": None}).status == 200
    assert index.due_digests(utc_hour, digest_shard(ada.player_id)) == []


def test_mail_the_api_sends_links_its_own_execute_api_url_unless_a_public_url_is_given() -> None:
    from dataclasses import replace

    from app.core.settings import AppSettings
    from handlers.api import _with_public_url
    from tests.support.services import memory_services

    services = memory_services(settings=AppSettings(web_base_url=WEB))
    event = {"requestContext": {"domainName": "a1b2c3.execute-api.eu-west-1.amazonaws.com", "stage": "prod"}}
    derived = _with_public_url(services, event)
    assert derived.settings.public_api_url == "https://a1b2c3.execute-api.eu-west-1.amazonaws.com/prod"
    local = {"requestContext": {"domainName": "127.0.0.1", "stage": "dev"}}
    assert _with_public_url(services, local).settings.public_api_url == ""  # one origin: WEB_BASE_URL
    given = replace(services, settings=AppSettings(public_api_url="https://api.dixit.example"))
    assert _with_public_url(given, event).settings.public_api_url == "https://api.dixit.example"


def test_the_sweeps_reminders_are_mailed_once_each_and_never_twice_in_12_hours(
    mail: Mailroom, players: list[Client]
) -> None:
    from datetime import timedelta

    from ..sweep.test_sweep import sweep_at

    for n, player in enumerate(players[:3]):
        confirmed(mail, player, f"r{n}@example.com")
    start = mail.clock()
    game_id = started(players[:3])  # the stream is not fed: no "your turn" mail, only the sweep's
    teller = storyteller(players[:3], game_id)
    address = f"r{players.index(teller)}@example.com"

    def reminders() -> list[str]:
        return [m.subject for m in mail.mailer.to(address) if m.subject.startswith("Reminder")]

    # The outbox's function sends when it runs: its clock moves with the sweep's.
    mail.clock.advance(hours=24)
    assert sweep_at(start + timedelta(hours=24))["reminders_sent"] == 1
    assert sweep_at(start + timedelta(hours=24, minutes=5))["games_due"] == 0  # a retried run
    assert len(reminders()) == 1
    mail.clock.advance(hours=20)
    assert sweep_at(start + timedelta(hours=44))["reminders_sent"] == 1  # last call, 20 hours on
    assert len(reminders()) == 2
    last = mail.mailer.to(address)[-1]
    assert f"{WEB}/play/{game_id}" in last.text
    assert {"List-Unsubscribe", "List-Unsubscribe-Post"} <= dict(last.headers).keys()
