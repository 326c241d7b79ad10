"""A player's account as a whole, across the features: everything stored about them (export) and its
erasure (delete). Like the sweep, it sits above the features it uses."""
