"""Pure rules engines of the casino table games (no Django, no database; docs/casino.md).

* :mod:`casino.rules.base` -- bets, results, stake limits and the win cap: one round's computation.
* :mod:`casino.rules.venues` -- the legal frames (stake maxima, win caps, minimum ages) per rulebook.
* :mod:`casino.rules.registry` -- every game family module in :mod:`casino.rules.games` exports
  ``ENGINES``; the registry finds them by ``(rulebook, game)``.
* :mod:`casino.rules.jsonio` -- :func:`compute`: one JSON document in, one JSON answer out (the
  ``casino_compute`` command's core).
"""
