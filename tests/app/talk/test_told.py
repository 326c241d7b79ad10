"""app.flows.table_talk: a message reaches the other players' feeds and webhooks, never its author's, and
never anyone's phone or mailbox."""

from __future__ import annotations

import json

import pytest

from app.core.errors import Forbidden
from app.feed import feed
from app.flows.table_talk import hide_and_tell, post_and_tell, react_and_tell, unreact_and_tell
from app.services import Services
from app.webhooks import ssrf
from app.webhooks.subscriptions import subscribe
from tests.fakes.live import MemoryLiveQueue
from tests.fakes.mail import RecordingMailer
from tests.fakes.push import MemoryNotifier
from tests.fakes.queue import MemoryWebhookQueue
from tests.support.clock import Clock

from ..games.helpers import started


def test_the_other_players_find_the_message_in_their_feeds_and_their_webhooks_get_it(
    services: Services, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ssrf, "system_resolver", lambda host, port: ["93.184.216.34"])
    record, (ada, bob, cy) = started(services, 3)
    subscribe(services, bob, "https://hooks.example/bob", ["message.posted"])
    subscribe(services, cy, "https://hooks.example/cy", ["turn.owed"])
    first = post_and_tell(services, ada, record.game_id, "Good luck!")
    clock.advance(seconds=1)
    second = post_and_tell(services, bob, record.game_id, "You too")

    def told(player_id: str, after: str = "") -> list[dict[str, object]]:
        items = services.feed.list_feed(record.game_id, player_id, after=after, limit=100)
        return [json.loads(i.event_json) for i in items if '"message.posted"' in i.event_json]

    assert [(e["message_id"], e["author_name"], e["text"]) for e in told(cy.player_id)] == [
        (first.message_id, "Player 0", "Good luck!"),
        (second.message_id, "Player 1", "You too"),
    ]
    assert [e["message_id"] for e in told(bob.player_id)] == [first.message_id]  # not their own
    assert [e["message_id"] for e in told(ada.player_id)] == [second.message_id]
    event = told(cy.player_id)[0]
    assert (event["round_number"], event["phase"], event["game_version"]) == (
        1,
        "storytelling",
        record.version,
    )
    # The feed's cursor resumes between two messages of the same game version.
    cursor = services.feed.list_feed(record.game_id, cy.player_id, after="", limit=100)
    page = feed.feed_of(services, cy, record.game_id, after=cursor[-2].position, limit=10)
    assert [e.type for e in page.events] == ["message.posted"]
    assert page.events[0].id == told(cy.player_id)[1]["id"]

    queue = services.webhook_queue
    assert isinstance(queue, MemoryWebhookQueue)
    sent = [json.loads(body) for body in queue.sent]
    assert [(m["event"]["type"], m["event"]["recipient_id"]) for m in sent] == [
        ("message.posted", bob.player_id)
    ]
    # No push, no mail per message.
    assert isinstance(services.push, MemoryNotifier)
    assert isinstance(services.mailer, RecordingMailer)
    assert (services.push.published, services.push.pushed, services.mailer.sent) == ([], [], [])


def test_a_message_stored_stands_when_telling_the_table_fails(services: Services) -> None:
    record, (ada, _, _) = started(services, 3)
    queue = services.webhook_queue
    assert isinstance(queue, MemoryWebhookQueue)

    def refuse(bodies: list[str]) -> list[str]:
        raise RuntimeError("SQS refused them all")

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(queue, "send", refuse)
        said = post_and_tell(services, ada, record.game_id, "still here")
    page = services.talk.list_messages(record.game_id, before="", limit=5)
    assert [m.message_id for m in page] == [said.message_id]


def test_the_clients_watching_the_table_hear_a_message_posted_and_one_hidden(services: Services) -> None:
    record, (ada, bob, _) = started(services, 3)
    live = services.live_queue
    assert isinstance(live, MemoryLiveQueue)
    said = post_and_tell(services, bob, record.game_id, "mine is the boat")
    services.talk.report_message(
        record.game_id, said.message_id, ada.player_id, reason="spoils the round", at=services.now_iso()
    )
    hide_and_tell(services, ada, record.game_id, said.message_id)
    signals = [json.loads(body) for body in live.sent]
    assert [(s["kind"], s["game_id"], s["message_id"]) for s in signals] == [
        ("talk", record.game_id, said.message_id),
        ("talk", record.game_id, said.message_id),
    ]
    assert signals[0]["id"] != signals[1]["id"]
    assert "mine is the boat" not in json.dumps(signals)  # a signal, never the words


def test_a_message_stands_when_the_live_queue_refuses_its_signal(services: Services) -> None:
    record, (ada, _, _) = started(services, 3)
    live = services.live_queue
    assert isinstance(live, MemoryLiveQueue)
    live.refuse_all = True
    said = post_and_tell(services, ada, record.game_id, "hello")
    page = services.talk.list_messages(record.game_id, before="", limit=5)
    assert [m.message_id for m in page] == [said.message_id]


def test_the_clients_watching_the_table_hear_each_reaction_set_and_taken_back(services: Services) -> None:
    record, (ada, bob, cy) = started(services, 3)
    live = services.live_queue
    assert isinstance(live, MemoryLiveQueue)
    said = post_and_tell(services, ada, record.game_id, "mine is the boat")
    live.sent.clear()
    react_and_tell(services, bob, record.game_id, said.message_id, "laugh")
    react_and_tell(services, cy, record.game_id, said.message_id, "laugh")
    unreact_and_tell(services, bob, record.game_id, said.message_id)
    signals = [json.loads(body) for body in live.sent]
    assert [(s["kind"], s["game_id"], s["message_id"], s["members"]) for s in signals] == [
        ("reactions", record.game_id, said.message_id, []),
    ] * 3
    # Three changes to one target are three signals, not one deduplicated away.
    assert len({s["id"] for s in signals}) == 3
    # Taking back what is not there (again) says nothing: no flood of signals from repeated DELETEs.
    for _ in range(5):
        unreact_and_tell(services, bob, record.game_id, said.message_id)
    assert len(live.sent) == 3
    # A refused reaction (not seated) says nothing.
    stranger = started(services, 3)[1][0]
    with pytest.raises(Forbidden):
        react_and_tell(services, stranger, record.game_id, said.message_id, "wow")
    assert len(live.sent) == 3
