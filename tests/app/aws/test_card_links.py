"""Card image links: what botocore would sign, stable within a window, and saying nothing of players.

The links are signed with the session's credentials through public APIs, refreshed when a role's rotate.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import botocore.session
import pytest
from botocore.credentials import CredentialProvider, RefreshableCredentials

from app.aws import clients as aws_clients
from app.aws.s3 import S3ObjectStore
from app.decks.card_images import CardImages, image_key

WINDOW = 3_600
SRC = Path(__file__).resolve().parents[3] / "src"


@pytest.fixture(autouse=True)
def credentials(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "AKIDEXAMPLE")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "secret")
    monkeypatch.delenv("AWS_SESSION_TOKEN", raising=False)
    monkeypatch.delenv("AWS_ENDPOINT_URL", raising=False)
    aws_clients.reset()
    yield
    aws_clients.reset()  # no later test inherits a session of these credentials


@pytest.fixture
def store() -> S3ObjectStore:
    return S3ObjectStore(session_in("eu-west-1"))


def freeze_botocore(monkeypatch: pytest.MonkeyPatch, moment: datetime) -> None:
    monkeypatch.setattr("botocore.auth.get_current_datetime", lambda *a, **k: moment.replace(tzinfo=None))


def botocore_link(store: S3ObjectStore, bucket: str, card_id: str, expires_in: int) -> str:
    params = {"Bucket": bucket, "Key": image_key(card_id)}
    return store.client.generate_presigned_url("get_object", Params=params, ExpiresIn=expires_in)


def assert_same_link(theirs: str, ours: str) -> None:
    a, b = urlsplit(theirs), urlsplit(ours)
    assert (a.scheme, a.netloc, a.path) == (b.scheme, b.netloc, b.path)
    assert parse_qs(a.query) == parse_qs(b.query)


def query_of(url: str | None) -> dict[str, list[str]]:
    return parse_qs(urlsplit(url or "").query)


def test_no_module_reads_botocore_private_signer() -> None:
    offenders = [
        str(path.relative_to(SRC)) for path in SRC.rglob("*.py") if "_request_signer" in path.read_text()
    ]
    assert offenders == []


@pytest.mark.parametrize("token", [None, "IQoJb3JpZ2luX2VjEXAMPLE/+token="])
def test_a_link_is_exactly_what_botocore_signs_at_the_same_moment(
    token: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    if token:
        monkeypatch.setenv("AWS_SESSION_TOKEN", token)  # a role's temporary credentials, as in Lambda
    store = S3ObjectStore(session_in("eu-west-1"))
    moment = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
    freeze_botocore(monkeypatch, moment)
    theirs = botocore_link(store, "cards-bucket", "base-007", 7200)
    ours = store.link(
        "cards-bucket", image_key("base-007"), signed_at=int(moment.timestamp()), expires_in=7200
    )
    assert_same_link(theirs, ours)
    assert query_of(ours).get("X-Amz-Security-Token") == ([token] if token else None)


def test_a_card_link_is_what_botocore_signs_at_the_window_start_for_the_window_and_ttl(
    store: S3ObjectStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    start = 1_700_000_000 // WINDOW * WINDOW
    images = CardImages("b", 600, store, window_seconds=WINDOW, clock=lambda: start + 1_234.5)
    freeze_botocore(monkeypatch, datetime.fromtimestamp(start, UTC))
    assert_same_link(botocore_link(store, "b", "base-001", WINDOW + 600), images.url_for("base-001") or "")


def test_links_stay_the_same_within_a_window_and_change_with_the_next(store: S3ObjectStore) -> None:
    now = [1_700_000_000.0]
    images = CardImages("b", 600, store, window_seconds=WINDOW, clock=lambda: now[0])
    start = now[0] // WINDOW * WINDOW
    now[0] = start + 1
    first = images.url_for("base-001")
    now[0] = start + WINDOW - 1
    assert images.url_for("base-001") == first
    now[0] = start + WINDOW
    assert images.url_for("base-001") != first


def test_a_link_outlives_its_window_by_the_ttl(store: S3ObjectStore) -> None:
    images = CardImages("b", 600, store, window_seconds=WINDOW, clock=lambda: 1_700_000_123.0)
    query = query_of(images.url_for("base-001"))
    signed = datetime.strptime(query["X-Amz-Date"][0], "%Y%m%dT%H%M%SZ").replace(tzinfo=UTC).timestamp()
    assert signed % WINDOW == 0
    assert signed + int(query["X-Amz-Expires"][0]) >= 1_700_000_123 + 600


def test_with_a_base_url_official_art_is_unsigned_and_custom_decks_stay_presigned(
    store: S3ObjectStore,
) -> None:
    images = CardImages("b", 600, store, base_url="https://cdn.example.com/")
    assert images.url_for("base-003") == f"https://cdn.example.com/{image_key('base-003')}"
    assert "X-Amz-Signature" in (images.url_for("d0123456789abcdef-003") or "")


def test_with_no_bucket_there_is_no_link_and_no_store_is_needed() -> None:
    assert CardImages("", 600).url_for("d0123456789abcdef-003") is None


class Role(CredentialProvider):
    """A role's credentials as STS hands them out: each set lasts an hour, the next has a new access key."""

    METHOD = "test-role"

    def __init__(self, clock: Any) -> None:
        self.clock = clock
        self.issued = 0

    def _next(self) -> dict[str, str]:
        self.issued += 1
        return {
            "access_key": f"ASIAROLE{self.issued:04d}",
            "secret_key": f"secret-{self.issued}",
            "token": f"token-{self.issued}",
            "expiry_time": (self.clock() + timedelta(hours=1)).isoformat(),
        }

    def load(self) -> RefreshableCredentials:
        first = self._next()
        return RefreshableCredentials(
            first["access_key"],
            first["secret_key"],
            first["token"],
            datetime.fromisoformat(first["expiry_time"]),
            refresh_using=self._next,
            method=self.METHOD,
            time_fetcher=self.clock,
        )


