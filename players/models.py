"""Tables of the players app."""
