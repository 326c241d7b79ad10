"""What nobody may learn from the API: other hands, who played what before the reveal, the seed.

Whole games are played by JSON bots; every view any player or a spectator receives is checked against
the true state read straight from the table.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from app.aws.dynamodb.games import DynamoGameStore
from dixit.state import GameState, Phase
from tests.support.aws import TABLE

from ..client import Client
from ..helpers import create_game, give_clue, inbox, lobby, rounds, started, storyteller, submit_all, view
from ..json_bot import play_to_the_end
from ..stream import StreamFeed

INTERNAL_KEYS = {"seed", "draws", "pile", "discard", "hands", "token", "token_hash", "submissions"}


def keys(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from keys(item)
    elif isinstance(value, list):
        for item in value:
            yield from keys(item)


def true_state(game_id: str) -> GameState:
    record = DynamoGameStore(TABLE).load_game(game_id)
    assert record is not None
    return record.state


def hidden_from(state: GameState, viewer_id: str | None) -> set[str]:
    """Card ids the viewer must not see right now."""
    hidden = {card for pid, hand in state.hands.items() if pid != viewer_id for card in hand}
    rnd = state.round
    if rnd is not None and state.phase in (Phase.STORYTELLING, Phase.SUBMITTING):
        hidden |= {card for pid, cards in rnd.submissions.items() if pid != viewer_id for card in cards}
        if rnd.storyteller_card and rnd.storyteller_id != viewer_id:
            hidden.add(rnd.storyteller_card)
    return hidden


def check_view(viewer_id: str | None, body: dict[str, Any]) -> None:
    state = true_state(body["game_id"])
    assert body["version"] == state.version
    raw = json.dumps(body)
    leaked = {card for card in hidden_from(state, viewer_id) if card in raw}
    assert not leaked, f"{viewer_id} sees {sorted(leaked)} in {state.phase}"
    assert not INTERNAL_KEYS & set(keys(body))
    assert str(state.seed) not in raw
    is_member = state.player(viewer_id or "") is not None
    if not is_member:
        assert body["you"] is None
        assert body["invite_code"] is None
    else:
        assert body["you"]["player_id"] == viewer_id
        if state.round is not None and state.phase is not Phase.FINISHED:
            rnd = state.round
            own = [rnd.storyteller_card] if viewer_id == rnd.storyteller_id and rnd.storyteller_card else []
            assert body["you"]["submitted"] == (own or rnd.submissions.get(viewer_id or "", []))
    if body["round"] is not None:
        # alt is the card's own description (from its id alone), so it says nothing of who played it.
        assert all(set(card) == {"card_id", "image_url", "alt"} for card in body["round"]["table"])


@pytest.mark.parametrize(
    ("seats", "rules", "target"),
    [pytest.param(3, "classic", 10, id="3-classic"), pytest.param(7, "odyssey", 12, id="7-odyssey")],
)
def test_no_view_of_a_whole_game_ever_shows_a_card_its_viewer_may_not_see(
    players: list[Client], seats: int, rules: str, target: int, feed: StreamFeed
) -> None:
    clients = players[:seats]
    spectator = players[11]
    game_id = started(clients, rules=rules, target_score=target)
    phases_seen: set[str] = set()

    def observe(viewer: Client, body: dict[str, Any]) -> None:
        check_view(viewer.player_id, body)
        phases_seen.add(body["phase"])
        if viewer is clients[0]:
            check_view(spectator.player_id, view(spectator, game_id))
            for client in clients:
                entries = inbox(client, feed)
                assert not INTERNAL_KEYS & set(keys(entries.body))
                assert not any(card in entries.raw for card in hidden_from(true_state(game_id), None))

    final = play_to_the_end(clients, game_id, seed=seats, observe=observe)

    assert final["phase"] == "finished"
    # The game is dealt at random, so its length varies; what must hold is that every phase was seen.
    assert {"storytelling", "submitting", "voting", "finished"} <= phases_seen
    replay = rounds(spectator, feed, game_id)
    assert replay.body["rounds"]
    assert not INTERNAL_KEYS & set(keys(replay.body))
    assert str(true_state(game_id).seed) not in replay.raw


def test_a_spectator_of_a_public_game_sees_no_hand_and_no_invite_code(players: list[Client]) -> None:
    clients = players[:4]
    game_id = started(clients)
    body = view(players[9], game_id)
    assert body["you"] is None
    assert body["invite_code"] is None
    assert [p["hand_size"] for p in body["players"]] == [6, 6, 6, 6]
    check_view(players[9].player_id, body)


def test_only_members_see_the_invite_code(players: list[Client]) -> None:
    game_id = lobby(players[:2])
    code = view(players[0], game_id)["invite_code"]
    assert code
    assert view(players[1], game_id)["invite_code"] == code
    assert view(players[2], game_id)["invite_code"] is None
    assert code not in players[2].get("/games").raw


def test_while_cards_are_being_put_forward_the_table_stays_empty(players: list[Client]) -> None:
    clients = players[:4]
    game_id = started(clients)
    teller = give_clue(clients, game_id)
    guesser = next(c for c in clients if c is not teller)
    card = view(guesser, game_id)["you"]["hand"][0]["card_id"]
    assert guesser.post(f"/games/{game_id}/submissions", {"card_ids": [card]}).status == 200
    for client in [*clients, players[9]]:
        body = view(client, game_id)
        assert body["round"]["table"] == []
        check_view(client.player_id, body)


def test_the_voting_table_names_no_owners(players: list[Client]) -> None:
    clients = players[:4]
    game_id = started(clients)
    give_clue(clients, game_id)
    submit_all(clients, game_id)
    teller = storyteller(clients, game_id)
    for client in [*clients, players[9]]:
        body = view(client, game_id)
        assert len(body["round"]["table"]) == 4
        raw_table = json.dumps(body["round"]["table"])
        assert all(c.player_id not in raw_table for c in clients)
        check_view(client.player_id, body)
    rnd = true_state(game_id).round
    assert rnd is not None
    assert view(teller, game_id)["you"]["submitted"] == [rnd.storyteller_card]


def test_the_open_list_and_the_inbox_carry_no_secrets(players: list[Client], feed: StreamFeed) -> None:
    create_game(players[0])
    game_id = started(players[1:4])
    for reply in (players[5].get("/games"), inbox(players[1], feed)):
        assert not INTERNAL_KEYS & set(keys(reply.body))
        assert "invite_code" not in set(keys(reply.body))
        assert not any(card in reply.raw for hand in true_state(game_id).hands.values() for card in hand)
