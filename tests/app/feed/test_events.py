"""Webhook events: derived from two game states, for one player, never carrying a secret."""

from __future__ import annotations

import json

import pytest

from app.feed.events import EVENT_ADAPTER, EVENT_TYPES, derive_events, reminder_event, timeout_event
from dixit.bots import RandomBot, next_mover
from dixit.engine import apply, new_game
from dixit.moves import Join, Leave, Start
from dixit.settings import Settings
from dixit.state import GameState, Phase
from dixit.views import view_for

AT = "2026-11-30T12:00:00+00:00"

NOW = 1_800_000_000  # epoch seconds: the rules core takes the time from its caller


def lobby(players: int, rules: str = "classic", seed: int = 7) -> GameState:
    state = new_game(
        "g_0123456789abcdef", host_id="p0", host_name="Host", settings=Settings.build(rules), seed=seed
    )
    for seat in range(1, players):
        state = apply(state, Join(f"p{seat}", f"Player {seat}"), now=NOW).state
    return state


def every_card_of(state: GameState) -> set[str]:
    cards = set(state.pile) | set(state.discard)
    for hand in state.hands.values():
        cards |= set(hand)
    if state.round is not None:
        cards |= {c for c in [state.round.storyteller_card] if c}
        for given in (*state.round.submissions.values(), *state.round.votes.values()):
            cards |= set(given)
    return cards


def played_transitions(players: int, rules: str, seed: int) -> list[tuple[GameState, GameState]]:
    state = apply(lobby(players, rules, seed), Start("p0"), now=NOW).state
    bots = {pid: RandomBot(pid, seed * 31 + i) for i, pid in enumerate(state.player_ids)}
    steps: list[tuple[GameState, GameState]] = []
    while state.phase is not Phase.FINISHED and len(steps) < 400:
        mover = next_mover(state)
        assert mover is not None
        move = bots[mover].choose(view_for(state, mover))
        assert move is not None
        new = apply(state, move, now=NOW).state
        steps.append((state, new))
        state = new
    return steps


@pytest.mark.parametrize(
    ("players", "rules", "seed"), [(3, "classic", 1), (5, "odyssey", 2), (6, "classic", 3)]
)
def test_no_event_of_any_phase_carries_a_hand_a_hidden_card_or_a_vote_before_the_reveal(
    players: int, rules: str, seed: int
) -> None:
    kinds: set[str] = set()
    for old, new in played_transitions(players, rules, seed):
        revealed = {c.card_id for c in new.last_round.cards} if new.last_round is not None else set()
        secret = every_card_of(old) | every_card_of(new)
        for viewer in [*new.player_ids, "p_stranger"]:
            for event in derive_events(old, new, viewer, occurred_at=AT):
                kinds.add(event.type)
                text = event.model_dump_json()
                leaked = {card for card in secret - revealed if card in text}
                assert not leaked, (event.type, leaked)
                if event.type != "round.revealed":
                    assert "voter_ids" not in text
    assert kinds == {"turn.owed", "round.revealed", "game.finished"}


def test_a_stranger_gets_no_event_at_all_of_a_change_every_player_hears_of() -> None:
    old, new = played_transitions(4, "classic", 5)[0]
    assert derive_events(old, new, "p_stranger", occurred_at=AT) == []
    for player in new.player_ids:
        assert [e.type for e in derive_events(old, new, player, occurred_at=AT)] == ["turn.owed"]


def test_starting_tells_everyone_the_game_started_and_the_storyteller_that_they_owe_a_clue() -> None:
    before = lobby(3)
    after = apply(before, Start("p0"), now=NOW).state
    assert after.round is not None
    teller = after.round.storyteller_id
    for viewer in after.player_ids:
        events = derive_events(before, after, viewer, occurred_at=AT, deadline="2026-12-02T12:00:00+00:00")
        assert [e.type for e in events] == ["game.started", "turn.owed"]
        owed = events[1]
        assert owed.type == "turn.owed"
        assert [(o.player_id, o.move) for o in owed.owed] == [(teller, "clue")]
        assert owed.you_owe is (viewer == teller)
        assert owed.deadline == "2026-12-02T12:00:00+00:00"
        assert owed.clue is None


