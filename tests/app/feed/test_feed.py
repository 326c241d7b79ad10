"""app.feed.feed: a game change to each member's feed (then, as the game change flow does, to their
webhooks' queue); a feed read by pages."""

from __future__ import annotations

import pytest

from app.core.errors import Forbidden, InvalidInput, NotFound
from app.core.records import GameRecord, PlayerRecord, Visibility
from app.feed import feed
from app.feed.events import EVENT_ADAPTER, Event
from app.games import play as games
from app.players import accounts
from app.services import Services
from app.webhooks.dispatch import WebhookMessage, delivery_id, enqueue_events
from app.webhooks.records import WebhookRecord
from dixit.moves import Join, Leave
from dixit.state import GameState, Phase
from tests.fakes.queue import MemoryWebhookQueue
from tests.support.clock import Clock

STAMP = "2026-03-01T12:00:00.000+00:00"


class Game:
    """A game played through the use cases, each change recorded as the Streams consumer records it."""

    def __init__(self, services: Services, host: PlayerRecord) -> None:
        self.services = services
        self.queue = MemoryWebhookQueue()
        record = games.create_game(
            services, host, rules="classic", decks=None, max_players=None, target_score=None,
            visibility=Visibility.PUBLIC,
        ).record  # fmt: skip
        self.game_id = record.game_id
        self.state: GameState | None = None
        self.recorded: list[Event] = []
        self.record()

    def current(self) -> GameRecord:
        return games.load_game(self.services, self.game_id)

    def move(self, player: PlayerRecord, move: Join | Leave) -> list[Event]:
        games.play(self.services, player, self.game_id, move)
        return self.record()

    def record(self) -> list[Event]:
        """Hand the change since the last one recorded to `record_change`; the events it made."""
        new = self.current().state
        events = record(self.services, self.queue, self.state, new)
        self.state = new
        self.recorded += events
        return events


def record(
    services: Services, queue: MemoryWebhookQueue, old: GameState | None, new: GameState
) -> list[Event]:
    """The change's events to the feed, then to the webhooks' queue (app.flows.game_change's order)."""
    events = feed.record_change(services, old, new)
    if events:
        enqueue_events(services, queue, events)
    return events


def player(services: Services, name: str) -> PlayerRecord:
    return accounts.register(services, name)[0]


def join(game: Game, *guests: PlayerRecord) -> None:
    for guest in guests:
        game.move(guest, Join(guest.player_id, guest.name))


def subscribed(services: Services, owner: PlayerRecord, *events: str) -> WebhookRecord:
    """A webhook of `owner`, put in the store as subscribing would (no URL vetting here)."""
    hook = WebhookRecord("wh_00000000000000a1", owner.player_id, "https://h.example/", events, "s", STAMP)
    assert services.webhooks.create_webhook(hook, max_per_player=5)
    return hook


def delivery_ids(bodies: list[str]) -> list[str]:
    return [WebhookMessage.from_json(body).delivery_id for body in bodies]


def stored(services: Services, game_id: str, player_id: str) -> list[Event]:
    items = services.feed.list_feed(game_id, player_id, after="", limit=100)
    return [EVENT_ADAPTER.validate_json(item.event_json) for item in items]


def test_a_change_goes_to_each_members_feed_and_to_the_webhooks_that_want_its_events(
    services: Services,
) -> None:
    ada, bob = player(services, "Ada"), player(services, "Bob")
    hook = subscribed(services, ada, "player.joined")
    game = Game(services, ada)
    game.queue.sent.clear()  # the host's own arrival

    events = game.move(bob, Join(bob.player_id, bob.name))

    assert {(e.recipient_id, e.type, getattr(e, "player_id", None)) for e in events} == {
        (ada.player_id, "player.joined", bob.player_id),
        (bob.player_id, "player.joined", bob.player_id),
    }
    for member in (ada, bob):
        mine = [e for e in game.recorded if e.recipient_id == member.player_id]
        assert stored(services, game.game_id, member.player_id) == mine
    [message] = [WebhookMessage.from_json(body) for body in game.queue.sent]
    (adas,) = (e for e in events if e.recipient_id == ada.player_id)
    assert (message.webhook_id, message.player_id) == (hook.webhook_id, ada.player_id)
    assert message.delivery_id == delivery_id(hook.webhook_id, adas.id)
    assert message.event["id"] == adas.id


