"""Use-case tests run once per Store adapter: DynamoDB (over moto) and in memory, as one contract.

The fixtures live in tests/app/every_store.py. The feature directories below that test over the in-memory
doubles alone (players, webhooks, feed, notify, games, signin) override `services` with those doubles: fast
use-case tests, without moto.
"""

from .every_store import _moto, clock, services, staged, store  # noqa: F401  (fixtures for tests/app)
