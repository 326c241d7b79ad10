"""app.aws.snapstart: what every environment restored from one SnapStart snapshot makes its own again.

The Lambda runtime's `snapshot_restore_py` is not installed here: a stand-in module in sys.modules records
what is registered, and the test plays the runtime (before the snapshot, then after a restore).
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from app import bootstrap
from app.aws import clients as aws_clients
from app.aws import snapstart
from tests.support.aws import ENVIRONMENT, forget_clients_and_settings

SRC = Path(__file__).resolve().parents[3] / "src"
TOOLS = SRC.parent / "tools"


class FakeRuntime(ModuleType):
    """`snapshot_restore_py` as the Python managed runtime ships it, recording the hooks."""

    def __init__(self) -> None:
        super().__init__(snapstart.RUNTIME_HOOKS_MODULE)
        self.before: list[Callable[[], Any]] = []
        self.after: list[Callable[[], Any]] = []

    def register_before_snapshot(self, func: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
        self.before.append(lambda: func(*args, **kwargs))

    def register_after_restore(self, func: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
        self.after.append(lambda: func(*args, **kwargs))

    def snapshot(self) -> None:
        for hook in reversed(self.before):  # the runtime's order: the reverse of registration
            hook()

    def restore(self) -> None:
        for hook in self.after:
            hook()


@pytest.fixture
def runtime(monkeypatch: pytest.MonkeyPatch) -> FakeRuntime:
    fake = FakeRuntime()
    monkeypatch.setitem(sys.modules, snapstart.RUNTIME_HOOKS_MODULE, fake)
    return fake


@pytest.fixture
def environment(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for name, value in ENVIRONMENT.items():
        monkeypatch.setenv(name, value)
    forget_clients_and_settings()
    yield
    forget_clients_and_settings()


def test_outside_lambda_nothing_is_registered_and_nothing_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(sys.modules, snapstart.RUNTIME_HOOKS_MODULE, raising=False)
    assert snapstart.install(lambda: None) is False
    assert bootstrap.prepare_for_snapshots() is False


def test_a_restore_draws_random_numbers_the_snapshot_did_not_hold(runtime: FakeRuntime) -> None:
    assert snapstart.install() is True
    in_the_snapshot = random.Random()
    in_the_snapshot.setstate(random.getstate())
    runtime.restore()
    # Without a reseed, every restored environment would draw this same jitter and retry in lockstep.
    assert [random.random() for _ in range(4)] != [in_the_snapshot.random() for _ in range(4)]


def test_two_restores_of_one_snapshot_draw_different_numbers(runtime: FakeRuntime) -> None:
    snapstart.install()
    snapshot = random.getstate()
    draws = []
    for _ in range(2):
        random.setstate(snapshot)  # each environment resumes from the same memory
        runtime.restore()
        draws.append([random.random() for _ in range(4)])
    assert draws[0] != draws[1]


def test_a_restore_builds_new_clients_with_the_credentials_of_the_moment(
    runtime: FakeRuntime, environment: None
) -> None:
    snapstart.install()
    session, client, generation = aws_clients.session(), aws_clients.dynamodb(), aws_clients.generation()
    runtime.restore()
    assert aws_clients.generation() != generation
    assert aws_clients.session() is not session
    assert aws_clients.dynamodb() is not client


def test_a_restore_drops_the_adapters_that_hold_credentials_links_and_keys(
    runtime: FakeRuntime, environment: None
) -> None:
    snapstart.install()
    before = bootstrap.services()
    runtime.restore()
    after = bootstrap.services()
    # The signed-link memo (signed with the snapshot's credentials) and the VAPID key read from SSM.
    assert after.images.store is not before.images.store
    assert after.web_push is not before.web_push


def test_the_warm_up_runs_before_the_snapshot_and_never_after_a_restore(runtime: FakeRuntime) -> None:
    calls: list[str] = []
    bootstrap.prepare_for_snapshots(lambda: calls.append("warm"))
    assert calls == []
    runtime.snapshot()
    assert calls == ["warm"]
    runtime.restore()
    assert calls == ["warm"]


def test_the_snapshot_holds_every_client_s_service_model_and_a_restore_keeps_them(
    runtime: FakeRuntime, environment: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    read: list[str] = []
    models = aws_clients._models()
    models._cache.clear()  # botocore's per-loader memo: as if this environment had just started
    load_file = models.file_loader.load_file
    monkeypatch.setattr(models.file_loader, "load_file", lambda path: read.append(path) or load_file(path))
    snapstart.install(lambda: None)
    runtime.snapshot()
    assert {
        service for service in aws_clients.SERVICES if any(f"/{service}/" in path for path in read)
    } == set(aws_clients.SERVICES)
    runtime.restore()
    read.clear()
    aws_clients.dynamodb()  # a new session, the same models: none is read again
    assert [
        path for path in read if path.endswith(("/service-2", "/endpoint-rule-set-1", "/endpoints"))
    ] == []
    assert aws_clients._models() is models


def test_a_failing_warm_up_does_not_fail_the_snapshot(runtime: FakeRuntime) -> None:
    def broken() -> None:
        raise RuntimeError("no route to warm")

    snapstart.install(broken)
    runtime.snapshot()  # the version is still published: restores just do the work lazily
    assert len(runtime.after) == 1


# The handler module is imported afresh in a process of its own, as Lambda's init does (a reload here
# would rebuild the resolver other tests hold).
_LAMBDA_INIT = """
import sys, types
registered = {"before": [], "after": []}
runtime = types.ModuleType("snapshot_restore_py")
runtime.register_before_snapshot = lambda func, *a, **k: registered["before"].append(func)
runtime.register_after_restore = lambda func, *a, **k: registered["after"].append(func)
sys.modules["snapshot_restore_py"] = runtime
import handlers.api
from app.aws import clients
generation = clients.generation()
for hook in registered["after"]:
    hook()
print(len(registered["after"]), clients.generation() != generation)
"""


def test_importing_the_api_handler_in_lambda_registers_the_restore_hook() -> None:
    environment = {**os.environ, **ENVIRONMENT, "PYTHONPATH": os.pathsep.join([str(SRC), str(TOOLS)])}
    done = subprocess.run(
        [sys.executable, "-c", _LAMBDA_INIT], env=environment, capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == ["1", "True"]