def session_in(region: str) -> botocore.session.Session:
    core = botocore.session.get_session()
    core.set_config_variable("region", region)
    return core


def session_of(role: Role) -> botocore.session.Session:
    core = session_in("eu-west-1")
    core.get_component("credential_provider").insert_before("env", role)
    return core


def access_key_of(url: str | None) -> str:
    return query_of(url)["X-Amz-Credential"][0].split("/")[0]


def test_rotated_credentials_sign_the_next_links_and_the_memo_of_the_old_ones_is_dropped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    now = [datetime(2026, 11, 30, 9, 0, tzinfo=UTC)]
    role = Role(lambda: now[0])
    store = S3ObjectStore(session_of(role))
    start = 1_700_000_000 // WINDOW * WINDOW
    images = CardImages("b", 600, store, window_seconds=WINDOW, clock=lambda: start + 10.0)
    first = images.url_for("base-001")
    assert access_key_of(first) == "ASIAROLE0001"
    assert images.url_for("base-001") == first  # memoized while the credentials last
    now[0] += timedelta(minutes=55)  # within botocore's refresh period: the next signing refreshes
    second = images.url_for("base-001")
    assert (access_key_of(second), role.issued) == ("ASIAROLE0002", 2)
    assert query_of(second)["X-Amz-Security-Token"] == ["token-2"]
    assert second != first
    # Still exactly what botocore, on the same rotated credentials, signs.
    freeze_botocore(monkeypatch, datetime.fromtimestamp(start, UTC))
    assert_same_link(botocore_link(store, "b", "base-001", WINDOW + 600), second or "")


def test_the_session_is_kept_with_the_clients_and_forgotten_with_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    store = S3ObjectStore()  # app.aws.clients' session and client
    assert store.signer().access_key == "AKIDEXAMPLE"
    assert aws_clients.session() is aws_clients.session()
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "AKIDROTATED")
    assert store.signer().access_key == "AKIDEXAMPLE"  # loaded once per session
    aws_clients.reset()
    assert store.signer().access_key == "AKIDROTATED"


def test_a_client_made_after_a_reset_drops_the_memo_of_the_old_endpoint(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("AWS_DEFAULT_REGION", "eu-west-1")
    images = CardImages("b", 600, S3ObjectStore(), window_seconds=WINDOW, clock=lambda: 1_700_000_000.0)
    monkeypatch.setenv("AWS_ENDPOINT_URL", "http://127.0.0.1:4001")
    aws_clients.reset()
    assert urlsplit(images.url_for("base-001")).netloc == "127.0.0.1:4001"
    monkeypatch.setenv("AWS_ENDPOINT_URL", "http://127.0.0.1:4002")
    aws_clients.reset()
    assert urlsplit(images.url_for("base-001")).netloc == "127.0.0.1:4002"
