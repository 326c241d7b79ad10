"""Fixtures the flows' tests share with the features' own: the account the erasure starts from (with
games, devices, webhooks and subscriptions: tests/app/account)."""

from tests.app.account.test_account_data import account  # noqa: F401  (a fixture)
