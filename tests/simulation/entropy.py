"""The season's only source of chance: one seeded stream where the app would draw from `secrets`.

Game ids, game seeds, player ids, tokens, invite codes and request ids all come from `secrets` in the
app, so two seasons with one seed dealt different decks and ordered the due index differently (two runs
of 50 games ended 26 and 23 abandoned). While a season runs, every imported `app`/`handlers` module that
holds the `secrets` module holds a `SeededSecrets` instead; the first season's ids are then the second's.
"""

from __future__ import annotations

import base64
import importlib
import random
import secrets
import sys
from collections.abc import Iterator
from contextlib import contextmanager

# Imported before patching: a module imported later would keep the real `secrets`.
MODULES = ("handlers.api", "handlers.sweep", "handlers.game_stream", "app.flows.sweep", "app.games.play")


class SeededSecrets:
    """The part of the `secrets` module the app uses, drawn from `random.Random(seed)`."""

    compare_digest = staticmethod(secrets.compare_digest)

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(f"simulation-entropy:{seed}")

    def token_bytes(self, nbytes: int | None = None) -> bytes:
        return self._rng.randbytes(32 if nbytes is None else nbytes)

    def token_hex(self, nbytes: int | None = None) -> str:
        return self.token_bytes(nbytes).hex()

    def token_urlsafe(self, nbytes: int | None = None) -> str:
        return base64.urlsafe_b64encode(self.token_bytes(nbytes)).rstrip(b"=").decode("ascii")

    def randbits(self, k: int) -> int:
        return self._rng.getrandbits(k)

    def randbelow(self, exclusive_upper_bound: int) -> int:
        return self._rng.randrange(exclusive_upper_bound)

    def choice(self, seq: list[object]) -> object:
        return self._rng.choice(seq)


@contextmanager
def seeded_secrets(seed: int) -> Iterator[SeededSecrets]:
    for name in MODULES:
        importlib.import_module(name)
    shim = SeededSecrets(seed)
    patched = [
        module
        for name, module in sorted(sys.modules.items())
        if name.split(".")[0] in ("app", "handlers") and getattr(module, "secrets", None) is secrets
    ]
    for module in patched:
        module.secrets = shim  # type: ignore[attr-defined]
    try:
        yield shim
    finally:
        for module in patched:
            module.secrets = secrets  # type: ignore[attr-defined]
