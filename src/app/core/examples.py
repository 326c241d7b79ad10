"""The example values the published contract shows: one per kind of id or time, the same in every schema,
so that the examples of one response can be followed into another."""

PLAYER_ID = "p_3f9a1c2b4d5e6f70"
SESSION_ID = "s_9b2e4f6a8c0d1e3f"
OTHER_ID = "p_8e7d6c5b4a392817"
GAME_ID = "g_5d41402abc4b2a76"
CARD_ID = "base-017"
IMAGE_URL = "https://dixit-cards.s3.amazonaws.com/cards/base/base-017.png?X-Amz-Signature=…"
# base-017's own description (app/decks/descriptions.json)
CARD_ALT = "a giant cat, tiny birds circling it, in stormy grey"
STAMP = "2026-11-30T09:30:00.000+00:00"
DEADLINE = "2026-12-02T09:30:00Z"
