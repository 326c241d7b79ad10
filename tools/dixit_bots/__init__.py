"""Random players that use nothing but the public HTTP API: load, smoke and fill-a-table tools."""
