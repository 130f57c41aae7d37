"""Tables of the casino app."""
