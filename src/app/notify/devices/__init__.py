"""Mobile push: the platform channel (SNS topic and platform endpoints) a player's devices are reached on."""
