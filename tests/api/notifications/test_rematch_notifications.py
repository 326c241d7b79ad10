"""A rematch over HTTP and the table's stream, on moto: the finished game's other players get a mail
saying who opened it, with the lobby's join link, once; the opener, and whoever muted the finished
game, get none; a player in quiet hours gets theirs when the hours end."""

from __future__ import annotations

import pytest

from app import bootstrap
from app.aws.dynamodb.notify import DynamoNotificationStore
from app.notify import holding
from app.notify.delivery import Delivery
from app.notify.messages import Kind
from tests.support.aws import TABLE
from tests.support.mail import WEB, Mailroom, recorded_mail

from ..client import Client
from ..helpers import by_id, started, view
from ..stream import StreamFeed, invoke_notify

FOREVER = 10**9


@pytest.fixture
def mail(aws: None, monkeypatch: pytest.MonkeyPatch) -> Mailroom:
    monkeypatch.setenv("UNSUBSCRIBE_SECRET", "test-unsubscribe-secret")
    return recorded_mail(monkeypatch)


def confirmed(mail: Mailroom, player: Client, address: str) -> None:
    assert player.post("/players/me/email", {"email": address}).status == 202
    assert player.post("/players/me/email/verify", {"code": mail.code_for(address)}).status == 200


def finish(clients: list[Client], game_id: str) -> None:
    """Every owed move made by whoever owes it, until the game (to one point) is over."""
    seats = by_id(clients)
    for _ in range(30):
        body = view(clients[0], game_id)
        if body["phase"] == "finished":
            return
        pid = body["round"]["waiting_for"][0]
        mine = view(seats[pid], game_id)
        owed = mine["you"]["owes"]
        if owed["move"] == "clue":
            card = mine["you"]["hand"][0]["card_id"]
            seats[pid].post(f"/games/{game_id}/clue", {"card_id": card, "clue": "x"})
        elif owed["move"] == "submit":
            cards = [c["card_id"] for c in mine["you"]["hand"][: owed["count"]]]
            seats[pid].post(f"/games/{game_id}/submissions", {"card_ids": cards})
        else:
            mine_ = set(mine["you"]["submitted"])
            choice = next(c["card_id"] for c in mine["round"]["table"] if c["card_id"] not in mine_)
            seats[pid].post(f"/games/{game_id}/votes", {"card_ids": [choice]})
    raise AssertionError("the game did not finish")


def rematch_mails(mail: Mailroom, address: str) -> list[str]:
    return [m.text for m in mail.mailer.to(address) if "a rematch opened by" in m.subject]


def test_the_finished_games_other_players_hear_of_its_rematch_once_through_the_stream(
    mail: Mailroom, players: list[Client]
) -> None:
    opener, told, muter, sleeper = players[:4]
    for n, player in enumerate(players[:4]):
        confirmed(mail, player, f"p{n}@example.com")
    game_id = started(players[:4], target_score=1)
    finish(players[:4], game_id)
    assert muter.put(f"/games/{game_id}/notifications", {"muted": True}).status == 200
    hour = mail.clock().hour
    quiet = {"start": f"{(hour - 1) % 24:02d}:00", "end": f"{(hour + 2) % 24:02d}:00"}
    assert sleeper.put("/players/me/notifications", {"quiet_hours": quiet}).status == 200
    feed = StreamFeed(TABLE)

    opened = opener.post(f"/games/{game_id}/rematch")
    assert opened.status == 200, opened.raw
    lobby_id, code = opened.body["game_id"], opened.body["invite_code"]
    event = feed.event()
    for _ in range(2):  # Lambda may hand the same records twice
        assert invoke_notify(event) == {"batchItemFailures": []}
    (text,) = rematch_mails(mail, "p1@example.com")
    assert f"{WEB}/#/join/{lobby_id}/{code}" in text
    assert opened.body["players"][0]["name"] in text
    assert rematch_mails(mail, "p0@example.com") == []  # the opener
    assert rematch_mails(mail, "p2@example.com") == []  # muted the finished game
    assert rematch_mails(mail, "p3@example.com") == []  # asleep: held
    store = DynamoNotificationStore(TABLE)
    (held,) = store.held_page(holding.shard_of(sleeper.player_id), FOREVER * 2, limit=10)[0]
    assert (held.notification.kind, held.notification.game_id) == (Kind.REMATCH, lobby_id)

    # The told player's own rematch call joins the lobby: a change nobody hears of again.
    assert told.post(f"/games/{game_id}/rematch").status == 200
    assert feed.deliver() == {"batchItemFailures": []}
    assert len(rematch_mails(mail, "p1@example.com")) == 1

    mail.clock.advance(hours=3)
    services = bootstrap.services()
    delivery = Delivery.of(services)
    report = holding.release(
        services, delivery, delivery.now_epoch(), remaining_ms=lambda: FOREVER, reserve_ms=0
    )
    assert report.released == 1
    assert len(rematch_mails(mail, "p3@example.com")) == 1
