"""The webhook routes: subscribe (secret shown once), list with health, delete, rotate, deliveries."""

from __future__ import annotations

import ipaddress

import pytest

from app import bootstrap
from app.webhooks import ssrf
from app.webhooks.records import DeliveryAttempt

from ..client import Client, call

HOOK = "https://hooks.example.com/dixit"


@pytest.fixture(autouse=True)
def public_dns(monkeypatch: pytest.MonkeyPatch) -> None:
    """No DNS here: every name resolves to one public address unless a test says otherwise."""
    monkeypatch.setattr(ssrf, "system_resolver", _public_dns)


def _public_dns(host: str, port: int) -> list[str]:
    try:
        return [str(ipaddress.ip_address(host))]  # a literal resolves to itself, as getaddrinfo does
    except ValueError:
        return ["93.184.215.14"]


def subscribe(player: Client, url: str = HOOK, events: list[str] | None = None) -> dict[str, object]:
    reply = player.post("/players/me/webhooks", {"url": url, "events": events or ["turn.owed"]})
    assert reply.status == 201, reply.raw
    body: dict[str, object] = reply.body
    return body


def refusal(player: Client, url: str, events: list[str] | None = None) -> tuple[int, str]:
    reply = player.post("/players/me/webhooks", {"url": url, "events": events or ["turn.owed"]})
    assert reply.headers["Content-Type"] == "application/problem+json"
    return reply.status, reply.body["code"]


def test_subscribing_shows_the_secret_once_and_listing_shows_health_but_never_the_secret(
    players: list[Client],
) -> None:
    created = subscribe(players[0], events=["turn.owed", "round.revealed", "turn.owed"])
    assert str(created["secret"]).startswith("whsec_")
    assert created["events"] == ["turn.owed", "round.revealed"]
    listed = players[0].get("/players/me/webhooks")
    assert listed.status == 200
    [webhook] = listed.body["webhooks"]
    assert "secret" not in webhook
    assert str(created["secret"]) not in listed.raw
    assert webhook["webhook_id"] == created["webhook_id"]
    assert webhook["health"] == {
        "consecutive_failures": 0, "disabled": False, "disabled_at": None, "last_delivery_at": None,
        "last_status": None,
    }  # fmt: skip
    assert players[1].get("/players/me/webhooks").body == {"webhooks": []}


def test_a_player_may_have_five_webhooks_and_deleting_one_frees_its_slot(players: list[Client]) -> None:
    ids = [subscribe(players[0])["webhook_id"] for _ in range(5)]
    assert refusal(players[0], HOOK) == (409, "webhook_limit_reached")
    deleted = call("DELETE", f"/players/me/webhooks/{ids[0]}", headers=players[0].auth())
    assert deleted.status == 204
    subscribe(players[0])
    assert len(players[0].get("/players/me/webhooks").body["webhooks"]) == 5


@pytest.mark.parametrize(
    ("url", "status", "code"),
    [
        ("http://hooks.example.com/", 422, "webhook_url_not_https"),
        ("https://hooks.example.com/" + "x" * 2030, 422, "webhook_url_too_long"),
        ("https://169.254.169.254/latest/meta-data/", 422, "webhook_url_forbidden_address"),
        ("https://[fd00:ec2::254]/", 422, "webhook_url_forbidden_address"),
        ("https://0x7f000001/", 422, "webhook_url_invalid"),
        ("https://me:pw@hooks.example.com/", 422, "webhook_url_has_credentials"),
    ],
)
def test_unsafe_or_malformed_urls_are_refused_with_a_stable_code(
    players: list[Client], url: str, status: int, code: str
) -> None:
    assert refusal(players[0], url) == (status, code)
    assert players[0].get("/players/me/webhooks").body == {"webhooks": []}


def test_a_name_that_resolves_to_loopback_is_refused(
    players: list[Client], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ssrf, "system_resolver", _real_resolver)  # /etc/hosts: localhost is 127.0.0.1
    assert refusal(players[0], "https://localhost/hook") == (422, "webhook_url_forbidden_address")


