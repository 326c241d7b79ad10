"""The session port beside a test's store: DynamoDB beside the table's adapters, else the double."""

from __future__ import annotations

from typing import Any

from app.aws.dynamodb.sessions import DynamoSessionStore
from app.players.ports import SessionStore
from tests.fakes.sessions import MemorySessionStore


def sessions_for(store: Any) -> SessionStore:
    """`store` is the memory double or AllTablePorts (either maybe staged by tests/app/staging)."""
    parts = getattr(store, "parts", None)
    if parts:
        table = parts[0]
        return DynamoSessionStore(table.table_name, table._raw)
    return MemorySessionStore(store)
