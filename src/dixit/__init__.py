"""Dixit rules core: pure, typed and deterministic. No AWS here (see docs/architecture.md)."""
