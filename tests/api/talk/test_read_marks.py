"""How far each seated player read a game's talk, for the daily digest's unread counts: noted when they
read the newest page, only ever forward, one small write at most; and `digest_talk` turns the counts off."""

from __future__ import annotations

from typing import Any

from app import bootstrap
from app.aws import clients as aws_clients
from tests.support.clock import Clock

from ..client import Client
from ..helpers import lobby
from .talking import say, talk


def test_reading_the_newest_page_moves_the_marker_forward_and_an_older_page_does_not(
    players: list[Client], clock: Clock
) -> None:
    ada, bob, cy, stranger = players[:4]
    game_id = lobby([ada, bob, cy], visibility="public")
    first = say(bob, game_id, "one")["message_id"]
    clock.advance(seconds=1)
    second = say(cy, game_id, "two")["message_id"]
    store = bootstrap.services().talk
    writes: list[str] = []

    def record(params: dict[str, Any], model: Any, **_: Any) -> None:
        if model.name in ("PutItem", "UpdateItem", "DeleteItem"):
            writes.append(params["Key"]["sk"]["S"] if "Key" in params else params["Item"]["sk"]["S"])

    client = aws_clients.dynamodb()
    client.meta.events.register("provide-client-params.dynamodb", record)
    try:
        talk(ada, game_id)
        assert writes == [f"READ#{game_id}"]  # one small write
        assert store.read_marks(ada.player_id) == {game_id: second}
        writes.clear()
        talk(ada, game_id)  # the same page again: nothing moves, nothing is written
        talk(ada, game_id, before=second)  # an older page: read, but nothing newer seen
        talk(stranger, game_id)  # a public game's spectator reads; nothing is kept for them
        assert writes == []
    finally:
        client.meta.events.unregister("provide-client-params.dynamodb", record)
    assert store.read_marks(ada.player_id) == {game_id: second}
    assert store.read_marks(stranger.player_id) == {}
    assert ada.get("/players/me/export").body["talk_read"] == {game_id: second}
    assert first < second


def test_digest_talk_is_a_preference_on_by_default(players: list[Client], clock: Clock) -> None:
    ada = players[0]
    assert ada.get("/players/me/notifications").body["digest_talk"] is True
    changed = ada.put("/players/me/notifications", {"digest_talk": False})
    assert changed.status == 200, changed.raw
    assert changed.body["digest_talk"] is False
    assert ada.get("/players/me/notifications").body["digest_talk"] is False
    assert ada.put("/players/me/notifications", {"digest_talk": "no"}).status == 422
