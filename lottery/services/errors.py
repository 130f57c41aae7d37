"""Errors of the draw pipeline. Each message is plain English, fit to show to staff as is."""

from __future__ import annotations


class DrawError(Exception):
    """A draw operation was refused; `str(exc)` says why."""

    def __init__(self, message: str) -> None:
        self.message = message
        super().__init__(message)


class DrawStateError(DrawError):
    """The operation does not fit the draw's (or the run's) current state: out of order."""


class FourEyesError(DrawError):
    """The second step of a four-eyes operation was attempted by the user who made the first."""


class DrawInputError(DrawError):
    """The input (a result, a time, a file) is invalid."""
