"""Your words at the tables are your data: the export lists them, deleting the account removes them."""

from __future__ import annotations

from datetime import timedelta

from tests.support.clock import Clock

from ..client import Client
from ..helpers import lobby
from .talking import say, talk


def test_the_export_lists_your_messages_and_deleting_the_account_removes_their_words(
    players: list[Client],
    clock: Clock,
) -> None:
    ada, bob, cy = players[:3]
    game_id = lobby([ada, bob, cy])
    said = say(ada, game_id, "Ada was here")
    clock.now += timedelta(milliseconds=1)  # ids sort by time: Bob's is the newer
    say(bob, game_id, "Bob too")
    exported = ada.get("/players/me/export")
    assert exported.status == 200, exported.raw
    assert [m["text"] for m in exported.body["messages"]] == ["Ada was here"]
    assert exported.body["messages"][0]["message_id"] == said["message_id"]

    assert ada.delete("/players/me").status == 204
    left = talk(bob, game_id)["messages"]
    assert [(m["author_id"], m["text"]) for m in left] == [  # type: ignore[union-attr]
        (bob.player_id, "Bob too"),
        (ada.player_id, None),
    ]
    assert "Ada was here" not in str(left)
    assert "Player 0" not in str(left)
