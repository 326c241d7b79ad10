"""Muting a player over HTTP: their messages hidden from the muter only, at every table, and never told
to the muter's feed; the list in the export, and gone with the account."""

from __future__ import annotations

from tests.support.clock import Clock

from ..client import Client
from ..helpers import assert_problem, lobby
from .talking import say, talk


def test_a_muted_players_messages_vanish_for_the_muter_only_at_every_table(
    players: list[Client],
    clock: Clock,
) -> None:
    ada, bob, cy, dan = players[:4]
    first = lobby([ada, bob, cy])
    second = lobby([dan, bob, ada])
    assert ada.put(f"/players/me/muted-players/{bob.player_id}").status == 204
    assert ada.get("/players/me/muted-players").body == {"muted": [bob.player_id]}
    for game_id in (first, second):
        say(bob, game_id, "buy my crypto")
        seen = talk(ada, game_id)["messages"]
        assert [(m["author_id"], m["text"], m["hidden"]) for m in seen] == [  # type: ignore[union-attr]
            (bob.player_id, None, True)
        ]
        assert "crypto" not in str(seen)
    # Cy did not mute Bob: nothing changes for her.
    assert [m["text"] for m in talk(cy, first)["messages"]] == ["buy my crypto"]  # type: ignore[union-attr]
    # Neither does Ada's event feed tell her of it; Cy's does.
    assert not [e for e in ada.get(f"/games/{first}/events").body["events"] if e["type"] == "message.posted"]
    assert [e["type"] for e in cy.get(f"/games/{first}/events").body["events"]] == ["message.posted"]
    assert ada.get("/players/me/export").body["muted_players"] == [bob.player_id]

    assert ada.delete(f"/players/me/muted-players/{bob.player_id}").status == 204
    assert [m["text"] for m in talk(ada, first)["messages"]] == ["buy my crypto"]  # type: ignore[union-attr]


def test_no_one_mutes_themselves_or_nobody(players: list[Client], clock: Clock) -> None:
    ada = players[0]
    assert_problem(ada.put(f"/players/me/muted-players/{ada.player_id}"), 422, "cannot_mute_yourself")
    assert_problem(ada.put("/players/me/muted-players/p_0000000000000000"), 404, "player_not_found")
    assert ada.get("/players/me/muted-players").body == {"muted": []}
