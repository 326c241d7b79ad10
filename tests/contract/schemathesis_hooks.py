"""Schemathesis hooks (SCHEMATHESIS_HOOKS=contract.schemathesis_hooks): a new player for every test case.

One shared token would not survive the run: a case may rotate or revoke it, and an Idempotency-Key
generated twice with two bodies would be a reuse (422) only because the cases shared a player.
"""

from __future__ import annotations

import json
import os
import urllib.request
from typing import Any

import schemathesis


@schemathesis.auth(refresh_interval=None)
class FreshPlayer:
    def get(self, case: Any, context: Any) -> str:
        request = urllib.request.Request(
            os.environ["DIXIT_API"] + "/players",
            data=json.dumps({"name": "Schemathesis"}).encode(),
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(request, timeout=30) as response:
            token: str = json.load(response)["token"]
        return token

    def set(self, case: Any, data: str, context: Any) -> None:
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {data}"}
