"""The email channel's stores (send claims, suppressions, digest index) on moto and in memory alike."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from app.aws.dynamodb.mail_ledger import DynamoDigestIndex, DynamoMailLedger
from app.notify.email.digest_schedule import DIGEST_SHARDS, digest_shard
from app.notify.email.ports import DigestEntry
from tests.fakes.mail_ledger import MemoryDigestIndex, MemoryMailLedger
from tests.support.aws import TABLE, empty_table, forget_clients_and_settings, set_environment

WINDOW = 12 * 3_600
T0 = 1_780_000_000


@pytest.fixture(params=["memory", "dynamodb"])
def stores(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Any, Any]]:
    set_environment(monkeypatch)
    if request.param == "memory":
        yield MemoryMailLedger(), MemoryDigestIndex()
    else:
        request.getfixturevalue("_moto")
        yield DynamoMailLedger(TABLE), DynamoDigestIndex(TABLE)
        empty_table()
    forget_clients_and_settings()


def test_a_slot_goes_to_one_mail_per_window_and_frees_up_after_it(stores: tuple[Any, Any]) -> None:
    ledger, _ = stores
    assert ledger.claim_mail("p1", "TURN#g1", "a", now=T0, window_seconds=WINDOW)
    ledger.mark_mail_sent("p1", "TURN#g1", "a")
    assert not ledger.claim_mail("p1", "TURN#g1", "b", now=T0 + WINDOW - 1, window_seconds=WINDOW)
    assert ledger.claim_mail("p1", "TURN#g2", "b", now=T0 + 1, window_seconds=WINDOW)  # another game
    assert ledger.claim_mail("p2", "TURN#g1", "b", now=T0 + 1, window_seconds=WINDOW)  # another player
    assert ledger.claim_mail("p1", "TURN#g1", "c", now=T0 + WINDOW, window_seconds=WINDOW)


def test_a_replay_of_a_sent_mail_finds_its_slot_taken_and_a_failed_one_takes_it_again(
    stores: tuple[Any, Any],
) -> None:
    ledger, _ = stores
    assert ledger.claim_mail("p1", "ONCE#x", "x", now=T0, window_seconds=WINDOW)
    # The send failed before it was marked: the same mail's retry may try again, another may not.
    assert not ledger.claim_mail("p1", "ONCE#x", "y", now=T0 + 5, window_seconds=WINDOW)
    assert ledger.claim_mail("p1", "ONCE#x", "x", now=T0 + 5, window_seconds=WINDOW)
    ledger.mark_mail_sent("p1", "ONCE#x", "x")
    assert not ledger.claim_mail("p1", "ONCE#x", "x", now=T0 + 6, window_seconds=WINDOW)


def test_a_released_slot_is_free_for_the_next_mail(stores: tuple[Any, Any]) -> None:
    ledger, _ = stores
    assert ledger.claim_mail("p1", "TURN#g1", "a", now=T0, window_seconds=WINDOW)
    ledger.release_mail("p1", "TURN#g1", "a")
    assert ledger.claim_mail("p1", "TURN#g1", "b", now=T0 + 1, window_seconds=WINDOW)
    ledger.mark_mail_sent("p1", "TURN#g1", "b")
    ledger.release_mail("p1", "TURN#g1", "b")  # a sent mail's slot is never given back
    assert not ledger.claim_mail("p1", "TURN#g1", "c", now=T0 + 2, window_seconds=WINDOW)


def test_a_suppressed_address_is_known_whatever_its_case(stores: tuple[Any, Any]) -> None:
    ledger, _ = stores
    assert not ledger.address_suppressed("ann@example.com")
    ledger.suppress_address("Ann@Example.com", reason="BOUNCE", at="2026-03-01T12:00:00Z")
    assert ledger.address_suppressed("ann@example.com")
    assert not ledger.address_suppressed("bob@example.com")


def test_the_digest_index_files_a_player_under_one_hour_and_moves_them(stores: tuple[Any, Any]) -> None:
    _, index = stores
    shard = digest_shard("p1")
    index.put_digest(DigestEntry("p1", "Europe/Paris", 8, 7))
    assert index.due_digests(7, shard) == [DigestEntry("p1", "Europe/Paris", 8, 7)]
    index.put_digest(DigestEntry("p1", "Europe/Paris", 8, 6))  # summer time
    assert index.due_digests(7, shard) == []
    assert index.due_digests(6, shard) == [DigestEntry("p1", "Europe/Paris", 8, 6)]
    assert all(index.due_digests(6, other) == [] for other in range(DIGEST_SHARDS) if other != shard)
    index.remove_digest("p1")
    index.remove_digest("p1")
    assert index.due_digests(6, shard) == []
