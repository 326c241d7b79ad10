"""The round history is written by the stream consumer from the game item's old and new images, on
either store: every scored round once, whole, even when the round ended with players leaving."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.core.records import GameRecord, PlayerRecord
from app.games import history, state_codec
from app.games import play as games
from app.games.play import Step
from app.services import Services
from dixit.engine import Applied
from dixit.moves import GiveClue, Start, Submit, Vote
from dixit.settings import cards_to_submit
from dixit.state import GameState, RoundResult
from tests.support.stream import GameStream

from .. import every_store
from .test_play import current, lobby, register

# On every Store adapter, as tests/app/conftest.py gives it, not this folder's in-memory `services`: a
# fixture of the module takes precedence over the folder's.
services = every_store.services


def _start(services: Services, seats: list[PlayerRecord]) -> GameRecord:
    record = lobby(services, seats)
    return games.play(services, seats[0], record.game_id, Start(seats[0].player_id)).record  # type: ignore[return-value]


def _mark_leaving(services: Services, game_id: str, player_id: str) -> None:
    """The seat the host removed (RemovePlayer, once it timed out): it leaves when the round ends."""

    def judge(record: GameRecord) -> Step:
        state = record.state.copy()
        state.leaving = [player_id]
        return Step(Applied(state), record.due_at)

    games.apply_move(services, game_id, judge)


def _play_round(services: Services, seats: list[PlayerRecord], game_id: str) -> RoundResult:
    """Clue, cards and votes, every seat in turn; the round the last vote scored."""
    by_id = {p.player_id: p for p in seats}
    record = current(services, game_id)
    assert record.state.round is not None
    teller = by_id[record.state.round.storyteller_id]
    card = record.state.hands[teller.player_id][0]
    games.play(services, teller, game_id, GiveClue(teller.player_id, card, "home"))
    guessers = [p for p in seats if p is not teller and record.state.player(p.player_id) is not None]
    for guesser in guessers:
        state = current(services, game_id).state
        hand = state.hands[guesser.player_id][: cards_to_submit(len(state.players))]
        games.play(services, guesser, game_id, Submit(guesser.player_id, tuple(hand)))
    scored = None
    for guesser in guessers:
        rnd = current(services, game_id).state.round
        assert rnd is not None
        mine = rnd.submissions[guesser.player_id]
        ballot = next(c for c in rnd.table if c not in mine)
        scored = games.play(services, guesser, game_id, Vote(guesser.player_id, (ballot,))).applied
    assert scored is not None
    assert scored.finished_round is not None
    return scored.finished_round


def test_a_scored_round_reaches_the_history_only_once_the_stream_is_delivered(services: Services) -> None:
    stream = GameStream(services)
    seats = register(services, 4)
    game_id = _start(services, seats).game_id
    first = _play_round(services, seats, game_id)

    assert services.games.list_rounds(game_id) == []  # the vote wrote the game item alone
    stream.deliver()
    assert [r.to_dict() for r in services.games.list_rounds(game_id)] == [first.to_dict()]
    second = _play_round(services, seats, game_id)
    stream.deliver()
    assert [r.to_dict() for r in services.games.list_rounds(game_id)] == [first.to_dict(), second.to_dict()]


@pytest.mark.parametrize("who", ["storyteller", "guesser"])
def test_a_round_that_ends_with_a_player_leaving_reaches_the_history_whole(
    services: Services, who: str
) -> None:
    stream = GameStream(services)
    seats = register(services, 5)
    record = _start(services, seats)
    rnd = record.state.round
    assert rnd is not None
    leaver = (
        rnd.storyteller_id
        if who == "storyteller"
        else next(p.player_id for p in seats if p.player_id != rnd.storyteller_id)
    )
    _mark_leaving(services, record.game_id, leaver)

    scored = _play_round(services, seats, record.game_id)

    after = current(services, record.game_id).state
    assert after.player(leaver) is None
    # The game item keeps only the seated players' part of the reveal, or none when the storyteller left.
    assert after.last_round != scored
    assert leaver in scored.points
    stream.deliver()
    assert [r.to_dict() for r in services.games.list_rounds(record.game_id)] == [scored.to_dict()]


def _image(state: GameState, carried: RoundResult | None = None) -> dict[str, object]:
    image: dict[str, object] = {"state": state.to_json()}
    if carried is not None:
        image[state_codec.SCORED_ROUND] = state_codec.round_json(carried)
    return image


def _scored(
    old: GameState | None, new: GameState | None, old_image: dict[str, object], new_image: dict[str, object]
) -> RoundResult | None:
    """What the stream consumer finds scored in a change: the states and the reveal the new item carried."""
    return history.scored_round(old, new, history.carried_reveal(old_image, new_image))


def test_only_the_write_that_scored_a_round_names_it_not_a_later_one_that_keeps_the_item(
    services: Services,
) -> None:
    seats = register(services, 3)
    record = _start(services, seats)
    before = record.state
    _play_round(services, seats, record.game_id)
    scored = current(services, record.game_id).state
    result = scored.last_round
    assert result is not None

    assert _scored(before, scored, _image(before), _image(scored)) == result
    # The next moves of the game (or the sweep's update of the same item) score nothing new.
    later = replace(scored.copy(), version=scored.version + 1)
    assert _scored(scored, later, _image(scored), _image(later)) is None
    carried = _image(scored, result)
    assert _scored(scored, scored, carried, carried) is None
    assert _scored(before, scored, _image(before), carried) == result
    assert _scored(scored, None, _image(scored), {}) is None
