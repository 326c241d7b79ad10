"""Webhook subscriptions and delivery attempts as stored in the game table (keys in docs/architecture.md)."""

from __future__ import annotations

from typing import Any, Literal

from dixit.lean_dataclass import dataclass

Outcome = Literal["delivered", "failed", "gave_up", "dropped"]


@dataclass(frozen=True, slots=True)
class WebhookRecord:
    webhook_id: str
    player_id: str
    url: str
    events: tuple[str, ...]
    secret: str
    created_at: str
    consecutive_failures: int = 0
    disabled: bool = False
    disabled_at: str | None = None
    last_delivery_at: str | None = None
    last_status: str | None = None

    def wants(self, event_type: str) -> bool:
        return not self.disabled and event_type in self.events


@dataclass(frozen=True, slots=True)
class DeliveryAttempt:
    webhook_id: str
    delivery_id: str
    event_id: str
    event_type: str
    attempt: int
    attempted_at: str
    outcome: Outcome
    # An HTTP status ("500"), or why no status came back ("timeout", "connection_error", a refusal code).
    status: str
    latency_ms: int | None = None
    next_retry_at: str | None = None


def webhook_key(player_id: str, webhook_id: str) -> dict[str, Any]:
    return {"pk": {"S": f"PLAYER#{player_id}"}, "sk": {"S": f"WEBHOOK#{webhook_id}"}}


def webhook_item(record: WebhookRecord) -> dict[str, Any]:
    return {
        **webhook_key(record.player_id, record.webhook_id),
        "webhook_id": {"S": record.webhook_id},
        "url": {"S": record.url},
        "events": {"L": [{"S": e} for e in record.events]},
        "secret": {"S": record.secret},
        "created_at": {"S": record.created_at},
        "consecutive_failures": {"N": str(record.consecutive_failures)},
        "disabled": {"BOOL": record.disabled},
    }


def _optional(item: dict[str, Any], name: str) -> str | None:
    value = item.get(name)
    return None if value is None else str(value.get("S", value.get("N")))


def webhook_from_item(item: dict[str, Any]) -> WebhookRecord:
    return WebhookRecord(
        webhook_id=item["webhook_id"]["S"],
        player_id=item["pk"]["S"].removeprefix("PLAYER#"),
        url=item["url"]["S"],
        events=tuple(e["S"] for e in item["events"]["L"]),
        secret=item["secret"]["S"],
        created_at=item["created_at"]["S"],
        consecutive_failures=int(item.get("consecutive_failures", {"N": "0"})["N"]),
        disabled=bool(item.get("disabled", {"BOOL": False})["BOOL"]),
        disabled_at=_optional(item, "disabled_at"),
        last_delivery_at=_optional(item, "last_delivery_at"),
        last_status=_optional(item, "last_status"),
    )


def attempt_item(attempt: DeliveryAttempt, expires_at: int) -> dict[str, Any]:
    item: dict[str, Any] = {
        "pk": {"S": f"WEBHOOK#{attempt.webhook_id}"},
        # Time first, so a descending query lists the newest attempts; the rest keeps keys unique.
        "sk": {"S": f"ATTEMPT#{attempt.attempted_at}#{attempt.delivery_id}#{attempt.attempt:03d}"},
        "delivery_id": {"S": attempt.delivery_id},
        "event_id": {"S": attempt.event_id},
        "event_type": {"S": attempt.event_type},
        "attempt": {"N": str(attempt.attempt)},
        "attempted_at": {"S": attempt.attempted_at},
        "outcome": {"S": attempt.outcome},
        "status": {"S": attempt.status},
        "expires_at": {"N": str(expires_at)},
    }
    if attempt.latency_ms is not None:
        item["latency_ms"] = {"N": str(attempt.latency_ms)}
    if attempt.next_retry_at is not None:
        item["next_retry_at"] = {"S": attempt.next_retry_at}
    return item


def attempt_from_item(item: dict[str, Any]) -> DeliveryAttempt:
    latency = item.get("latency_ms")
    outcome: Any = item["outcome"]["S"]
    return DeliveryAttempt(
        webhook_id=item["pk"]["S"].removeprefix("WEBHOOK#"),
        delivery_id=item["delivery_id"]["S"],
        event_id=item["event_id"]["S"],
        event_type=item["event_type"]["S"],
        attempt=int(item["attempt"]["N"]),
        attempted_at=item["attempted_at"]["S"],
        outcome=outcome,
        status=item["status"]["S"],
        latency_ms=None if latency is None else int(latency["N"]),
        next_retry_at=_optional(item, "next_retry_at"),
    )
