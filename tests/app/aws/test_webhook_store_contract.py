"""What every Store adapter promises about webhooks and the event feed (DynamoDB on moto, in memory)."""

from __future__ import annotations

from typing import Any

import pytest
from botocore.exceptions import ClientError

from app.core.errors import StoreUnavailable
from app.core.records import FeedItem, PlayerRecord
from app.webhooks.records import DeliveryAttempt, WebhookRecord
from tests.support.services import AllTablePorts

STAMP = "2026-03-01T12:00:00.000+00:00"
GAME = "g_0000000000000001"


def webhook(number: int, player_id: str = "p_1") -> WebhookRecord:
    return WebhookRecord(
        webhook_id=f"wh_{number:016x}",
        player_id=player_id,
        url=f"https://hooks.example.com/{number}",
        events=("turn.owed",),
        secret="whsec_x",
        created_at=STAMP,
    )


def item(player_id: str, version: int, index: int) -> FeedItem:
    return FeedItem(GAME, player_id, f"{version:010d}.{index:03d}", f'{{"v":{version},"i":{index}}}')


def test_a_player_may_hold_webhooks_up_to_the_limit_and_deleting_one_frees_a_slot(store: Any) -> None:
    store.create_player(PlayerRecord("p_1", "Ada", "hash", STAMP))
    assert [store.create_webhook(webhook(n), max_per_player=2) for n in range(3)] == [True, True, False]
    assert [w.webhook_id for w in store.list_webhooks("p_1")] == [
        webhook(0).webhook_id,
        webhook(1).webhook_id,
    ]
    assert store.delete_webhook("p_1", webhook(0).webhook_id)
    assert not store.delete_webhook("p_1", webhook(0).webhook_id)
    assert store.create_webhook(webhook(2), max_per_player=2)
    assert not store.create_webhook(webhook(9, "p_nobody"), max_per_player=2)


def test_failures_in_a_row_disable_a_webhook_and_a_success_resets_the_count(store: Any) -> None:
    store.create_player(PlayerRecord("p_1", "Ada", "hash", STAMP))
    store.create_webhook(webhook(1), max_per_player=5)
    hook_id = webhook(1).webhook_id

    def note(ok: bool, hook: str = hook_id) -> WebhookRecord | None:
        status = "200" if ok else "500"
        return store.record_webhook_result("p_1", hook, ok=ok, status=status, at=STAMP, disable_after=2)

    result = note(False)
    assert result is not None
    assert (result.consecutive_failures, result.disabled) == (1, False)
    healed = note(True)
    assert healed is not None
    assert healed.consecutive_failures == 0
    for _ in range(2):
        result = store.record_webhook_result(
            "p_1", hook_id, ok=False, status="500", at=STAMP, disable_after=2
        )
    assert result is not None
    assert (result.consecutive_failures, result.disabled, result.disabled_at) == (2, True, STAMP)
    assert (
        store.record_webhook_result("p_1", "wh_gone", ok=True, status="200", at=STAMP, disable_after=2)
        is None
    )


def test_a_feed_is_read_in_order_after_a_cursor_for_one_player_only(store: Any) -> None:
    written = [item("p_1", 3, 1), item("p_1", 3, 0), item("p_1", 12, 0), item("p_2", 3, 0), item("p_1", 4, 0)]
    store.put_feed_items(written, expires_at=None)
    store.put_feed_items([item("p_1", 3, 0)], expires_at=None)  # written again by a retried batch
    first = store.list_feed(GAME, "p_1", after="", limit=2)
    assert [i.position for i in first] == ["0000000003.000", "0000000003.001"]
    rest = store.list_feed(GAME, "p_1", after=first[-1].position, limit=10)
    assert [i.position for i in rest] == ["0000000004.000", "0000000012.000"]
    assert rest[-1] == item("p_1", 12, 0)
    assert store.list_feed(GAME, "p_1", after=rest[-1].position, limit=10) == []
    assert store.list_feed(GAME, "p_3", after="", limit=10) == []
    store.expire_feed(GAME, expires_at=2_000_000_000)
    assert len(store.list_feed(GAME, "p_1", after="", limit=10)) == 4


def test_a_throttled_table_is_store_unavailable_for_webhooks_and_the_feed_too() -> None:
    class ThrottledClient:
        def __getattr__(self, operation: str) -> Any:
            def refuse(*_: Any, **__: Any) -> Any:
                error = {"Code": "ProvisionedThroughputExceededException", "Message": "slow down"}
                raise ClientError({"Error": error, "ResponseMetadata": {"HTTPStatusCode": 400}}, operation)

            return refuse

    store = AllTablePorts("dixit-test", client=ThrottledClient())
    attempt = DeliveryAttempt(
        webhook_id="wh_1",
        delivery_id="dlv_1",
        attempt=1,
        event_id="evt_1",
        event_type="turn.owed",
        attempted_at=STAMP,
        outcome="failed",
        status="500",
        latency_ms=3,
        next_retry_at=None,
    )
    calls = [
        lambda: store.create_webhook(webhook(1), max_per_player=5),
        lambda: store.list_webhooks("p_1"),
        lambda: store.get_webhook("p_1", "wh_1"),
        lambda: store.delete_webhook("p_1", "wh_1"),
        lambda: store.set_webhook_secret("p_1", "wh_1", "whsec_y"),
        lambda: store.record_webhook_result("p_1", "wh_1", ok=False, status="500", at=STAMP, disable_after=9),
        lambda: store.put_delivery_attempt(attempt, expires_at=1),
        lambda: store.list_delivery_attempts("wh_1", 10),
        lambda: store.put_feed_items([item("p_1", 1, 0)], expires_at=None),
        lambda: store.expire_feed(GAME, expires_at=1),
        lambda: store.list_feed(GAME, "p_1", after="", limit=10),
    ]
    for call in calls:
        with pytest.raises(StoreUnavailable):
            call()
