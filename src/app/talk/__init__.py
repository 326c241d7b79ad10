"""Table talk: a game's own messages, beside the game item and held to the game's `table_talk` setting."""
