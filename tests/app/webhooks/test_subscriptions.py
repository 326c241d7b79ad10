"""app.webhooks.subscriptions: subscribing (public https only), the per-player limit, rotating, deleting."""

from __future__ import annotations

import ipaddress
from dataclasses import replace
from typing import Any

import pytest

from app.core.errors import Conflict, NotFound
from app.core.records import PlayerRecord
from app.core.settings import AppSettings
from app.players import accounts
from app.services import Services
from app.webhooks import ssrf, subscriptions
from app.webhooks.records import DeliveryAttempt, WebhookRecord
from app.webhooks.ssrf import UnsafeUrl
from app.webhooks.subscriptions import WebhookRefused
from tests.support.clock import Clock

HOOK = "https://hooks.example.com/dixit"
# What the stand-in DNS answers; any other name resolves to one public address.
DNS = {
    "intranet.example.com": ["10.1.2.3"],
    "sneaky.example.com": ["93.184.215.14", "192.168.0.7"],
    "metadata.example.com": ["169.254.169.254"],
    "nowhere.example.com": [],
}


@pytest.fixture(autouse=True)
def dns(monkeypatch: pytest.MonkeyPatch) -> None:
    """No DNS here: names resolve as DNS says, literals to themselves (as getaddrinfo does)."""

    def resolve(host: str, port: int) -> list[str]:
        try:
            return [str(ipaddress.ip_address(host))]
        except ValueError:
            return DNS.get(host, ["93.184.215.14"])

    monkeypatch.setattr(ssrf, "system_resolver", resolve)


@pytest.fixture
def ada(services: Services) -> PlayerRecord:
    return accounts.register(services, "Ada")[0]


def subscribe(services: Services, player: PlayerRecord) -> WebhookRecord:
    return subscriptions.subscribe(services, player, HOOK, ["turn.owed"])[0]


def ids(records: list[WebhookRecord]) -> list[str]:
    return [r.webhook_id for r in records]


def test_subscribing_stores_the_url_and_each_event_once_and_shows_the_secret_it_signs_with(
    services: Services, ada: PlayerRecord
) -> None:
    record, secret = subscriptions.subscribe(
        services, ada, HOOK, ["turn.owed", "round.revealed", "turn.owed"]
    )
    assert secret.startswith("whsec_")
    assert (record.player_id, record.url, record.secret) == (ada.player_id, HOOK, secret)
    assert record.events == ("turn.owed", "round.revealed")
    assert record.created_at == services.now_iso()
    assert services.webhooks.get_webhook(ada.player_id, record.webhook_id) == record
    assert subscriptions.webhook_of(services, ada, record.webhook_id) == record


@pytest.mark.parametrize(
    ("url", "code"),
    [
        ("http://hooks.example.com/", "webhook_url_not_https"),
        ("https://169.254.169.254/latest/meta-data/", "webhook_url_forbidden_address"),
        ("https://metadata.example.com/", "webhook_url_forbidden_address"),
        ("https://127.0.0.1/hook", "webhook_url_forbidden_address"),
        ("https://10.0.0.5/hook", "webhook_url_forbidden_address"),
        ("https://intranet.example.com/hook", "webhook_url_forbidden_address"),
        ("https://sneaky.example.com/hook", "webhook_url_forbidden_address"),  # one private answer is enough
        ("https://[::ffff:10.0.0.1]/", "webhook_url_forbidden_address"),
        ("https://nowhere.example.com/", "webhook_url_unresolvable"),
        ("https://0x7f000001/", "webhook_url_invalid"),
        ("https://me:pw@hooks.example.com/", "webhook_url_has_credentials"),
        ("https://hooks.example.com/" + "x" * 2030, "webhook_url_too_long"),
    ],
)
def test_a_url_that_is_not_public_https_is_refused_and_nothing_is_stored(
    services: Services, ada: PlayerRecord, url: str, code: str
) -> None:
    with pytest.raises(UnsafeUrl) as refused:
        subscriptions.subscribe(services, ada, url, ["turn.owed"])
    assert refused.value.code == code
    assert services.webhooks.list_webhooks(ada.player_id) == []


def test_plain_http_to_this_machine_is_allowed_only_where_the_settings_allow_loopback(
    services: Services, ada: PlayerRecord
) -> None:
    local = "http://127.0.0.1:8080/hook"
    with pytest.raises(UnsafeUrl):
        subscriptions.subscribe(services, ada, local, ["turn.owed"])
    on_the_local_stack = replace(services, settings=AppSettings(webhook_allow_loopback_http=True))
    record, _ = subscriptions.subscribe(on_the_local_stack, ada, local, ["turn.owed"])
    assert ids(services.webhooks.list_webhooks(ada.player_id)) == [record.webhook_id]


@pytest.mark.parametrize(
    ("events", "code"),
    [([], "webhook_no_events"), (["turn.owed", "hand.dealt"], "webhook_unknown_event")],
)
def test_no_events_or_an_unknown_event_is_refused(
    services: Services, ada: PlayerRecord, events: list[str], code: str
) -> None:
    with pytest.raises(WebhookRefused) as refused:
        subscriptions.subscribe(services, ada, HOOK, events)
    assert refused.value.code == code
    assert services.webhooks.list_webhooks(ada.player_id) == []


