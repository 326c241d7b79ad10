"""The game state's JSON form: lossless, self-sufficient and small."""

from __future__ import annotations

import dataclasses
import json

import pytest

from dixit.bots import next_mover
from dixit.cards import OFFICIAL_DECKS
from dixit.engine import new_game
from dixit.limits import MAX_CLUE_LENGTH, MAX_NAME_LENGTH
from dixit.moves import GiveClue, Join, Leave, Start
from dixit.settings import OFFICIAL_DECK_ORDER, Settings
from dixit.state import GameState, Phase
from dixit.views import view_for

from .helpers import (
    HOST,
    act,
    apply,
    bot_game,
    bot_steps,
    bots_for,
    everyone_votes_storyteller,
    play_round,
    seated_game,
)

ALL_DECKS = list(OFFICIAL_DECKS)


@pytest.mark.parametrize(("rules", "players"), [("classic", 3), ("classic", 6), ("odyssey", 8)])
def test_the_state_round_trips_through_json_at_every_step_of_a_game(rules: str, players: int) -> None:
    for state in bot_game(seated_game(players, rules, seed=17), bot_seed=17):
        text = state.to_json()
        back = GameState.from_json(text)
        assert back == state
        assert back.to_json() == text
        assert GameState.from_dict(json.loads(text)) == state


def test_the_lobby_and_a_closed_lobby_round_trip_too() -> None:
    state = new_game(
        "g", host_id=HOST, host_name="Hôte ✨", settings=Settings.build("odyssey", ["base", "quest"]), seed=3
    )
    assert GameState.from_json(state.to_json()) == state
    closed = act(state, Leave(HOST))
    assert closed.phase is Phase.FINISHED
    assert GameState.from_json(closed.to_json()) == closed


def test_non_ascii_text_and_huge_seeds_survive_the_round_trip() -> None:
    state = new_game("g", host_id=HOST, host_name="Zoë 🦊", settings=Settings.build(), seed=2**64 + 7)
    state = act(act(state, Join("p1", "Łukasz")), Join("p2", "美咲"))
    state = act(state, Start(HOST))
    back = GameState.from_json(state.to_json())
    assert back == state
    assert back.seed == 2**64 + 7
    assert [p.name for p in back.players] == ["Zoë 🦊", "Łukasz", "美咲"]


def test_a_restored_state_plays_on_exactly_like_the_original() -> None:
    state = play_round(seated_game(5, seed=23, target_score=200), everyone_votes_storyteller)
    restored = GameState.from_json(state.to_json())
    for (before, move), (restored_before, restored_move) in zip(
        bot_steps(state, bot_seed=4), bot_steps(restored, bot_seed=4), strict=True
    ):
        assert move == restored_move
        assert apply(before, move).state.to_json() == apply(restored_before, restored_move).state.to_json()


def test_a_copy_shares_nothing_mutable_with_the_original() -> None:
    state = play_round(seated_game(4, seed=23, target_score=200), everyone_votes_storyteller)
    before = state.to_json()
    copy = state.copy()
    copy.deck_position += 1
    copy.hands["p0"].clear()
    copy.players[0].score += 10
    assert copy.round is not None
    copy.round.submissions["p1"] = ["base-998"]
    assert state.to_json() == before


def worst_state_size(players: int, rules: str, decks: list[str], bot_seed: int) -> int:
    """The largest state JSON, in UTF-8 bytes, over a whole bot game with the longest ASCII text allowed:
    ids shaped like the app's (p_ + 16 hex), names and clues at their length limits."""
    player_ids = [f"p_{bot_seed * 100 + seat:016x}" for seat in range(players)]
    settings = Settings.build(rules, decks, target_score=60)
    name, clue = "N" * MAX_NAME_LENGTH, "c" * MAX_CLUE_LENGTH
    state = new_game(
        "g_" + "f" * 16, host_id=player_ids[0], host_name=name, settings=settings, seed=2**63 - 1
    )
    for player_id in player_ids[1:]:
        state = act(state, Join(player_id, name))
    state = act(state, Start(player_ids[0]))
    bots = bots_for(state, bot_seed)
    sizes = [len(state.to_json().encode())]
    while (mover := next_mover(state)) is not None:
        move = bots[mover].choose(view_for(state, mover))
        if isinstance(move, GiveClue):
            move = dataclasses.replace(move, clue=clue)
        assert move is not None
        state = act(state, move)
        sizes.append(len(state.to_json().encode()))
    assert state.phase is Phase.FINISHED
    return max(sizes)


