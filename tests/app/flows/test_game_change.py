"""app.flows.game_change: one change of a game item, decoded once, then history, inbox, feed and
webhooks, notifications, in that order; a step that fails leaves the ones before it written and
tells nobody, and the retry tells everyone once."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest

from app.core.records import FeedItem, PlayerRecord
from app.feed.ports import FeedStore
from app.flows.game_change import GameChange, on_game_change
from app.games import play as games
from app.notify.delivery import Delivery
from app.services import Services
from dixit.moves import Start
from dixit.state import Phase
from tests.app.games.test_play import lobby, register
from tests.fakes.push import MemoryNotifier
from tests.support.clock import Clock
from tests.support.services import memory_services


@pytest.fixture
def services(clock: Clock) -> Services:
    """Over the in-memory doubles: their game store hands over each change as the stream would."""
    return memory_services(clock=clock)


class BrokenFeed:
    """A feed store whose writes fail: the stream record's third step."""

    def __init__(self, store: FeedStore) -> None:
        self.store = store

    def put_feed_items(self, items: Sequence[FeedItem], *, expires_at: int | None) -> None:
        raise RuntimeError("the feed table is down")

    def expire_feed(self, game_id: str, *, expires_at: int) -> None:
        raise RuntimeError("the feed table is down")

    def list_feed(self, game_id: str, player_id: str, *, after: str, limit: int) -> list[FeedItem]:
        return self.store.list_feed(game_id, player_id, after=after, limit=limit)


def started(services: Services) -> tuple[list[PlayerRecord], tuple[dict[str, Any], dict[str, Any]]]:
    """Three players whose game just started, and the start's (old, new) images as the stream has them."""
    seats = register(services, 3)
    record = lobby(services, seats)
    services.games.take_changes()  # type: ignore[attr-defined]
    games.play(services, seats[0], record.game_id, Start(seats[0].player_id))
    [change] = services.games.take_changes()  # type: ignore[attr-defined]
    return seats, change


def test_the_images_are_decoded_into_states_and_what_the_item_says_besides(services: Services) -> None:
    _, (old_image, new_image) = started(services)
    change = GameChange.of_images(old_image, new_image)
    assert change.old is not None
    assert change.old.phase is Phase.LOBBY
    assert change.new is not None
    assert change.new.phase is not Phase.LOBBY
    assert change.committed_at == new_image["updated_at"]
    assert (change.reveal, change.rematch_of, change.opened_rematch) == (None, None, None)

    gone = GameChange.of_images(new_image, None)
    assert (gone.new, gone.committed_at) == (None, None)
    reopened = GameChange.of_images(None, {**new_image, "rematch_of": "g_finished", "invite_code": "c0de"})
    assert (reopened.rematch_of, reopened.invite_code) == ("g_finished", "c0de")
    assert reopened.opened_rematch is None  # a started game is no rematch lobby


def test_a_failed_feed_write_leaves_the_inbox_written_and_tells_nobody_until_the_retry(
    services: Services,
) -> None:
    push = services.push
    assert isinstance(push, MemoryNotifier)
    seats, (old_image, new_image) = started(services)
    change = GameChange.of_images(old_image, new_image)
    assert change.new is not None
    # The inbox entries are the ones the joins wrote: only the stream brings them up to the start.
    entries = [m for seat in seats for m in services.inbox.active_memberships(seat.player_id)]
    assert entries
    assert all(m.version < change.new.version for m in entries)
    built: list[Delivery] = []

    def delivery() -> Delivery:
        built.append(Delivery.of(services))
        return built[-1]

    with pytest.raises(RuntimeError, match="feed table is down"):
        on_game_change(replace(services, feed=BrokenFeed(services.feed)), change, delivery)
    # The inbox came before the feed: written already, at the new version. Nobody was told anything.
    for seat in seats:
        [entry] = services.inbox.active_memberships(seat.player_id)
        assert entry.version == change.new.version
    assert built == []
    assert push.published == []

    on_game_change(services, change, delivery)  # the stream's retry of the same record
    assert len(built) == 1
    told = {n.player_id for n in push.published}
    assert told
    assert told <= {seat.player_id for seat in seats}
    feed = services.feed.list_feed(change.new.game_id, seats[0].player_id, after="", limit=100)
    assert feed, "the retry wrote the change's events to the feed"