def test_a_change_recorded_again_rewrites_the_same_items_and_enqueues_the_same_deliveries(
    services: Services,
) -> None:
    ada, bob = player(services, "Ada"), player(services, "Bob")
    subscribed(services, ada, "player.joined")
    game = Game(services, ada)
    before = game.state
    game.queue.sent.clear()
    events = game.move(bob, Join(bob.player_id, bob.name))
    feed_then, sent_then = stored(services, game.game_id, ada.player_id), delivery_ids(game.queue.sent)
    assert sent_then
    game.queue.sent.clear()

    again = record(services, game.queue, before, game.current().state)  # a retried batch

    assert again == events
    assert stored(services, game.game_id, ada.player_id) == feed_then
    assert delivery_ids(game.queue.sent) == sent_then


def test_the_change_that_finishes_a_game_sets_every_item_of_its_feed_to_expire(
    services: Services, clock: Clock
) -> None:
    ada, bob = player(services, "Ada"), player(services, "Bob")
    game = Game(services, ada)
    join(game, bob)
    game.move(bob, Leave(bob.player_id))
    assert set(services.feed.expiry(game.game_id).values()) == {None}

    clock.advance(hours=5)
    game.move(ada, Leave(ada.player_id))

    assert game.state is not None
    assert game.state.phase is Phase.FINISHED
    expires_at = int(clock().timestamp()) + services.settings.feed_ttl_after_end_seconds
    expiry = services.feed.expiry(game.game_id)
    assert {player_id for player_id, _ in expiry} == {ada.player_id, bob.player_id}
    assert set(expiry.values()) == {expires_at}


def test_a_members_feed_is_read_oldest_first_a_page_at_a_time_from_the_cursor_it_gives(
    services: Services,
) -> None:
    ada = player(services, "Ada")
    game = Game(services, ada)
    join(game, *(player(services, name) for name in ("Bob", "Cy", "Dee")))
    adas = [e.id for e in game.recorded if e.recipient_id == ada.player_id]
    assert len(adas) == 4  # her own arrival, then each guest's

    first = feed.feed_of(services, ada, game.game_id, after=None, limit=3)
    assert [e.id for e in first.events] == adas[:3]
    assert first.has_more
    second = feed.feed_of(services, ada, game.game_id, after=first.cursor, limit=3)
    assert [e.id for e in second.events] == adas[3:]
    assert not second.has_more
    last = feed.feed_of(services, ada, game.game_id, after=second.cursor, limit=3)
    assert (last.events, last.cursor, last.has_more) == ([], second.cursor, False)


def test_a_stranger_has_no_feed_and_a_player_who_left_keeps_theirs(services: Services) -> None:
    ada, bob, stranger = player(services, "Ada"), player(services, "Bob"), player(services, "Eve")
    game = Game(services, ada)
    join(game, bob)
    game.move(bob, Leave(bob.player_id))

    with pytest.raises(Forbidden) as refused:
        feed.feed_of(services, stranger, game.game_id, after=None, limit=10)
    assert refused.value.code == "not_a_member"
    kept = feed.feed_of(services, bob, game.game_id, after=None, limit=10)
    assert [(e.type, getattr(e, "player_id", None)) for e in kept.events] == [
        ("player.joined", bob.player_id),
        ("player.left", bob.player_id),
    ]


@pytest.mark.parametrize("after", ["abc", "12.000", "0000000001.0001", "0000000001-000"])
def test_a_cursor_the_feed_never_gave_is_refused(services: Services, after: str) -> None:
    ada = player(services, "Ada")
    game = Game(services, ada)
    with pytest.raises(InvalidInput) as refused:
        feed.feed_of(services, ada, game.game_id, after=after, limit=10)
    assert refused.value.code == "invalid_cursor"


def test_a_game_that_does_not_exist_has_no_feed(services: Services) -> None:
    with pytest.raises(NotFound):
        feed.feed_of(services, player(services, "Ada"), "g_ffffffffffffffff", after=None, limit=10)
