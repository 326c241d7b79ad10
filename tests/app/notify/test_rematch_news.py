"""A finished game's other players hear that its rematch opened, once, through their own channels."""

from __future__ import annotations

import json
from typing import Any

import pytest

from app.core.records import PlayerRecord
from app.games import play as games
from app.games.rematch import rematch
from app.games.rematch_ids import rematch_id
from app.notify import holding, my_preferences
from app.notify.delivery import Delivery, set_game_muted
from app.notify.messages import Kind, Notification
from app.notify.web_push.browsers import payload_of
from app.services import Services
from handlers.game_stream import consume
from tests.app.games.test_rematch import finished
from tests.fakes.mail import RecordingMailer
from tests.fakes.notify import MemoryNotificationStore
from tests.fakes.push import MemoryNotifier
from tests.support.clock import Clock
from tests.support.services import memory_services
from tests.support.stream import GameStream

from .email.test_channel import SETTINGS, WEB, with_address
from .test_quiet_delivery import FOREVER, SIESTA


@pytest.fixture
def services(clock: Clock) -> Services:
    return memory_services(clock=clock, settings=SETTINGS)


@pytest.fixture
def game(services: Services) -> tuple[str, list[PlayerRecord]]:
    """A finished three-player game whose players have addresses, its own news already told."""
    game_id, accounts = finished(services)
    seated = [with_address(services, p, f"player{n}@example.com") for n, p in enumerate(accounts)]
    services.games.take_changes()  # type: ignore[attr-defined]
    return game_id, seated


def told(push: MemoryNotifier) -> list[tuple[str, str]]:
    return [(n.player_id, n.game_id) for n in push.published if n.kind is Kind.REMATCH]


def release(services: Services) -> holding.ReleaseReport:
    deliver = Delivery.of(services)
    return holding.release(services, deliver, deliver.now_epoch(), remaining_ms=lambda: FOREVER, reserve_ms=0)


def test_the_other_players_hear_of_the_rematch_once_and_its_opener_does_not(
    services: Services, push: MemoryNotifier, game: tuple[str, list[PlayerRecord]]
) -> None:
    game_id, (ada, bob, cy) = game
    stream = GameStream(services)
    rematch(services, ada, game_id)
    stream.deliver()
    lobby_id = rematch_id(game_id)
    assert sorted(told(push)) == sorted([(bob.player_id, lobby_id), (cy.player_id, lobby_id)])
    (to_bob,) = [n for n in push.published if n.player_id == bob.player_id]
    assert to_bob.text == f"{ada.name} opened a rematch — join"
    assert to_bob.rematch_of == game_id
    # Bob's rematch call joins the lobby the first one opened: nobody hears of the rematch again.
    rematch(services, bob, game_id)
    rematch(services, ada, game_id)
    stream.deliver()
    assert len(told(push)) == 2


def test_a_redelivered_lobby_record_mails_each_other_player_once_with_the_join_link(
    services: Services, mailer: RecordingMailer, game: tuple[str, list[PlayerRecord]]
) -> None:
    game_id, (ada, *_) = game
    opened = rematch(services, ada, game_id).record
    assert opened is not None
    changes = services.games.take_changes()  # type: ignore[attr-defined]
    for _ in range(2):  # the stream retries the record: each channel recognises its dedupe id
        for old, new in changes:
            consume(old, new, services)
    assert sorted(m.to for m in mailer.sent) == ["player1@example.com", "player2@example.com"]
    mail = mailer.sent[0]
    assert mail.subject == f"Dixit: a rematch opened by “{ada.name}” — join"
    assert f"{WEB}/#/join/{opened.game_id}/{opened.invite_code}" in mail.text
    assert "List-Unsubscribe" in dict(mail.headers)


def test_a_player_who_muted_the_finished_game_does_not_hear_of_its_rematch(
    services: Services,
    push: MemoryNotifier,
    mailer: RecordingMailer,
    game: tuple[str, list[PlayerRecord]],
) -> None:
    game_id, (ada, bob, cy) = game
    set_game_muted(Delivery.of(services), cy, games.load_game(services, game_id).state, True)
    stream = GameStream(services)
    rematch(services, ada, game_id)
    stream.deliver()
    assert [pid for pid, _ in told(push)] == [bob.player_id]
    assert [m.to for m in mailer.sent] == ["player1@example.com"]


