"""Tables of the lottery app."""
