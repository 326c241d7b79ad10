"""In-memory doubles of the ports in app/*/ports.py (and of the SNS and SQS channels), for tests only.

One module per feature: games (GameStore, InboxStore), players, webhooks, feed, decks, notify. Doubles
of ports that read one another's items in the real table share a `table.MemoryTable`.
tests/stack/test_lambda_package.py proves none of them reaches a Lambda package.
"""
