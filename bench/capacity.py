"""DynamoDB calls and capacity units, counted from boto3's own events and priced by DynamoDB's rules.

moto does not size ConsumedCapacity, so the units are computed: item size by DynamoDB's formula; a write
costs 1 WCU per started KB of the larger of the old and new item, again for every index entry it puts or
deletes (two when the index key changes), twice in a transaction; a read costs 1 RCU (consistent) or 0.5
(eventual) per started 4 KB, a query adds the sizes of all items it returns first (projections do not
make a read cheaper, so full items are sized). Items a FilterExpression drops are not seen: a query with
a filter is undercounted.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from decimal import Decimal
from typing import Any

KB = 1024
READ_BLOCK = 4 * KB


def number_size(text: str) -> int:
    digits = text.lstrip("-").replace(".", "").lstrip("0").rstrip("0") or "0"
    return math.ceil(len(digits) / 2) + 1 + (1 if text.startswith("-") else 0)


def value_size(value: dict[str, Any]) -> int:
    ((kind, inner),) = value.items()
    match kind:
        case "S":
            return len(inner.encode())
        case "N":
            return number_size(str(Decimal(inner)))
        case "B":
            return len(inner)
        case "BOOL" | "NULL":
            return 1
        case "SS":
            return sum(len(s.encode()) for s in inner)
        case "NS":
            return sum(number_size(n) for n in inner)
        case "BS":
            return sum(len(b) for b in inner)
        case "L":
            return 3 + sum(1 + value_size(v) for v in inner)
        case "M":
            return 3 + sum(1 + len(k.encode()) + value_size(v) for k, v in inner.items())
    raise ValueError(f"unknown DynamoDB type {kind}")


def item_size(item: dict[str, Any] | None) -> int:
    """Bytes DynamoDB bills for an item: names plus values."""
    return 0 if not item else sum(len(name.encode()) + value_size(v) for name, v in item.items())


def write_units(size: int) -> int:
    return max(1, math.ceil(size / KB))


def read_units(size: int, consistent: bool) -> float:
    return max(1, math.ceil(size / READ_BLOCK)) * (1.0 if consistent else 0.5)


class Ledger:
    """Attach to a boto3 session's events; tallies calls and units by the label set before each request.

    `raw` is a client of another session (so its reads are not counted) used to see items before and
    after each write.
    """

    def __init__(self, raw: Any, properties: dict[str, Any]) -> None:
        self.raw = raw
        self.key_names = [k["AttributeName"] for k in properties["KeySchema"]]
        self.indexes = [
            ([k["AttributeName"] for k in index["KeySchema"]], index["Projection"]["ProjectionType"])
            for index in properties.get("GlobalSecondaryIndexes") or []
        ]
        self.label = "other"
        self.calls: Counter[str] = Counter()
        self.rcu: defaultdict[str, float] = defaultdict(float)
        self.wcu: defaultdict[str, float] = defaultdict(float)
        self.sns: Counter[str] = Counter()
        self.operations: Counter[str] = Counter()
        self._before: list[tuple[str, dict[str, Any], dict[str, Any] | None]] = []

    def attach(self, session: Any) -> None:
        # A boto3 session (older trees) keeps its events on `.events`; a botocore session registers itself.
        register = session.events.register if hasattr(session, "events") else session.register
        register("provide-client-params.dynamodb", self._params)
        register("after-call.dynamodb", self._after)
        register("after-call.sns.Publish", self._published)

    # --- the hooks -------------------------------------------------------------------------------------
    def _params(self, params: dict[str, Any], model: Any, **_: Any) -> None:
        self._pending = (model.name, dict(params), self._writes_before(model.name, params))

    def _after(self, parsed: dict[str, Any], model: Any, **_: Any) -> None:
        name, params, old = self._pending
        self.calls[self.label] += 1
        self.operations[name] += 1
        rcu, wcu = self._units(name, params, old, parsed)
        self.rcu[self.label] += rcu
        self.wcu[self.label] += wcu

    def _published(self, **_: Any) -> None:
        self.sns[self.label] += 1

    def refile(self, source: str, target: str) -> None:
        """Move what was counted under `source` to `target` (a request is labelled once it answered)."""
        self.calls[target] += self.calls.pop(source, 0)
        self.rcu[target] += self.rcu.pop(source, 0.0)
        self.wcu[target] += self.wcu.pop(source, 0.0)
        self.sns[target] += self.sns.pop(source, 0)

    # --- sizing ----------------------------------------------------------------------------------------
    def key(self, item: dict[str, Any]) -> dict[str, Any]:
        return {name: item[name] for name in self.key_names}

    def get(self, table: str, key: dict[str, Any]) -> dict[str, Any] | None:
        found: dict[str, Any] | None = self.raw.get_item(TableName=table, Key=key, ConsistentRead=True).get(
            "Item"
        )
        return found

    def _targets(self, name: str, params: dict[str, Any]) -> list[tuple[str, str, dict[str, Any], bool]]:
        """(operation, table, key, in a transaction) for every item a write touches."""
        if name in ("PutItem", "UpdateItem", "DeleteItem"):
            key = self.key(params["Item"]) if name == "PutItem" else params["Key"]
            return [(name, params["TableName"], key, False)]
        targets = []
        if name == "TransactWriteItems":
            for entry in params["TransactItems"]:
                ((kind, spec),) = entry.items()
                key = self.key(spec["Item"]) if kind == "Put" else spec["Key"]
                targets.append((kind, spec["TableName"], key, True))
        elif name == "BatchWriteItem":
            for table, requests in params["RequestItems"].items():
                for request in requests:
                    if "PutRequest" in request:
                        targets.append(("Put", table, self.key(request["PutRequest"]["Item"]), False))
                    else:
                        targets.append(("Delete", table, request["DeleteRequest"]["Key"], False))
        return targets

    def _writes_before(self, name: str, params: dict[str, Any]) -> dict[str, Any] | None:
        targets = self._targets(name, params)
        if not targets:
            return None
        return {repr(sorted(key.items())): self.get(table, key) for _, table, key, _ in targets}

    def _index_units(self, old: dict[str, Any] | None, new: dict[str, Any] | None) -> int:
        """An index entry is written when it is put, removed or changed. A keys-only entry holds only
        keys (well under 1 KB): it changes only when its key does, so a move that keeps the key costs
        that index nothing, and a moved key costs 2 (the old entry deleted, the new one put)."""
        units = 0
        for names, projection in self.indexes:
            was = bool(old) and all(n in old for n in names)  # type: ignore[operator]
            now = bool(new) and all(n in new for n in names)  # type: ignore[operator]
            same_key = was and now and all(old[n] == new[n] for n in names)  # type: ignore[index]
            if projection == "KEYS_ONLY":
                units += 0 if same_key else int(was) + int(now)
            elif same_key:
                units += write_units(max(item_size(old), item_size(new))) if old != new else 0
            else:
                units += write_units(item_size(old)) if was else 0
                units += write_units(item_size(new)) if now else 0
        return units

    def _units(
        self, name: str, params: dict[str, Any], old: dict[str, Any] | None, parsed: dict[str, Any]
    ) -> tuple[float, float]:
        if old is not None:
            failed = "Error" in parsed
            wcu = 0.0
            for kind, table, key, transactional in self._targets(name, params):
                before = old[repr(sorted(key.items()))]
                after = None if kind in ("Delete", "DeleteItem") else self.get(table, key)
                if kind == "ConditionCheck" or failed:
                    after = before
                    units = write_units(item_size(before))
                else:
                    units = write_units(max(item_size(before), item_size(after)))
                    units += self._index_units(before, after)
                wcu += units * (2 if transactional else 1)
            return 0.0, wcu
        if name == "GetItem":
            size = item_size(self.get(params["TableName"], params["Key"]))
            return read_units(size, bool(params.get("ConsistentRead"))), 0.0
        if name == "BatchGetItem":
            total = 0.0
            for table, spec in params["RequestItems"].items():
                for key in spec["Keys"]:
                    total += read_units(item_size(self.get(table, key)), bool(spec.get("ConsistentRead")))
            return total, 0.0
        if name == "TransactGetItems":
            total = 0.0
            for entry in params["TransactItems"]:
                spec = entry["Get"]
                total += 2 * read_units(item_size(self.get(spec["TableName"], spec["Key"])), True)
            return total, 0.0
        if name in ("Query", "Scan"):
            size = sum(
                item_size(self.get(params["TableName"], self.key(item)))
                if all(k in item for k in self.key_names)
                else item_size(item)
                for item in parsed.get("Items", [])
            )
            consistent = bool(params.get("ConsistentRead")) and "IndexName" not in params
            return read_units(size, consistent), 0.0
        return 0.0, 0.0