def test_joining_and_leaving_the_lobby_are_events_and_the_leaver_only_learns_that_they_left() -> None:
    before = lobby(2)
    joined = apply(before, Join("p2", "Zoé"), now=NOW).state
    assert [
        (e.type, getattr(e, "name", None)) for e in derive_events(before, joined, "p0", occurred_at=AT)
    ] == [("player.joined", "Zoé")]
    left = apply(joined, Leave("p1"), now=NOW).state
    assert [e.type for e in derive_events(joined, left, "p0", occurred_at=AT)] == ["player.left"]
    assert [e.type for e in derive_events(joined, left, "p1", occurred_at=AT)] == ["player.left"]


def test_event_ids_are_stable_per_change_and_recipient_so_a_replayed_stream_record_can_be_deduped() -> None:
    old, new = played_transitions(3, "classic", 9)[0]
    first = [e.id for e in derive_events(old, new, "p1", occurred_at=AT)]
    again = [e.id for e in derive_events(old, new, "p1", occurred_at="2027-01-01T00:00:00+00:00")]
    other = [e.id for e in derive_events(old, new, "p2", occurred_at=AT)]
    assert len(first) == len(other) == 1  # the clue: one turn.owed to each player
    assert first == again
    assert not set(first) & set(other)


def test_events_round_trip_through_their_one_json_schema() -> None:
    schema = EVENT_ADAPTER.json_schema()
    assert {
        m["properties"]["type"]["const"]
        for m in schema["$defs"].values()
        if "type" in m.get("properties", {})
    } == set(EVENT_TYPES)
    kinds: set[str] = set()
    for old, new in played_transitions(4, "classic", 4)[:12]:
        for event in derive_events(old, new, "p1", occurred_at=AT):
            assert EVENT_ADAPTER.validate_json(event.model_dump_json()) == event
            kinds.add(event.type)
    assert kinds == {"turn.owed", "round.revealed"}


def test_reminders_go_only_to_whom_the_game_waits_on_and_timeouts_name_who_missed_their_move() -> None:
    state = apply(lobby(3), Start("p0"), now=NOW).state
    assert state.round is not None
    teller = state.round.storyteller_id
    other = next(p for p in state.player_ids if p != teller)
    reminder = reminder_event(state, teller, deadline="2026-12-01T00:00:00+00:00", occurred_at=AT)
    assert reminder is not None
    assert (reminder.move, reminder.round_number) == ("clue", 1)
    assert reminder_event(state, other, deadline="2026-12-01T00:00:00+00:00", occurred_at=AT) is None
    timeout = timeout_event(state, teller, other, version=state.version + 1, occurred_at=AT)
    assert timeout is not None
    assert (timeout.player_id, timeout.move, timeout.recipient_id) == (teller, "clue", other)
    assert json.loads(timeout.model_dump_json())["type"] == "timeout"


def test_the_committed_json_schema_of_the_events_is_the_one_the_models_generate() -> None:
    from pathlib import Path

    from app.feed.events import json_schema

    committed = Path(__file__).resolve().parents[3] / "docs" / "webhook-events.schema.json"
    assert committed.read_text(encoding="utf-8") == json_schema(), "run `make openapi`"


def test_a_change_is_derived_for_every_past_and_present_member_and_nobody_else() -> None:
    from app.feed.events import derive_for_members

    before = lobby(3)
    after = apply(before, Leave("p2"), now=NOW).state
    events = derive_for_members(before, after, occurred_at=AT)
    assert sorted((e.recipient_id, e.type) for e in events) == [
        ("p0", "player.left"), ("p1", "player.left"), ("p2", "player.left")
    ]  # fmt: skip
