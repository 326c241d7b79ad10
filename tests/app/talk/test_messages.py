"""app.talk: posting and reading a game's talk, and when it expires, over the in-memory doubles."""

from __future__ import annotations

import pytest

from app.core.errors import Forbidden, InvalidInput, NotFound, RateLimited
from app.games import play as games
from app.players import accounts
from app.services import Services
from app.talk import expiry, messages
from dixit.errors import IllegalMoveError, InvalidMoveError
from dixit.moves import GiveClue
from dixit.state import Phase
from dixit.table_talk import Reopens
from tests.fakes.talk import MemoryTalkStore
from tests.support.clock import Clock

from ..games.helpers import started


def store(services: Services) -> MemoryTalkStore:
    assert isinstance(services.talk, MemoryTalkStore)
    return services.talk


def test_a_message_carries_its_authors_seat_name_round_phase_and_time(
    services: Services, clock: Clock
) -> None:
    record, seated = started(services, 4)
    said = messages.post_message(services, seated[1], record.game_id, " Good luck, all ")
    assert (said.text, said.author_id, said.author_name) == (
        "Good luck, all",
        seated[1].player_id,
        "Player 1",
    )
    assert (said.round, said.phase, said.posted_at) == (
        1,
        "storytelling",
        clock.now.isoformat(timespec="milliseconds"),
    )
    assert said.message_id.startswith(f"m_{int(clock.now.timestamp() * 1000):013d}")
    page = messages.list_messages(services, seated[0], record.game_id, before=None, limit=10)
    assert page.messages == [said]
    assert (page.window.open, page.next_before) == (True, None)


def test_messages_page_newest_first(services: Services, clock: Clock) -> None:
    record, seated = started(services, 3)
    for n in range(5):
        messages.post_message(services, seated[n % 3], record.game_id, f"m{n}")
        clock.advance(seconds=1)
    first = messages.list_messages(services, seated[0], record.game_id, before=None, limit=2)
    assert [m.text for m in first.messages] == ["m4", "m3"]
    second = messages.list_messages(services, seated[0], record.game_id, before=first.next_before, limit=2)
    assert [m.text for m in second.messages] == ["m2", "m1"]
    last = messages.list_messages(services, seated[0], record.game_id, before=second.next_before, limit=2)
    assert ([m.text for m in last.messages], last.next_before) == (["m0"], None)


def test_talk_closes_with_the_clue_and_nothing_is_stored_or_counted(services: Services) -> None:
    record, seated = started(services, 4)
    teller = next(p for p in seated if p.player_id == record.state.round.storyteller_id)  # type: ignore[union-attr]
    card = record.state.hands[teller.player_id][0]
    games.play(services, teller, record.game_id, GiveClue(teller.player_id, card, "a door"))
    with pytest.raises(IllegalMoveError) as closed:
        messages.post_message(services, seated[0], record.game_id, "mine has a cat")
    assert closed.value.code == "table_talk_closed"
    page = messages.list_messages(services, seated[0], record.game_id, before=None, limit=10)
    assert (page.messages, page.window.reopens) == ([], Reopens.AT_REVEAL)


def test_only_seated_players_talk_and_a_private_games_talk_is_its_members(services: Services) -> None:
    record, _ = started(services, 3)
    stranger = accounts.register(services, "Eve")[0]
    with pytest.raises(Forbidden):
        messages.post_message(services, stranger, record.game_id, "hi")
    with pytest.raises(Forbidden):
        messages.list_messages(services, stranger, record.game_id, before=None, limit=10)
    with pytest.raises(NotFound):
        messages.post_message(services, stranger, "g_0000000000000000", "hi")


def test_a_bad_message_or_cursor_is_refused_with_its_code(services: Services) -> None:
    record, seated = started(services, 3)
    with pytest.raises(InvalidMoveError) as bad:
        messages.post_message(services, seated[0], record.game_id, "a\u200bb")
    assert bad.value.code == "format_character"
    with pytest.raises(InvalidInput):
        messages.list_messages(services, seated[0], record.game_id, before="m_1", limit=10)


def test_the_minute_limit_is_per_table_and_the_next_minute_is_free(services: Services, clock: Clock) -> None:
    record, seated = started(services, 3)
    other, _ = started(services, 3)
    clock.now = clock.now.replace(second=0)
    author = seated[0]
    for n in range(10):
        messages.post_message(services, author, record.game_id, f"m{n}")
    with pytest.raises(RateLimited) as limited:
        messages.post_message(services, author, record.game_id, "one more")
    assert (limited.value.code, limited.value.retry_after) == ("too_many_messages", 60)
    messages.post_message(services, seated[1], record.game_id, "someone else")
    clock.advance(seconds=60)
    messages.post_message(services, author, record.game_id, "again")
    assert other.game_id != record.game_id


def test_talk_expires_as_long_after_the_end_as_the_feed(services: Services, clock: Clock) -> None:
    record, seated = started(services, 3)
    said = messages.post_message(services, seated[0], record.game_id, "before the end")
    assert store(services).expiry(record.game_id) == {said.message_id: None}
    finished = record.state.copy()
    finished.phase = Phase.FINISHED
    assert expiry.expire_at_the_end(services, record.state, finished)
    ends = int(clock.now.timestamp()) + services.settings.feed_ttl_after_end_seconds
    assert store(services).expiry(record.game_id) == {said.message_id: ends}
    # Only the change that finishes the game sets it: a later change of a finished game does not.
    assert not expiry.expire_at_the_end(services, finished, finished)
    assert not expiry.expire_at_the_end(services, None, record.state)