def _real_resolver(host: str, port: int) -> list[str]:
    import socket

    return [str(info[4][0]) for info in socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)]


def test_unknown_or_missing_event_types_are_refused(players: list[Client]) -> None:
    assert refusal(players[0], HOOK, ["turn.owed", "hand.dealt"]) == (422, "webhook_unknown_event")
    reply = players[0].post("/players/me/webhooks", {"url": HOOK, "events": []})
    assert (reply.status, reply.body["code"]) == (422, "webhook_no_events")


def test_rotating_the_secret_returns_a_new_one_and_the_old_one_stops_being_used(
    players: list[Client],
) -> None:
    created = subscribe(players[0])
    rotated = players[0].post(f"/players/me/webhooks/{created['webhook_id']}/rotate-secret")
    assert rotated.status == 200, rotated.raw
    assert rotated.body["secret"] != created["secret"]
    assert rotated.headers["Cache-Control"] == "no-store"  # shown once: no cache keeps it
    stored = bootstrap.services().webhooks.get_webhook(players[0].player_id, str(created["webhook_id"]))
    assert stored is not None
    assert stored.secret == rotated.body["secret"]


def test_deliveries_list_the_newest_attempts_first_with_status_latency_and_next_retry(
    players: list[Client],
) -> None:
    created = subscribe(players[0])
    store = bootstrap.services().webhooks
    for n, (outcome, status, retry) in enumerate(
        [("failed", "500", "2026-11-30T12:00:45.000+00:00"), ("delivered", "200", None)], start=1
    ):
        attempt = DeliveryAttempt(
            str(created["webhook_id"]), "dlv_1", "evt_1", "turn.owed", n, f"2026-11-30T12:0{n}:00.000+00:00",
            outcome, status, 40 * n, retry,  # type: ignore[arg-type]
        )  # fmt: skip
        store.put_delivery_attempt(attempt, expires_at=1_900_000_000)
    reply = players[0].get(f"/players/me/webhooks/{created['webhook_id']}/deliveries")
    assert reply.status == 200, reply.raw
    rows = [
        (d["attempt"], d["outcome"], d["status"], d["latency_ms"], d["next_retry_at"])
        for d in reply.body["deliveries"]
    ]
    assert rows == [
        (2, "delivered", "200", 80, None),
        (1, "failed", "500", 40, "2026-11-30T12:00:45.000+00:00"),
    ]  # fmt: skip


@pytest.mark.parametrize("webhook_id", ["wh_0000000000000000", "nope", "wh_ZZZ"])
def test_unknown_webhooks_and_other_players_webhooks_are_not_found(
    players: list[Client], webhook_id: str
) -> None:
    theirs = str(subscribe(players[1])["webhook_id"])
    for target in (webhook_id, theirs):
        for method, suffix in (("DELETE", ""), ("POST", "/rotate-secret"), ("GET", "/deliveries")):
            reply = call(method, f"/players/me/webhooks/{target}{suffix}", headers=players[0].auth())
            assert (reply.status, reply.body["code"]) == (404, "webhook_not_found"), (method, target)
    assert len(players[1].get("/players/me/webhooks").body["webhooks"]) == 1


def test_webhook_routes_need_a_token(aws: None) -> None:
    assert call("GET", "/players/me/webhooks").status == 401
    assert call("POST", "/players/me/webhooks", body={"url": HOOK, "events": ["turn.owed"]}).status == 401


def test_a_new_webhook_answers_where_it_lives_and_that_address_shows_it_without_its_secret(
    players: list[Client],
) -> None:
    owner, other = players[0], players[1]
    made = owner.post("/players/me/webhooks", {"url": HOOK, "events": ["turn.owed"]})
    assert made.status == 201, made.raw
    assert made.headers["Cache-Control"] == "no-store"
    where = made.headers["Location"]
    assert where == f"/players/me/webhooks/{made.body['webhook_id']}"

    shown = owner.get(where)
    assert shown.status == 200
    assert shown.body["webhook_id"] == made.body["webhook_id"]
    assert "secret" not in shown.body
    assert other.get(where).status == 404
