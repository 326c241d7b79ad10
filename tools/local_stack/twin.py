"""The AWS twin: moto server, made safe to share between concurrent clients.

What moto 5.2.5 (the newest release) does not do, done here and only for the local stack (and SES v2's
whole mail and suppression list, which ``local_stack.mail.SesMailbox`` serves in front of it):

- **DynamoDB calls run one at a time.** moto's backend is not thread-safe: two concurrent conditional
  writes can both see the old item and both pass their condition. A lock around every DynamoDB request
  makes each call atomic, as a conditional write is on DynamoDB.
- **``TransactWriteItems`` keeps no copy of the whole table.** moto deep-copies every table a transaction
  names, on every call, to roll back on failure: time and memory grow with the table (a soak of 300 games
  went from 154 MB to 2.3 GB). The patch below snapshots only the items the transaction touches.
- **``Query`` reads only what it asks for.** moto answers every query, even one on a single partition
  key, by sorting the whole table, so a query's cost grows with everything ever written: a season of
  200 simulated games never finished. The patch hands moto's query only the queried partition (table)
  or the items carrying the queried index key (GSI); moto still filters and sorts them itself.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import threading
import types
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from moto.moto_server.threaded_moto_server import ThreadedMotoServer
from moto.moto_server.werkzeug_app import (
    DomainDispatcherApplication,
    MotoRequestHandler,
    create_backend_app,
)
from werkzeug.serving import make_server

from local_stack.hosts import host_allowed
from local_stack.mail import Mailbox, SesMailbox
from local_stack.post_policy import PresignedPostPolicy

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


class TwinGuard:
    """WSGI middleware: the twin answers the local stack's own SDK clients, never a web page.

    The twin holds every secret in the clear (tokens' hashes, webhook secrets, hands) and moto answers
    any credentials and any CORS preflight. A browser always names the page it runs for in `Origin`
    (on every preflight and cross-origin POST; an SDK never sends one), and a DNS-rebinding page reaches
    127.0.0.1 under its own name in `Host`: both are refused with a 403 before moto sees them.
    """

    def __init__(self, app: WsgiApp, hosts: Iterable[str] = ("127.0.0.1", "localhost")) -> None:
        self.app = app
        self.hosts = frozenset(hosts)
        self.port = 0  # set once the server is bound (0: the Host's port is not checked)

    def refusal(self, environ: dict[str, Any]) -> str | None:
        if environ.get("HTTP_ORIGIN") is not None:
            return "the AWS twin does not answer web pages (a request with an Origin header)"
        if not host_allowed(environ.get("HTTP_HOST"), self.hosts, self.port):
            return "the AWS twin answers only to 127.0.0.1 and localhost"
        return None

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        reason = self.refusal(environ)
        if reason is None:
            return self.app(environ, start_response)
        body = reason.encode()
        start_response("403 Forbidden", [("Content-Type", "text/plain"), ("Content-Length", str(len(body)))])
        return [body]


class TwinServer(ThreadedMotoServer):
    """``ThreadedMotoServer`` serving through ``SerializedDynamoDB`` (and ``SesMailbox``, given a mailbox)."""

    def __init__(self, *args: Any, mailbox: Mailbox | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.mailbox = mailbox

    def _server_entry(self) -> None:
        app: WsgiApp = SerializedDynamoDB(DomainDispatcherApplication(create_backend_app))
        if self.mailbox is not None:
            app = SesMailbox(app, self.mailbox)
        app = PresignedPostPolicy(app)
        hosts = {"127.0.0.1", "localhost", self._ip_address}
        if self._ip_address not in ("127.0.0.1", "localhost"):
            # Bound for containers (`make run HOST=0.0.0.0`, for `sam local`): they name the host so.
            hosts.add("host.docker.internal")
        guard = TwinGuard(app, hosts)
        self._server = make_server(
            self._ip_address, self._port, guard, True, request_handler=MotoRequestHandler
        )
        guard.port = self._server.server_port
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


# --------------------------------------------------------------------------------------------------
# Query without sorting the table

# What the query running on this thread asks for, read by the patched ``Table.all_items``.
_QUERYING = threading.local()

ItemKey = tuple[Any, Any]  # (hash DynamoType, range DynamoType or None)
IndexEntry = tuple[str, str, Any]  # (attribute, DynamoDB type, value as moto compares it)


class _IndexKeys:
    """For one table: which items carry each value of an index's partition-key attribute.

    Built from the table on the first index query, then kept up to date by the patched writes, so a GSI
    query looks up its partition instead of scanning. Candidates are re-checked against the item itself,
    so an entry can never make a query return an item that does not match.
    """

    def __init__(self, table: Any) -> None:
        schemas = [index.schema for index in table.all_indexes()]
        hashes = {k["AttributeName"] for keys in schemas for k in keys if k["KeyType"] == "HASH"}
        self.attributes = sorted(hashes)
        self.keys: dict[IndexEntry, set[ItemKey]] = defaultdict(set)
        self.entries: dict[ItemKey, list[IndexEntry]] = {}
        for item in _every_item(table):
            self.note((item.hash_key, item.range_key), item)

    def note(self, key: ItemKey, item: Any) -> None:
        for entry in self.entries.pop(key, []):
            self.keys[entry].discard(key)
        if item is None:
            return
        entries = [_entry(name, item.attrs[name]) for name in self.attributes if name in item.attrs]
        for entry in entries:
            self.keys[entry].add(key)
        if entries:
            self.entries[key] = entries

    def items(self, table: Any, name: str, value: Any) -> list[Any]:
        found = []
        for hash_key, range_key in self.keys.get(_entry(name, value), ()):
            item = _stored(table, hash_key, range_key)
            if item is not None:
                found.append(item)
        return found


def _entry(name: str, value: Any) -> IndexEntry:
    return (name, value.type, value.cast_value)


def _every_item(table: Any) -> Iterator[Any]:
    for partition in table.items.values():
        yield from (partition.values() if table.range_key_attr else [partition])


def _stored(table: Any, hash_key: Any, range_key: Any) -> Any:
    partition = table.items.get(hash_key)  # .get: ``items`` is a defaultdict, a lookup must not add
    if partition is None or not table.range_key_attr:
        return partition
    return partition.get(range_key)


def _candidates(table: Any, wanted: tuple[str, Any]) -> list[Any]:
    """The items a query can match: unsorted, since moto's ``query`` sorts what it keeps anyway."""
    kind, key = wanted
    if kind == "partition":
        partition = table.items.get(key)
        if partition is None:
            return []
        return list(partition.values()) if table.range_key_attr else [partition]
    conditions: list[tuple[str, Any]] = key
    index = getattr(table, "_twin_index_keys", None)
    if index is None:
        index = table._twin_index_keys = _IndexKeys(table)
    (name, value), *others = conditions
    return [
        item
        for item in index.items(table, name, value)
        if all(other in item.attrs and item.attrs[other] == want for other, want in others)
    ]


def _noting(table: Any, key: ItemKey) -> None:
    index = getattr(table, "_twin_index_keys", None)
    if index is not None:
        index.note(key, _stored(table, *key))


def patch_query() -> None:
    """Make moto's ``Table.query`` look at one partition (or one index key), not the sorted table.

    Idempotent. Scans and everything else still see ``all_items`` as before; the writes below only add
    keeping each table's index keys current.
    """
    from moto.dynamodb.models import DynamoDBBackend
    from moto.dynamodb.models.table import Table

    table_class: Any = Table
    original_query = table_class.query
    if getattr(original_query, "_local_stack_patched", False):
        return
    original_all_items = table_class.all_items
    original_put = table_class.put_item
    original_delete = table_class.delete_item
    backend_class: Any = DynamoDBBackend
    original_update = backend_class.update_item

    @functools.wraps(original_query)
    def query(self: Any, hash_key: Any, *args: Any, **kwargs: Any) -> Any:
        index_name = args[6] if len(args) > 6 else kwargs.get("index_name")
        conditions = kwargs.get("hash_key_conditions")
        if index_name:
            wanted = ("index", list(conditions)) if conditions else None
        else:
            wanted = ("partition", hash_key) if hash_key is not None else None
        _QUERYING.wanted = wanted
        try:
            return original_query(self, hash_key, *args, **kwargs)
        finally:
            _QUERYING.wanted = None

    @functools.wraps(original_all_items)
    def all_items(self: Any) -> Any:
        wanted = getattr(_QUERYING, "wanted", None)
        if wanted is None:
            return original_all_items(self)
        return _candidates(self, wanted)

    @functools.wraps(original_put)
    def put_item(self: Any, *args: Any, **kwargs: Any) -> Any:
        item = original_put(self, *args, **kwargs)
        _noting(self, (item.hash_key, item.range_key))
        return item

    @functools.wraps(original_delete)
    def delete_item(self: Any, hash_key: Any, range_key: Any) -> Any:
        try:
            return original_delete(self, hash_key, range_key)
        finally:
            _noting(self, (hash_key, range_key if self.range_key_attr else None))

    @functools.wraps(original_update)
    def update_item(self: Any, table_name: str, *args: Any, **kwargs: Any) -> Any:
        item = original_update(self, table_name, *args, **kwargs)  # changes the stored item in place
        _noting(self.get_table(table_name), (item.hash_key, item.range_key))
        return item

    query._local_stack_patched = True  # type: ignore[attr-defined]
    table_class.query = query
    table_class.all_items = all_items
    table_class.put_item = put_item
    table_class.delete_item = delete_item
    backend_class.update_item = update_item


def patch_dynamodb() -> None:
    """Both patches above; what the local stack and the simulation run with."""
    patch_transact_write_items()
    patch_query()
