"""Web Push: a player's browsers (subscribing, vetting endpoints, pushing one message per browser) and
their port."""
