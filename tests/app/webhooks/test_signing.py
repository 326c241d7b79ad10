"""The Dixit-Signature header, and the verification snippet of docs/webhooks.md checked against it."""

from __future__ import annotations

import re
import time
from pathlib import Path

from app.webhooks.signing import REPLAY_WINDOW_SECONDS, sign, verify

WEBHOOKS_DOC = Path(__file__).resolve().parents[3] / "docs" / "webhooks.md"
SECRET = "whsec_test"
BODY = b'{"type":"turn.owed","you_owe":true}'


def readme_verify():  # type: ignore[no-untyped-def]
    text = WEBHOOKS_DOC.read_text(encoding="utf-8")
    match = re.search(r"<!-- webhook-verify -->\n```python\n(.*?)```", text, re.DOTALL)
    assert match is not None
    assert len(match.group(1).strip().splitlines()) <= 10
    namespace: dict[str, object] = {}
    exec(match.group(1), namespace)  # noqa: S102  (our own docs)
    return namespace["verify"]


def test_a_signature_verifies_with_its_secret_and_body_within_the_replay_window() -> None:
    header = sign(SECRET, 1_800_000_000, BODY)
    assert re.fullmatch(r"t=1800000000,v1=[0-9a-f]{64}", header)
    assert verify(SECRET, header, BODY, now=1_800_000_000 + REPLAY_WINDOW_SECONDS)
    assert verify(SECRET, header, BODY, now=1_800_000_000 - REPLAY_WINDOW_SECONDS)
    assert not verify(SECRET, header, BODY, now=1_800_000_000 + REPLAY_WINDOW_SECONDS + 1)
    assert not verify("whsec_other", header, BODY, now=1_800_000_000)
    assert not verify(SECRET, header, BODY + b" ", now=1_800_000_000)
    assert not verify(SECRET, header.replace("t=1800000000", "t=1800000100"), BODY, now=1_800_000_100)
    assert not verify(SECRET, "v1=" + header.split("v1=")[1], BODY, now=1_800_000_000)


def test_the_readme_snippet_accepts_a_fresh_signature_and_refuses_a_stale_or_forged_one() -> None:
    readme = readme_verify()
    now = int(time.time())
    assert readme(SECRET, sign(SECRET, now, BODY), BODY)
    assert not readme(SECRET, sign(SECRET, now - REPLAY_WINDOW_SECONDS - 60, BODY), BODY)
    assert not readme(SECRET, sign("whsec_forged", now, BODY), BODY)
    assert not readme(SECRET, "t=soon,v1=00", BODY)
