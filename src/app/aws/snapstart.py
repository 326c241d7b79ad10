"""Lambda SnapStart runtime hooks: what each execution environment restored from one snapshot must redo.

Under SnapStart (template.yaml parameter SnapStart, docs/deploying.md) Lambda runs the init once per
published version, snapshots the memory and resumes every new environment from that copy. Whatever the
init left in memory is then shared by all of them:

- the `random` module's state, seeded from os.urandom at import: every restored environment would draw
  the same retry jitter (app.games.play, app.aws.dynamodb.table) and so retry in lockstep (as would a
  Powertools log sampling rate, were one set). `secrets`, `uuid4` and a fresh `random.Random()` read
  os.urandom when called and stay unique; the rules' RNG is seeded from `secrets` per game.
- the botocore session and clients: credentials resolved before the snapshot may have expired by the
  restore, and pooled connections point at sockets that no longer exist. `clients.reset()` forgets them
  and bumps `clients.generation()`, which app.bootstrap keys its Services on, so the adapters built on the
  old clients (the S3 link memo signed with the old credentials, the VAPID key read from SSM, the Web Push
  signer) are rebuilt with them.

Outside Lambda (tests, the local stack, `sam local`) the runtime's `snapshot_restore_py` module is not
importable and `install` registers nothing.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from types import ModuleType

from app.aws import clients as aws_clients
from app.core.telemetry import logger

#: The module the Python managed runtimes (3.12+) ship for the hooks.
RUNTIME_HOOKS_MODULE = "snapshot_restore_py"


def after_restore() -> None:
    """Make this environment's own what the snapshot shared: a random seed, credentials, connections."""
    random.seed()  # from os.urandom, read now, in this environment
    aws_clients.reset()


def _runtime_hooks() -> ModuleType | None:
    try:
        return importlib.import_module(RUNTIME_HOOKS_MODULE)
    except ImportError:
        return None


def _warming(warm_up: Callable[[], object]) -> Callable[[], None]:
    def before_snapshot() -> None:
        # Warming only saves time after a restore: a failure must not fail the version's publication.
        try:
            warm_up()
            # The service models survive clients.reset(): a restore builds its clients without them.
            aws_clients.read_models()
        except Exception:
            logger.exception("warming up before the SnapStart snapshot failed; restores will do it lazily")

    return before_snapshot


def install(warm_up: Callable[[], object] | None = None) -> bool:
    """Register the hooks with the Lambda runtime; False (and nothing registered) outside Lambda.

    `warm_up` runs once before the snapshot (import what is imported lazily, build what is built on first
    use) so that restores start with it done. It must open no connection and read no secret: whatever it
    leaves in memory is shared by every restored environment.
    """
    hooks = _runtime_hooks()
    if hooks is None:
        return False
    if warm_up is not None:
        hooks.register_before_snapshot(_warming(warm_up))
    hooks.register_after_restore(after_restore)
    return True
