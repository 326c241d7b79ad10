"""The live channel: a WebSocket on which a signed-in client watches its games (docs/live.md)."""
