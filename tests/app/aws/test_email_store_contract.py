"""What every EmailStore adapter promises, on DynamoDB (moto) and in memory alike: one code per player and
per address, codes used once and worn out by wrong tries, an address owned by one player at most (claimed
in the same write as the profile), and limit windows that never count past their limit."""

from __future__ import annotations

from typing import Any

import pytest

from app.core.records import PlayerRecord
from app.players.ports import CodeKey, Confirmed, EmailStore, PendingCode

STAMP = "2026-03-01T12:00:00.000+00:00"
NOW = 1_772_366_400
ADA, BOB = "p_ada", "p_bob"
A, B = "a" * 64, "b" * 64  # address ids


@pytest.fixture
def emails(store: Any) -> EmailStore:
    result: EmailStore = store
    return result


def code(code_hash: str = "h1", email: str = "ada@example.com", **changes: Any) -> PendingCode:
    return PendingCode(code_hash, changes.pop("expires_at", NOW + 600), email=email, **changes)


def profile(store: Any, player_id: str) -> PlayerRecord:
    found: PlayerRecord = store.get_player(player_id)
    return found


@pytest.fixture
def players(store: Any) -> None:
    store.create_player(PlayerRecord(ADA, "Ada", "", STAMP, STAMP))
    store.create_player(PlayerRecord(BOB, "Bob", "", STAMP, STAMP))


def test_a_verification_code_is_kept_and_its_address_shown_pending_on_the_profile(
    store: Any, emails: EmailStore, players: None
) -> None:
    assert emails.verification(ADA) is None
    assert emails.start_verification(ADA, code())
    assert emails.verification(ADA) == code()
    assert (profile(store, ADA).email, profile(store, ADA).pending_email) == ("", "ada@example.com")
    assert emails.start_verification(ADA, code("h2", "ada@new.example"))
    assert emails.verification(ADA) == code("h2", "ada@new.example")
    assert not emails.start_verification("p_nobody", code())


def test_confirming_claims_the_address_uses_the_code_and_frees_the_address_before(
    store: Any, emails: EmailStore, players: None
) -> None:
    emails.start_verification(ADA, code())
    assert emails.confirm_email(ADA, code(), address=A, previous="", max_attempts=5) is Confirmed.DONE
    assert emails.owner_of(A) == ADA
    assert (profile(store, ADA).email, profile(store, ADA).pending_email) == ("ada@example.com", "")
    assert emails.verification(ADA) is None
    # Used once: the same code again finds nothing.
    assert emails.confirm_email(ADA, code(), address=A, previous="", max_attempts=5) is Confirmed.GONE

    emails.start_verification(ADA, code("h2", "ada@new.example"))
    assert profile(store, ADA).email == "ada@example.com"  # the old address stays until the new is confirmed
    assert (
        emails.confirm_email(ADA, code("h2", "ada@new.example"), address=B, previous=A, max_attempts=5)
        is Confirmed.DONE
    )
    assert (emails.owner_of(A), emails.owner_of(B)) == (None, ADA)
    assert profile(store, ADA).email == "ada@new.example"


def test_an_address_another_player_confirmed_is_taken_and_nothing_changes(
    store: Any, emails: EmailStore, players: None
) -> None:
    emails.start_verification(ADA, code())
    emails.confirm_email(ADA, code(), address=A, previous="", max_attempts=5)
    emails.start_verification(BOB, code("hb"))
    assert emails.confirm_email(BOB, code("hb"), address=A, previous="", max_attempts=5) is Confirmed.TAKEN
    assert emails.owner_of(A) == ADA
    assert profile(store, BOB).email == ""
    assert emails.verification(BOB) == code("hb")


def test_a_replaced_or_worn_out_code_confirms_nothing(store: Any, emails: EmailStore, players: None) -> None:
    emails.start_verification(ADA, code())
    emails.start_verification(ADA, code("h2"))
    assert emails.confirm_email(ADA, code(), address=A, previous="", max_attempts=5) is Confirmed.GONE
    for _ in range(7):
        emails.count_wrong_code(CodeKey("verify", ADA), "h2", max_attempts=5)
    assert emails.verification(ADA) == code("h2", attempts=5)
    assert emails.confirm_email(ADA, code("h2"), address=A, previous="", max_attempts=5) is Confirmed.GONE
    assert emails.owner_of(A) is None


def test_a_sign_in_code_is_one_per_address_used_once_and_only_while_alive(emails: EmailStore) -> None:
    assert emails.sign_in_code(A) is None
    emails.put_sign_in_code(A, code(email=""))
    emails.put_sign_in_code(A, code("h2", email=""))
    assert emails.sign_in_code(A) == code("h2", email="")
    assert not emails.use_sign_in_code(A, "h1", now=NOW, max_attempts=5)
    assert not emails.use_sign_in_code(A, "h2", now=NOW + 600, max_attempts=5)  # expired
    assert not emails.use_sign_in_code(B, "h2", now=NOW, max_attempts=5)
    assert emails.use_sign_in_code(A, "h2", now=NOW, max_attempts=5)
    assert not emails.use_sign_in_code(A, "h2", now=NOW, max_attempts=5)
    assert emails.sign_in_code(A) is None


def test_wrong_tries_count_only_against_the_code_they_were_made_on(emails: EmailStore) -> None:
    emails.put_sign_in_code(A, code(email=""))
    emails.count_wrong_code(CodeKey("sign_in", A), "h1", max_attempts=5)
    emails.count_wrong_code(CodeKey("sign_in", A), "other", max_attempts=5)
    assert emails.sign_in_code(A) == code(email="", attempts=1)
    for _ in range(6):
        emails.count_wrong_code(CodeKey("sign_in", A), "h1", max_attempts=5)
    assert emails.sign_in_code(A) == code(email="", attempts=5)
    assert not emails.use_sign_in_code(A, "h1", now=NOW, max_attempts=5)
    emails.count_wrong_code(CodeKey("sign_in", B), "h1", max_attempts=5)  # no code: nothing is created
    assert emails.sign_in_code(B) is None


def test_a_limit_window_counts_up_to_its_limit_per_scope_key_and_window(emails: EmailStore) -> None:
    claims = [emails.claim_slot("s", "k", window=7, limit=3, expires_at=NOW) for _ in range(5)]
    assert claims == [True, True, True, False, False]
    assert emails.claim_slot("s", "other", window=7, limit=3, expires_at=NOW)
    assert emails.claim_slot("t", "k", window=7, limit=3, expires_at=NOW)
    assert emails.claim_slot("s", "k", window=8, limit=3, expires_at=NOW)