def test_a_player_in_quiet_hours_hears_of_the_rematch_when_they_end(
    services: Services,
    push: MemoryNotifier,
    store: MemoryNotificationStore,
    clock: Clock,
    game: tuple[str, list[PlayerRecord]],
) -> None:
    game_id, (ada, bob, cy) = game
    my_preferences.change(services, cy, SIESTA)
    stream = GameStream(services)
    rematch(services, ada, game_id)
    stream.deliver()
    assert [pid for pid, _ in told(push)] == [bob.player_id]
    assert [(h.notification.kind, h.notification.player_id) for h in store.held] == [
        (Kind.REMATCH, cy.player_id)
    ]
    clock.advance(hours=2)
    assert release(services).released == 1
    assert [pid for pid, _ in told(push)] == [bob.player_id, cy.player_id]


def test_a_held_rematch_is_dropped_if_the_player_joined_it_meanwhile(
    services: Services,
    push: MemoryNotifier,
    store: MemoryNotificationStore,
    clock: Clock,
    game: tuple[str, list[PlayerRecord]],
) -> None:
    game_id, (ada, bob, cy) = game
    for sleeper in (bob, cy):
        my_preferences.change(services, sleeper, SIESTA)
    stream = GameStream(services)
    rematch(services, ada, game_id)
    stream.deliver()
    assert len(store.held) == 2
    rematch(services, bob, game_id)  # Bob woke up early and joined from the finished game's page
    clock.advance(hours=2)
    report = release(services)
    assert (report.released, report.dropped) == (1, 1)
    assert [pid for pid, _ in told(push)] == [cy.player_id]


def test_a_rematch_goes_wherever_the_player_wants_to_hear_a_game_is_over(
    services: Services,
    mailer: RecordingMailer,
    game: tuple[str, list[PlayerRecord]],
) -> None:
    game_id, (ada, _, cy) = game
    my_preferences.change(services, cy, {"channels": {"email": ["your_turn"]}})
    stream = GameStream(services)
    rematch(services, ada, game_id)
    stream.deliver()
    assert [m.to for m in mailer.sent] == ["player1@example.com"]


def test_a_rematch_push_opens_the_lobby_join_page_and_says_who_opened_it() -> None:
    notification = Notification(
        Kind.REMATCH,
        "g_00000000000000aa",
        "p_1",
        occasion="g_00000000000000bb",
        phase="lobby",
        rematch_of="g_00000000000000bb",
        opener_name="Ada",
        invite_code="c0de",
    )
    payload: dict[str, Any] = json.loads(payload_of(notification))
    assert payload["url"] == "#/join/g_00000000000000aa/c0de"
    assert payload["body"] == "Ada opened a rematch — join"
    assert payload["kind"] == "rematch"
    # The topic and the phones get no invite code: only the player's own mail and browsers carry the link.
    assert "c0de" not in notification.to_json()


# The feed and the webhooks


def test_every_player_of_the_finished_game_finds_rematch_opened_in_its_feed_and_their_webhooks_get_it(
    services: Services, game: tuple[str, list[PlayerRecord]], monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.webhooks import ssrf
    from app.webhooks.subscriptions import subscribe
    from tests.fakes.queue import MemoryWebhookQueue

    monkeypatch.setattr(ssrf, "system_resolver", lambda host, port: ["93.184.216.34"])
    game_id, (ada, bob, cy) = game
    subscribe(services, bob, "https://hooks.example/bob", ["rematch.opened"])
    rematch(services, ada, game_id)
    changes = services.games.take_changes()  # type: ignore[attr-defined]
    for _ in range(2):  # a redelivered record rewrites the same items, with the same ids
        for old, new in changes:
            consume(old, new, services)
    lobby_id = rematch_id(game_id)
    for player in (ada, bob, cy):
        items = services.feed.list_feed(game_id, player.player_id, after="", limit=100)
        opened = [json.loads(i.event_json) for i in items if '"rematch.opened"' in i.event_json]
        assert [(e["rematch_game_id"], e["opener_id"], e["opener_name"]) for e in opened] == [
            (lobby_id, ada.player_id, ada.name)
        ]
    queue = services.webhook_queue
    assert isinstance(queue, MemoryWebhookQueue)
    sent = [json.loads(body) for body in queue.sent]
    assert {m["event"]["type"] for m in sent} == {"rematch.opened"}
    assert {m["event"]["recipient_id"] for m in sent} == {bob.player_id}
    assert len({m["delivery_id"] for m in sent}) == 1
