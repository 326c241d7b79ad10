"""The never-stall sweep's reminders and timeouts reach the event feed and the webhooks that want them."""

from __future__ import annotations

import pytest

from tests.api.client import Client
from tests.api.helpers import started, storyteller
from tests.api.stream import StreamFeed
from tests.api.sweep.test_sweep import HOUR, T0, FakeClock, clock, sweep_at  # noqa: F401  (clock: a fixture)
from tests.support.aws import TABLE
from tests.support.webhooks import Queues, Receiver

from .test_webhook_stream import messages, subscribe


@pytest.fixture
def feed(queues: Queues, clock: FakeClock) -> StreamFeed:  # noqa: F811
    return StreamFeed(TABLE)


def test_reminders_go_to_whom_the_game_waits_on_and_a_timeout_to_every_member_in_feed_order(
    players: list[Client],
    queues: Queues,
    receiver: Receiver,
    feed: StreamFeed,
) -> None:
    three = players[:3]
    for member in three:
        subscribe(member, receiver, ["reminder", "timeout"])
    game_id = started(three)
    teller = storyteller(three, game_id)
    assert feed.deliver() == {"batchItemFailures": []}
    assert messages(queues) == []  # nobody subscribed to the start

    assert sweep_at(T0 + 24 * HOUR)["reminders_sent"] == 1
    assert sweep_at(T0 + 44 * HOUR)["reminders_sent"] == 1
    reminders = messages(queues)
    assert [(m.event["type"], m.player_id) for m in reminders] == [("reminder", teller.player_id)] * 2
    assert reminders[0].event["id"] != reminders[1].event["id"]  # half time and last call
    assert {m.event["move"] for m in reminders} == {"clue"}
    assert {m.event["deadline"] for m in reminders} == {"2026-12-03T09:00:00Z"}

    assert sweep_at(T0 + 50 * HOUR)["timeouts_applied"] == 1
    timeouts = messages(queues)
    assert sorted(m.player_id for m in timeouts) == sorted(p.player_id for p in three)
    assert {(m.event["type"], m.event["player_id"]) for m in timeouts} == {("timeout", teller.player_id)}

    # The stream then brings the change the timeout made: in the feed it comes after the timeout.
    assert feed.deliver() == {"batchItemFailures": []}
    events = teller.get(f"/games/{game_id}/events").body["events"]
    assert [e["type"] for e in events][-5:] == ["turn.owed", "reminder", "reminder", "timeout", "turn.owed"]
    assert events[-1]["you_owe"] is False  # the role passed to the next seat
    assert sweep_at(T0 + 50 * HOUR)["games_due"] == 0  # nothing sent twice
    assert messages(queues) == []
