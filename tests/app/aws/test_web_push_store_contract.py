"""What the Web Push subscription store promises, on DynamoDB (moto) and in memory alike."""

from __future__ import annotations

from typing import Any

from app.notify.web_push.ports import WebPushSubscription

STAMP = "2026-03-01T12:00:00+00:00"


def subscription(
    sid: str, endpoint: str = "https://push.example.com/1", expires: int | None = None
) -> WebPushSubscription:
    return WebPushSubscription(sid, endpoint, "BP" + "A" * 85, "B" * 22, expires, STAMP)


def test_subscriptions_are_read_back_whole_in_id_order_and_only_the_players_own(store: Any) -> None:
    store.put_web_push_subscription("p_ada", subscription("b", expires=1_767_225_600_000))
    store.put_web_push_subscription("p_ada", subscription("a"))
    store.put_web_push_subscription("p_bob", subscription("c"))
    assert store.list_web_push_subscriptions("p_ada") == [
        subscription("a"),
        subscription("b", expires=1_767_225_600_000),
    ]
    assert store.get_web_push_subscription("p_ada", "b") == subscription("b", expires=1_767_225_600_000)
    assert store.get_web_push_subscription("p_ada", "c") is None
    assert store.list_web_push_subscriptions("p_nobody") == []


def test_a_put_under_the_same_id_replaces_the_subscription(store: Any) -> None:
    store.put_web_push_subscription("p_ada", subscription("a"))
    store.put_web_push_subscription("p_ada", subscription("a", "https://push.example.com/2"))
    assert store.list_web_push_subscriptions("p_ada") == [subscription("a", "https://push.example.com/2")]


def test_a_delete_tells_whether_there_was_one(store: Any) -> None:
    store.put_web_push_subscription("p_ada", subscription("a"))
    assert store.delete_web_push_subscription("p_ada", "a")
    assert not store.delete_web_push_subscription("p_ada", "a")
    assert store.list_web_push_subscriptions("p_ada") == []


def test_a_delete_for_an_endpoint_spares_a_subscription_that_moved_elsewhere_meanwhile(store: Any) -> None:
    store.put_web_push_subscription("p_ada", subscription("a", "https://push.example.com/new"))
    assert not store.delete_web_push_subscription("p_ada", "a", endpoint="https://push.example.com/old")
    assert store.delete_web_push_subscription("p_ada", "a", endpoint="https://push.example.com/new")
    assert store.list_web_push_subscriptions("p_ada") == []


def test_failures_in_a_row_disable_a_subscription_a_success_clears_them_and_a_new_put_re_enables(
    store: Any,
) -> None:
    store.put_web_push_subscription("p_ada", subscription("a"))
    first = store.record_web_push_result("p_ada", "a", ok=False, status="timeout", at=STAMP, disable_after=2)
    assert (first.failures, first.last_failure, first.disabled_at) == (1, f"{STAMP} timeout", None)
    cleared = store.record_web_push_result("p_ada", "a", ok=True, status="201", at=STAMP, disable_after=2)
    assert (cleared.failures, cleared.last_failure, cleared.disabled_at) == (0, None, None)
    for _ in range(2):
        last = store.record_web_push_result("p_ada", "a", ok=False, status="503", at=STAMP, disable_after=2)
    assert last.disabled_at == STAMP
    assert store.get_web_push_subscription("p_ada", "a").disabled_at == STAMP
    store.put_web_push_subscription("p_ada", subscription("a"))  # subscribed again
    assert store.get_web_push_subscription("p_ada", "a") == subscription("a")
    assert (
        store.record_web_push_result("p_ada", "gone", ok=False, status="x", at=STAMP, disable_after=2) is None
    )
