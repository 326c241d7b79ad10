"""The AWS twin: moto server, made safe to share between concurrent clients.

Two things moto 5.2.5 (the newest release) does not do, done here and only for the local stack:

- **DynamoDB calls run one at a time.** moto's backend is not thread-safe: two concurrent conditional
  writes can both see the old item and both pass their condition. A lock around every DynamoDB request
  makes each call atomic, as a conditional write is on DynamoDB.
- **``TransactWriteItems`` keeps no copy of the whole table.** moto deep-copies every table a transaction
  names, on every call, to roll back on failure: time and memory grow with the table (a soak of 300 games
  went from 154 MB to 2.3 GB). The patch below snapshots only the items the transaction touches.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import threading
import types
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from moto.moto_server.threaded_moto_server import ThreadedMotoServer
from moto.moto_server.werkzeug_app import (
    DomainDispatcherApplication,
    MotoRequestHandler,
    create_backend_app,
)
from werkzeug.serving import make_server

#: Held around every DynamoDB request the twin serves (and around in-process backend calls that need it).
DYNAMODB_LOCK = threading.RLock()

WsgiApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


class SerializedDynamoDB:
    """WSGI middleware: a DynamoDB request (``X-Amz-Target: DynamoDB_…``) runs alone, to its last byte."""

    def __init__(self, app: WsgiApp, lock: threading.RLock = DYNAMODB_LOCK) -> None:
        self.app = app
        self.lock = lock

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if not str(environ.get("HTTP_X_AMZ_TARGET", "")).startswith("DynamoDB_"):
            return self.app(environ, start_response)
        with self.lock:
            return list(self.app(environ, start_response))


class TwinServer(ThreadedMotoServer):
    """``ThreadedMotoServer`` serving through ``SerializedDynamoDB``."""

    def _server_entry(self) -> None:
        app = SerializedDynamoDB(DomainDispatcherApplication(create_backend_app))
        self._server = make_server(
            self._ip_address, self._port, app, True, request_handler=MotoRequestHandler
        )
        self._server_ready_event.set()
        self._server.serve_forever()


# --------------------------------------------------------------------------------------------------
# TransactWriteItems without a copy of the table


def _touched_keys(backend: Any, transact_items: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    keys = []
    for entry in transact_items:
        with contextlib.suppress(Exception):  # malformed entries are moto's to reject, not ours
            (_, op), *_ = entry.items()
            table = backend.tables[op["TableName"]]
            if "Key" in op:
                key = dict(op["Key"])
            else:
                key = {table.hash_key_attr: op["Item"][table.hash_key_attr]}
                if table.range_key_attr is not None:
                    key[table.range_key_attr] = op["Item"][table.range_key_attr]
            keys.append((op["TableName"], key))
    return keys


def _snapshot(backend: Any, keys: list[tuple[str, dict[str, Any]]]) -> list[tuple[str, dict[str, Any], Any]]:
    """Each touched item as DynamoDB JSON (``None``: absent), to put back if the transaction fails."""
    saved = []
    for table_name, key in keys:
        with contextlib.suppress(Exception):
            current = backend.get_item(table_name, key)
            saved.append(
                (table_name, key, copy.deepcopy(current.to_json()["Attributes"]) if current else None)
            )
    return saved


def _restore(backend: Any, saved: list[tuple[str, dict[str, Any], Any]]) -> None:
    for table_name, key, attributes in reversed(saved):
        if attributes is None:
            with contextlib.suppress(Exception):
                backend.delete_item(table_name, key)
        else:
            backend.put_item(table_name, attributes)


@contextlib.contextmanager
def _tables_not_copied(models: types.ModuleType) -> Iterator[None]:
    """Inside moto's ``transact_write_items`` only, ``copy.deepcopy(table)`` hands back the table itself.

    Its rollback then re-assigns each table to itself (a no-op) and ``_restore`` undoes the items instead.
    Swapped only while ``DYNAMODB_LOCK`` is held, so no other DynamoDB call sees it.
    """
    namespace: Any = models
    real = namespace.copy
    namespace.copy = types.SimpleNamespace(deepcopy=lambda value, memo=None: value, copy=real.copy)
    try:
        yield
    finally:
        namespace.copy = real


def patch_transact_write_items() -> None:
    """Make moto's ``DynamoDBBackend.transact_write_items`` snapshot items, not tables. Idempotent."""
    from moto.dynamodb import models

    backend_class: Any = models.DynamoDBBackend
    original = backend_class.transact_write_items
    if getattr(original, "_local_stack_patched", False):
        return

    @functools.wraps(original)
    def transact_write_items(self: Any, transact_items: list[dict[str, Any]]) -> None:
        with DYNAMODB_LOCK:
            saved = _snapshot(self, _touched_keys(self, transact_items))
            try:
                with _tables_not_copied(models):
                    original(self, transact_items)
            except Exception:
                _restore(self, saved)
                raise

    transact_write_items._local_stack_patched = True  # type: ignore[attr-defined]
    backend_class.transact_write_items = transact_write_items
