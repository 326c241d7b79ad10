"""The handler's floor: the trivial Powertools route plus the same AWS calls a request made, issued raw.

Every call a measured request makes is captured (operation and parameters, at botocore's
`_make_api_call`, so any client of any session is seen) and replayed right after the request through the
public methods (get_item, …) of one client of its own, as the app's adapters call theirs, built as the
app builds its clients: from a botocore session, with the app's config
(no parameter validation, standard retries, its timeouts: cold_reference/like_the_app.py, held to
app/aws/clients.py by tests/bench/test_references.py). A default boto3 client would validate every
parameter, work the app's client never does, and make the floor heavier than the app's own calls. The
replay does the same serialization, signing and parsing work of the same size as the handler's calls
did; moto's own CPU is excluded on both sides.

Reads are replayed as they were, against the game table. A write cannot be: its condition held against
the item as it was before the request, and replaying it on the game table would fail the condition (a
different, error-parsing path) or change the game. So before each write the items it touches are copied
(or noted absent), and the replay sends the same parameters to a copy table whose name has the same
length, restored to those items first: the condition holds (or fails) as it did for the handler.
"""

from __future__ import annotations

import contextlib
import copy
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from botocore import xform_name
from botocore.exceptions import ClientError
from inprocess import MOTO_CPU, TABLE

sys.path.insert(0, str(Path(__file__).resolve().parent / "cold_reference"))
# The references' settings live with the cold-import reference, on a path of their own.
from like_the_app import CLIENT_CONFIG

# Same length as TABLE, so a write's request to it is the same size as the handler's.
COPY_TABLE = "dixit-floor"
assert len(COPY_TABLE) == len(TABLE)

WRITES = ("PutItem", "UpdateItem", "DeleteItem", "TransactWriteItems", "BatchWriteItem")


def raw_client() -> Any:
    """The floor's DynamoDB client: another session than the app's, configured as the app's clients are."""
    import botocore.session

    return botocore.session.get_session().create_client("dynamodb", config=CLIENT_CONFIG)


