"""Lambda entry points: thin adapters from AWS events to use cases."""
