"""The one move use case (`games.play`) on every Store: preconditions, invites and lost races.

Races are staged with `Interleaved`: another invocation's move lands right after this one's read, so
this one's conditional write loses and `play` must re-read and re-apply (or say why it no longer can).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.core.deadline import Deadline
from app.core.errors import Conflict, Forbidden, StaleVersion, StoreUnavailable
from app.core.records import GameRecord, PlayerRecord, Visibility
from app.games import play as games
from app.games.ports import GameWrite
from app.games.presented import game as present_game
from app.players import accounts as players
from app.services import Services
from dixit.errors import IllegalMoveError
from dixit.moves import GiveClue, Join, Leave, Start, Submit, Vote
from dixit.state import EndReason, Phase
from tests.support.stream import GameStream

from .. import every_store
from ..staging import Interleaved

# On every Store adapter, as tests/app/conftest.py gives it, not this folder's in-memory `services`: a
# fixture of the module takes precedence over the folder's.
services = every_store.services


def register(services: Services, count: int) -> list[PlayerRecord]:
    return [players.register(services, f"Player {n}")[0] for n in range(count)]


def lobby(
    services: Services, seats: list[PlayerRecord], *, visibility: Visibility = Visibility.PUBLIC, **rules: int
) -> GameRecord:
    host, *guests = seats
    record = games.create_game(
        services, host, rules="classic", decks=None, max_players=rules.get("max_players"), target_score=None,
        visibility=visibility,
    ).record  # fmt: skip
    for guest in guests:
        record = games.play(services, guest, record.game_id, Join(guest.player_id, guest.name),
                            invite_code=record.invite_code).record  # fmt: skip
    return record


def with_clue(services: Services, seats: list[PlayerRecord]) -> tuple[GameRecord, PlayerRecord]:
    record = lobby(services, seats)
    record = games.play(services, seats[0], record.game_id, Start(seats[0].player_id)).record
    assert record.state.round is not None
    teller = next(p for p in seats if p.player_id == record.state.round.storyteller_id)
    card = record.state.hands[teller.player_id][0]
    record = games.play(services, teller, record.game_id, GiveClue(teller.player_id, card, "home")).record
    return record, teller


def submit(services: Services, record: GameRecord, player: PlayerRecord) -> GameRecord:
    card = record.state.hands[player.player_id][0]
    return games.play(services, player, record.game_id, Submit(player.player_id, (card,))).record


def current(services: Services, game_id: str) -> GameRecord:
    return games.load_game(services, game_id)


def test_moves_go_through_one_use_case_from_lobby_to_voting(services: Services) -> None:
    seats = register(services, 4)
    record, teller = with_clue(services, seats)
    for guesser in (p for p in seats if p is not teller):
        record = submit(services, current(services, record.game_id), guesser)
    assert record.state.phase is Phase.VOTING
    assert {g.game_id for g in services.games.games_of(seats[3].player_id)} == {record.game_id}


def test_an_expected_version_that_is_no_longer_current_is_stale_and_applies_nothing(
    services: Services,
) -> None:
    seats = register(services, 3)
    record = lobby(services, seats)
    with pytest.raises(StaleVersion) as stale:
        games.play(services, seats[0], record.game_id, Start(seats[0].player_id),
                   expected_version=record.version - 1)  # fmt: skip
    assert stale.value.current_version == record.version
    assert current(services, record.game_id).state.phase is Phase.LOBBY
    started = games.play(services, seats[0], record.game_id, Start(seats[0].player_id),
                         expected_version=record.version).record  # fmt: skip
    assert started.state.phase is Phase.STORYTELLING


def test_a_move_that_loses_a_race_is_reapplied_to_the_fresher_state(
    services: Services, staged: Interleaved
) -> None:
    seats = register(services, 4)
    record, teller = with_clue(services, seats)
    first, second = [p for p in seats if p is not teller][:2]
    staged.after_next_load(lambda: submit(services, current(services, record.game_id), first))

    result = submit(services, record, second)

    assert result.version == record.version + 2
    rnd = result.state.round
    assert rnd is not None
    assert set(rnd.submissions) == {first.player_id, second.player_id}


def test_with_an_expected_version_a_lost_race_is_stale_instead_of_a_retry(
    services: Services, staged: Interleaved
) -> None:
    seats = register(services, 4)
    record, teller = with_clue(services, seats)
    first, second = [p for p in seats if p is not teller][:2]
    staged.after_next_load(lambda: submit(services, current(services, record.game_id), first))
    card = record.state.hands[second.player_id][0]
    with pytest.raises(StaleVersion):
        games.play(services, second, record.game_id, Submit(second.player_id, (card,)),
                   expected_version=record.version)  # fmt: skip
    rnd = current(services, record.game_id).state.round
    assert rnd is not None
    assert second.player_id not in rnd.submissions


def test_a_game_that_keeps_changing_gives_up_with_busy_game_and_applies_nothing(
    services: Services, staged: Interleaved
) -> None:
    seats = register(services, 4)
    record, teller = with_clue(services, seats)
    guesser = next(p for p in seats if p is not teller)

    def someone_else_acts() -> None:
        game = current(services, record.game_id)
        moved_on = replace(game, state=replace(game.state, version=game.version + 1))
        services.games.save_game(GameWrite(moved_on, expected_version=game.version))

    staged.after_next_load(someone_else_acts, times=services.settings.move_attempts)
    with pytest.raises(Conflict) as busy:
        submit(services, record, guesser)
    assert busy.value.code == "busy_game"
    rnd = current(services, record.game_id).state.round
    assert rnd is not None
    assert guesser.player_id not in rnd.submissions


def test_a_join_that_lost_the_last_seat_is_refused_game_full_and_leaves_no_membership(
    services: Services, staged: Interleaved
) -> None:
    seats = register(services, 4)
    record = lobby(services, seats[:2], max_players=3)
    third, fourth = seats[2], seats[3]
    staged.after_next_load(
        lambda: games.play(services, third, record.game_id, Join(third.player_id, third.name))
    )
    with pytest.raises(IllegalMoveError) as full:
        games.play(services, fourth, record.game_id, Join(fourth.player_id, fourth.name))
    assert full.value.code == "game_full"
    assert services.games.games_of(fourth.player_id) == []


def test_the_vote_that_completes_a_round_in_a_race_scores_it_once(
    services: Services, staged: Interleaved
) -> None:
    stream = GameStream(services)
    seats = register(services, 4)
    record, teller = with_clue(services, seats)
    guessers = [p for p in seats if p is not teller]
    for guesser in guessers:
        record = submit(services, current(services, record.game_id), guesser)
    rnd = record.state.round
    assert rnd is not None

    def ballot(player: PlayerRecord) -> Vote:
        mine = rnd.submissions[player.player_id]
        return Vote(player.player_id, (next(c for c in rnd.table if c not in mine),))

    a, b, c = guessers
    games.play(services, a, record.game_id, ballot(a))
    staged.after_next_load(lambda: games.play(services, b, record.game_id, ballot(b)))
    result = games.play(services, c, record.game_id, ballot(c)).record

    assert result.state.round is not None
    assert result.state.round.number == 2
    stream.deliver()  # the history is the stream consumer's to write
    assert [r.number for r in services.games.list_rounds(record.game_id)] == [1]


@pytest.mark.parametrize(("code", "refusal"), [(None, "invite_required"), ("guess", "bad_invite_code"),
                                               ("défi", "bad_invite_code")])  # fmt: skip
def test_a_private_game_seats_only_a_player_with_its_invite_code(
    services: Services, code: str | None, refusal: str
) -> None:
    host, guest = register(services, 2)
    record = lobby(services, [host], visibility=Visibility.PRIVATE)
    with pytest.raises(Forbidden) as refused:
        games.play(services, guest, record.game_id, Join(guest.player_id, guest.name), invite_code=code)
    assert refused.value.code == refusal
    seated = games.play(services, guest, record.game_id, Join(guest.player_id, guest.name),
                        invite_code=record.invite_code).record  # fmt: skip
    assert [p.player_id for p in seated.state.players] == [host.player_id, guest.player_id]


def test_the_finished_view_says_why_the_game_ended(services: Services) -> None:
    (host,) = register(services, 1)
    record = lobby(services, [host])
    assert present_game(record, host.player_id, services.images).end_reason is None
    finished = games.play(services, host, record.game_id, Leave(host.player_id)).record
    view = present_game(finished, host.player_id, services.images)
    assert view.phase is Phase.FINISHED
    assert view.end_reason is EndReason.EVERYONE_LEFT
    assert view.winners == []


class _AnswerLostOnce:
    """The store commits the next save, then reports a fault, as when DynamoDB's answer times out."""

    def __init__(self, inner: Interleaved) -> None:
        self.inner = inner
        self.armed = True

    def save_game(self, *args: object, **kwargs: object) -> None:
        self.inner.save_game(*args, **kwargs)  # type: ignore[arg-type]
        if self.armed:
            self.armed = False
            raise StoreUnavailable()

    def __getattr__(self, name: str) -> object:
        return getattr(self.inner, name)


def test_a_move_whose_answer_was_lost_with_no_time_left_to_retry_is_still_reported_as_applied(
    services: Services, staged: Interleaved
) -> None:
    seats = register(services, 4)
    record, teller = with_clue(services, seats)
    guesser = next(p for p in seats if p is not teller)
    hurried = replace(services, games=_AnswerLostOnce(staged), deadline=Deadline.after(0))  # type: ignore[arg-type]

    result = submit(hurried, record, guesser)

    assert isinstance(result, GameRecord)
    assert guesser.player_id in current(services, record.game_id).state.round.submissions  # type: ignore[union-attr]
    assert result.version == current(services, record.game_id).version
