"""Properties of whole games played by seeded RandomBots, checked at every step."""

from __future__ import annotations

import dataclasses
import itertools
from collections import Counter
from collections.abc import Iterator
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from dixit.cards import OFFICIAL_DECKS
from dixit.engine import hand_size
from dixit.moves import GiveClue, Submit
from dixit.settings import Ruleset
from dixit.state import GameState, Phase
from dixit.views import view_for

from .helpers import apply, bot_game, bot_steps, card_places, seated_game, storyteller, submission_size

BOUNDED = settings(max_examples=50, deadline=None)

ALL_BASE = Counter(OFFICIAL_DECKS["base"].card_ids())


@dataclasses.dataclass(frozen=True)
class Game:
    rules: str
    players: int
    seed: int
    bot_seed: int
    target_score: int | None

    def start(self) -> GameState:
        return seated_game(self.players, self.rules, self.seed, self.target_score)

    def play(self) -> list[GameState]:
        return bot_game(self.start(), self.bot_seed)


seeds = st.integers(min_value=0, max_value=2**32)
rulesets = st.sampled_from(["classic", "odyssey"])
targets = st.one_of(st.none(), st.integers(min_value=1, max_value=40))


@st.composite
def games(draw: st.DrawFn) -> Game:
    rules = draw(rulesets)
    players = draw(st.integers(min_value=3, max_value=Ruleset(rules).max_players))
    return Game(rules, players, draw(seeds), draw(seeds), draw(targets))


def strings_in(value: Any) -> Iterator[str]:
    """Every string anywhere inside a view (dataclasses, tuples, dicts), keys included."""
    if isinstance(value, str):
        yield value
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            yield from strings_in(getattr(value, field.name))
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from strings_in(key)
            yield from strings_in(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from strings_in(item)


@BOUNDED
@given(games())
def test_every_card_is_in_exactly_one_place_at_every_step(game: Game) -> None:
    for state in game.play():
        assert card_places(state) == ALL_BASE
        rnd = state.round
        if state.phase is Phase.VOTING:
            assert rnd is not None
            assert sorted(rnd.table) == sorted(
                [rnd.storyteller_card, *(c for cs in rnd.submissions.values() for c in cs)]
            )


@BOUNDED
@given(games())
def test_scores_never_decrease_and_only_move_by_the_revealed_points(game: Game) -> None:
    states = game.play()
    for before, after in itertools.pairwise(states):
        gained = {p.player_id: p.score - q.score for p, q in zip(after.players, before.players, strict=True)}
        assert all(points >= 0 for points in gained.values())
        rounds_before = before.last_round.number if before.last_round else 0
        if after.last_round is not None and after.last_round.number > rounds_before:
            assert gained == after.last_round.points
        else:
            assert set(gained.values()) == {0}


@BOUNDED
@given(games())
def test_random_legal_play_always_ends_with_the_top_scorers_as_winners(game: Game) -> None:
    final = game.play()[-1]
    assert final.phase is Phase.FINISHED
    assert final.round is None
    top = max(p.score for p in final.players)
    assert final.winners == [p.player_id for p in final.players if p.score == top]
    if game.rules == "odyssey":  # the reshuffle never runs out with a whole official deck
        assert top >= (game.target_score or 30)
    else:
        assert top >= (game.target_score or 30) or final.pile == []


@BOUNDED
@given(games())
def test_every_round_starts_with_full_hands(game: Game) -> None:
    for state in game.play():
        if state.phase is Phase.STORYTELLING:
            size = hand_size(len(state.players))
            assert all(len(state.hands[p]) == size for p in state.player_ids)


@settings(max_examples=40, deadline=None)
@given(games())
def test_no_view_ever_holds_a_card_in_another_players_hand(game: Game) -> None:
    for state in game.play():
        for viewer in [None, "stranger", *state.player_ids]:
            view = view_for(state, viewer)
            hidden = {c for p, hand in state.hands.items() if p != viewer for c in hand}
            revealed = set(strings_in(view.last_round))
            # everything but the last reveal: no hidden card at all
            assert not hidden & set(strings_in(dataclasses.replace(view, last_round=None)))
            # the last reveal shows what was on the table; only Odyssey's reshuffle can deal those cards
            # straight back into hands, and even then the reveal says who played them, not who holds them
            if game.rules == "classic":
                assert not hidden & revealed
            if viewer in state.hands:
                assert view.you is not None
                assert list(view.you.hand) == state.hands[viewer]
            else:
                assert view.you is None


@settings(max_examples=30, deadline=None)
@given(games())
def test_the_same_seed_and_the_same_bots_replay_the_same_game(game: Game) -> None:
    first = [s.to_json() for s in game.play()]
    second = [s.to_json() for s in game.play()]
    assert first == second


@BOUNDED
@given(st.data(), rulesets, st.integers(min_value=3, max_value=12), seeds)
def test_the_table_order_never_depends_on_who_played_which_card(
    data: st.DataObject, rules: str, players: int, seed: int
) -> None:
    players = min(players, Ruleset(rules).max_players)
    state = seated_game(players, rules, seed)
    teller = storyteller(state)
    size = submission_size(state)
    counts = {p: 1 if p == teller else size for p in state.player_ids}
    played = [c for p in state.player_ids for c in state.hands[p][: counts[p]]]

    # the same cards, dealt to different owners: swap them into other hands, then play them
    shuffled = data.draw(st.permutations(played))
    swapped = state.copy()
    taken = 0
    for p in state.player_ids:
        swapped.hands[p] = [*shuffled[taken : taken + counts[p]], *state.hands[p][counts[p] :]]
        taken += counts[p]
    order = data.draw(st.permutations([p for p in state.player_ids if p != teller]))

    tables = []
    for game, submitters in ((state, [p for p in state.player_ids if p != teller]), (swapped, order)):
        game = apply(game, GiveClue(teller, game.hands[teller][0], "clue")).state
        for p in submitters:
            game = apply(game, Submit(p, tuple(game.hands[p][:size]))).state
        assert game.phase is Phase.VOTING
        assert game.round is not None
        tables.append(game.round.table)
    assert tables[0] == tables[1]


@settings(max_examples=20, deadline=None)
@given(games())
def test_a_game_restored_from_json_midway_plays_on_identically(game: Game) -> None:
    steps = list(bot_steps(game.start(), game.bot_seed))
    for before, move in steps[:: max(1, len(steps) // 7)]:
        restored = GameState.from_json(before.to_json())
        assert apply(restored, move).state.to_json() == apply(before, move).state.to_json()
