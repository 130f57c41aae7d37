"""Fixtures of the compliance tests: the lottery reports also use the draw pipeline's fixtures."""

from tests.lottery.conftest import make_gambler, open_draw, to_the_draw  # noqa: F401 - fixtures re-exported