class Floor:
    """Captures the AWS calls of one request at a time, and measures the floor of that request."""

    def __init__(self, properties: dict[str, Any]) -> None:
        import botocore.client
        from aws_lambda_powertools.event_handler import APIGatewayRestResolver
        from inprocess import FakeContext, event

        # The trivial route (measure.TrivialRoute's) whose body makes the calls: one request, as Lambda
        # would run it, so the route and the calls share whatever state the machine's caches are in.
        self.app = APIGatewayRestResolver()
        # Each call as the client's public method (get_item, …), with its parameters.
        self.plan: list[tuple[Any, dict[str, Any]]] = []

        @self.app.get("/ping")
        def ping() -> dict[str, bool]:
            for call, params in self.plan:
                # A condition that failed for the handler fails here too: the same error-parsing work.
                with contextlib.suppress(ClientError):
                    call(**params)
            return {"ok": True}

        self.request, self.context = event("GET", "/ping", None, {}), FakeContext()
        self.key_names = [k["AttributeName"] for k in properties["KeySchema"]]
        self.raw = raw_client()
        table: dict[str, Any] = {
            "TableName": COPY_TABLE,
            "AttributeDefinitions": properties["AttributeDefinitions"],
            "KeySchema": properties["KeySchema"],
            "BillingMode": "PAY_PER_REQUEST",
        }
        if properties.get("GlobalSecondaryIndexes"):
            table["GlobalSecondaryIndexes"] = properties["GlobalSecondaryIndexes"]
        self.raw.create_table(**table)
        self.calls: list[tuple[str, str, dict[str, Any]]] = []
        # (table, key) -> the item before the request's first write to it, or None when absent.
        self.before: dict[tuple[str, str], tuple[dict[str, Any], dict[str, Any] | None]] = {}
        self.replaying = False
        self.skipped: set[str] = set()
        original = botocore.client.BaseClient._make_api_call
        floor = self

        def captured(client: Any, operation: str, params: dict[str, Any]) -> Any:
            if floor.replaying:
                return original(client, operation, params)
            # The capture is the instrument's work, not the handler's: counted with moto's, excluded.
            started, moto = time.process_time(), MOTO_CPU[0]
            floor.capture(client.meta.service_model.service_name, operation, params)
            MOTO_CPU[0] = moto + time.process_time() - started
            return original(client, operation, params)

        botocore.client.BaseClient._make_api_call = captured  # type: ignore[method-assign]

    # --- capture -----------------------------------------------------------------------------------------
    def start(self) -> None:
        self.calls.clear()
        self.before.clear()

    def capture(self, service: str, operation: str, params: dict[str, Any]) -> None:
        self.calls.append((service, operation, copy.deepcopy(params)))
        if service == "dynamodb" and operation in WRITES:
            self.replaying = True
            try:
                for table, key in self.targets(operation, params):
                    ident = (table, repr(sorted(key.items())))
                    if ident not in self.before:
                        found = self.raw.get_item(TableName=table, Key=key, ConsistentRead=True)
                        self.before[ident] = (key, found.get("Item"))
            finally:
                self.replaying = False

    def key(self, item: dict[str, Any]) -> dict[str, Any]:
        return {name: item[name] for name in self.key_names}

    def targets(self, operation: str, params: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
        """(table, key) of every item a write touches (condition checks included)."""
        if operation in ("PutItem", "UpdateItem", "DeleteItem"):
            key = self.key(params["Item"]) if operation == "PutItem" else params["Key"]
            return [(params["TableName"], key)]
        out = []
        if operation == "TransactWriteItems":
            for entry in params["TransactItems"]:
                ((kind, spec),) = entry.items()
                out.append((spec["TableName"], self.key(spec["Item"]) if kind == "Put" else spec["Key"]))
        else:
            for table, requests in params["RequestItems"].items():
                for request in requests:
                    if "PutRequest" in request:
                        out.append((table, self.key(request["PutRequest"]["Item"])))
                    else:
                        out.append((table, request["DeleteRequest"]["Key"]))
        return out

    # --- replay ------------------------------------------------------------------------------------------
    def to_copy(self, operation: str, params: dict[str, Any]) -> dict[str, Any]:
        """A write's parameters aimed at the copy table; everything else about them kept."""
        moved = copy.deepcopy(params)
        if operation in ("PutItem", "UpdateItem", "DeleteItem"):
            moved["TableName"] = COPY_TABLE
        elif operation == "TransactWriteItems":
            for entry in moved["TransactItems"]:
                ((_, spec),) = entry.items()
                spec["TableName"] = COPY_TABLE
        else:
            # Only the game table is ever written in a batch: its one entry, renamed.
            (requests,) = moved["RequestItems"].values()
            moved["RequestItems"] = {COPY_TABLE: requests}
        return moved

    def restore(self) -> None:
        """The copy table holds, for every key written, the item as the handler's write found it."""
        for key, item in self.before.values():
            if item is None:
                self.raw.delete_item(TableName=COPY_TABLE, Key=key)
            else:
                self.raw.put_item(TableName=COPY_TABLE, Item=item)

    def sample(self, times: int = 3) -> float:
        """The floor of the request just captured: median CPU of a few floor requests, moto excluded."""
        self.plan = []
        for service, operation, params in self.calls:
            if service != "dynamodb":
                self.skipped.add(f"{service}.{operation}")
                continue
            # The public method, as any code calls a client (and the app's adapters do): botocore's own
            # per-call work around _make_api_call (a context for the call, its user-agent features) is
            # part of every call the app makes, so it is part of the floor too.
            call = getattr(self.raw, xform_name(operation))
            self.plan.append((call, self.to_copy(operation, params) if operation in WRITES else params))
        self.replaying = True
        try:
            spent = []
            for _ in range(times):
                self.restore()
                moto, started = MOTO_CPU[0], time.process_time()
                self.app.resolve(self.request, self.context)
                spent.append(time.process_time() - started - (MOTO_CPU[0] - moto))
            return statistics.median(spent)
        finally:
            self.replaying = False