@pytest.mark.parametrize("bot_seed", range(3))
@pytest.mark.parametrize(
    ("players", "rules", "decks"),
    [(6, "classic", ["base"]), (6, "classic", ALL_DECKS), (6, "odyssey", ALL_DECKS)],
)
def test_a_six_player_game_stays_within_two_kilobytes_whatever_the_decks(
    players: int, rules: str, decks: list[str], bot_seed: int
) -> None:
    assert worst_state_size(players, rules, decks, bot_seed) <= 2048


@pytest.mark.parametrize("bot_seed", range(2))
@pytest.mark.parametrize("decks", [["base"], ALL_DECKS])
def test_a_twelve_player_game_stays_within_four_kilobytes_whatever_the_decks(
    decks: list[str], bot_seed: int
) -> None:
    assert worst_state_size(12, "odyssey", decks, bot_seed) <= 4096


def test_the_deck_mix_changes_the_state_by_its_settings_only() -> None:
    one = seated_game(6, seed=4)
    many = Settings.build(decks=ALL_DECKS)
    mixed = new_game("g1", host_id=HOST, host_name="Host", settings=many, seed=4)
    for seat in range(1, 6):
        mixed = act(mixed, Join(f"p{seat}", f"Player {seat}"))
    mixed = act(mixed, Start(HOST))
    grown = len(mixed.to_json()) - len(one.to_json())
    settings_grown = len(json.dumps(many.to_dict(), separators=(",", ":"))) - len(
        json.dumps(one.settings.to_dict(), separators=(",", ":"))
    )
    # no pile and no discard: only the settings grow, and each of the 36 card indices dealt may take up
    # to two digits more (924 cards instead of 84)
    assert grown <= settings_grown + 2 * 36


def test_official_decks_are_stored_by_a_position_that_never_moves() -> None:
    # Stored games name their decks by these positions: a new deck goes at the end, none ever moves.
    assert OFFICIAL_DECK_ORDER[:11] == (
        "base",
        "quest",
        "journey",
        "origins",
        "daydreams",
        "memories",
        "revelations",
        "harmonies",
        "anniversary",
        "mirrors",
        "odyssey",
    )
    stored = Settings.build(decks=["odyssey", "base"]).to_dict()["decks"]
    assert stored == [10, 0]


def test_what_is_almost_always_so_is_left_out_of_the_stored_form() -> None:
    state = seated_game(4, seed=3)
    stored = state.to_dict()
    assert not {"host_id", "winners", "end_reason", "idle_turns"} & set(stored)
    assert not {"move_timeout_hours", "timeout_policy"} & set(stored["settings"])
    assert "out" not in stored["round"]
    waiting = Settings.build(move_timeout_hours=12, timeout_policy="wait").to_dict()
    assert (waiting["move_timeout_hours"], waiting["timeout_policy"]) == (12, "wait")


def test_a_game_stored_in_the_earlier_longer_form_still_loads() -> None:
    for state in bot_game(seated_game(5, "classic", seed=8), bot_seed=8):
        stored = state.to_dict()
        older = {
            **stored,
            "settings": {
                **stored["settings"],
                "decks": [OFFICIAL_DECK_ORDER[d] for d in stored["settings"]["decks"]],
                "move_timeout_hours": state.settings.move_timeout_hours,
                "timeout_policy": state.settings.timeout_policy.value,
            },
            "host_id": state.host_id,
            "winners": [state.player_ids.index(p) for p in state.winners],
            "end_reason": None if state.end_reason is None else state.end_reason.value,
            "idle_turns": state.idle_turns,
        }
        if older["round"] is not None:
            older["round"] = {"out": [], **older["round"]}
        assert GameState.from_dict(older) == state
