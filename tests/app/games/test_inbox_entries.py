"""What an inbox entry carries to tell games apart (#22), and entries written before it still read."""

from __future__ import annotations

import json
from dataclasses import replace

from app.core.records import Membership, Waiting
from app.games.inbox import entries_for
from dixit import engine
from dixit.moves import GiveClue, Join, Start
from dixit.settings import Settings
from dixit.state import GameState, Phase

STAMP = "2026-03-01T12:00:00.000+00:00"
NOW = 1_772_366_400


def titled_game() -> GameState:
    settings = Settings.build(title="Tuesday")
    state = engine.new_game("g_1", host_id="p_ada", host_name="Ada", settings=settings, seed=7)
    for pid, name in (("p_bob", "Bob"), ("p_cy", "Cy")):
        state = engine.apply(state, Join(pid, name), now=NOW).state
    return engine.apply(state, Start("p_ada"), now=NOW).state


def test_an_entry_names_the_title_host_players_storyteller_and_the_clue_once_told() -> None:
    state = titled_game()
    entry = entries_for(state, STAMP)["p_bob"]
    assert (entry.title, entry.host_id) == ("Tuesday", "p_ada")
    assert entry.seats == (("p_ada", "Ada"), ("p_bob", "Bob"), ("p_cy", "Cy"))
    assert state.round is not None
    teller = state.round.storyteller_id
    assert (entry.storyteller_id, entry.clue) == (teller, None)
    told = engine.apply(state, GiveClue(teller, state.hands[teller][0], "a quiet storm"), now=NOW).state
    assert entries_for(told, STAMP)["p_bob"].clue == "a quiet storm"


def test_an_entry_survives_its_json_with_every_new_field() -> None:
    entry = entries_for(titled_game(), STAMP)["p_cy"]
    entry = replace(entry, winners=("p_ada",), clue="x", waiting=(Waiting("p_bob", "Bob", "submit", 9),))
    assert Membership.from_json("p_cy", "g_1", entry.to_json(), entry.version) == entry


def test_an_entry_written_before_these_fields_existed_still_reads() -> None:
    old = {"phase": "lobby", "your_turn": False, "deadline": None, "round": None, "waiting": [], "players": 2}
    read = Membership.from_json("p_me", "g_1", json.dumps({**old, "end": None, "updated_at": STAMP}))
    assert read.phase is Phase.LOBBY
    assert (read.title, read.host_id, read.seats, read.clue, read.winners) == (None, None, (), None, ())