def test_a_player_may_hold_five_webhooks_and_the_limit_is_each_players_own(services: Services) -> None:
    ada, bob = (accounts.register(services, name)[0] for name in ("Ada", "Bob"))
    made = [subscribe(services, ada) for _ in range(5)]
    with pytest.raises(Conflict) as refused:
        subscribe(services, ada)
    assert refused.value.code == "webhook_limit_reached"
    assert sorted(ids(services.webhooks.list_webhooks(ada.player_id))) == sorted(ids(made))
    subscribe(services, bob)
    assert len(services.webhooks.list_webhooks(bob.player_id)) == 1


def test_unsubscribing_frees_a_slot_and_a_second_unsubscribe_is_not_found(
    services: Services, ada: PlayerRecord
) -> None:
    made = [subscribe(services, ada) for _ in range(5)]
    subscriptions.unsubscribe(services, ada, made[0].webhook_id)
    assert services.webhooks.get_webhook(ada.player_id, made[0].webhook_id) is None
    with pytest.raises(NotFound):
        subscriptions.unsubscribe(services, ada, made[0].webhook_id)
    again = subscribe(services, ada)
    assert sorted(ids(services.webhooks.list_webhooks(ada.player_id))) == sorted(ids([*made[1:], again]))


def test_rotating_the_secret_stores_a_new_one_that_replaces_the_old_at_once(
    services: Services, ada: PlayerRecord
) -> None:
    record, old = subscriptions.subscribe(services, ada, HOOK, ["turn.owed"])
    rotated, new = subscriptions.rotate_secret(services, ada, record.webhook_id)
    assert rotated.webhook_id == record.webhook_id
    assert new.startswith("whsec_")
    assert new != old
    stored = services.webhooks.get_webhook(ada.player_id, record.webhook_id)
    assert stored == replace(record, secret=new)


def test_another_players_webhook_is_not_found_to_show_delete_rotate_or_list_attempts_for(
    services: Services, ada: PlayerRecord
) -> None:
    bob = accounts.register(services, "Bob")[0]
    theirs, secret = subscriptions.subscribe(services, bob, HOOK, ["turn.owed"])
    for use in (
        subscriptions.webhook_of,
        subscriptions.unsubscribe,
        subscriptions.rotate_secret,
        subscriptions.recent_attempts,
    ):
        with pytest.raises(NotFound) as missing:
            use(services, ada, theirs.webhook_id)
        assert missing.value.code == "webhook_not_found", use
    assert services.webhooks.get_webhook(bob.player_id, theirs.webhook_id) == theirs
    assert theirs.secret == secret


class Unreachable:
    """A WebhookStore no call may reach."""

    def __getattr__(self, name: str) -> Any:
        def call(*_: Any, **__: Any) -> Any:
            raise AssertionError(f"the store was asked to {name}")

        return call


@pytest.mark.parametrize(
    "webhook_id", ["", "nope", "wh_ZZZZZZZZZZZZZZZZ", "wh_0123", "../wh_0123456789abcdef"]
)
def test_a_malformed_webhook_id_is_not_found_without_asking_the_store(
    services: Services, ada: PlayerRecord, webhook_id: str
) -> None:
    services = replace(services, webhooks=Unreachable())
    for use in (subscriptions.webhook_of, subscriptions.unsubscribe, subscriptions.rotate_secret):
        with pytest.raises(NotFound):
            use(services, ada, webhook_id)


def test_a_players_webhooks_are_listed_oldest_first(
    services: Services, ada: PlayerRecord, clock: Clock
) -> None:
    # Ids sort the other way round from creation, so the order shown is the use case's own.
    for number in (3, 2, 1):
        created = clock.advance(minutes=1).isoformat(timespec="milliseconds")
        record = WebhookRecord(f"wh_{number:016x}", ada.player_id, HOOK, ("turn.owed",), "whsec_x", created)
        assert services.webhooks.create_webhook(record, max_per_player=5)
    assert ids(subscriptions.webhooks_of(services, ada)) == [f"wh_{n:016x}" for n in (3, 2, 1)]
    assert subscriptions.webhooks_of(services, accounts.register(services, "Bob")[0]) == []


def test_recent_attempts_are_the_webhooks_own_newest_first(services: Services, ada: PlayerRecord) -> None:
    mine, _ = subscriptions.subscribe(services, ada, HOOK, ["turn.owed"])
    other, _ = subscriptions.subscribe(services, ada, HOOK, ["turn.owed"])
    for webhook, minute in ((mine, 1), (other, 2), (mine, 3)):
        attempt = DeliveryAttempt(
            webhook.webhook_id, f"dlv_{minute}", "evt_1", "turn.owed", 1,
            f"2026-03-01T12:0{minute}:00.000+00:00", "delivered", "200",
        )  # fmt: skip
        services.webhooks.put_delivery_attempt(attempt, expires_at=1_900_000_000)
    attempts = subscriptions.recent_attempts(services, ada, mine.webhook_id)
    assert [a.delivery_id for a in attempts] == ["dlv_3", "dlv_1"]
