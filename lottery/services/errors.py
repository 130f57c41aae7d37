"""Errors of the draw pipeline. Each message is plain English, fit to show to staff as is.

They are refusals in the sense of `compliance.approvals`: the four-eyes steps of the draw pipeline run
as approval handlers, and a handler that raises one of these rolls the decision back and the
approvals page shows the message.
"""

from __future__ import annotations

from compliance.approvals import ApprovalRefused
from compliance.approvals import FourEyesError as ApprovalFourEyesError


class DrawError(ApprovalRefused):
    """A draw operation was refused; `str(exc)` says why. Raise with a translatable template and named
    parameters: `DrawStateError(_("%(draw)s is %(state)s ..."), draw=str(draw), state=draw.get_state_display())`
    (see `compliance.errors.DomainError`)."""

    code = "invalid"
    status = 400


class DrawStateError(DrawError):
    """The operation does not fit the draw's (or the run's) current state: out of order."""

    code = "draw_state"
    status = 409


class FourEyesError(DrawError, ApprovalFourEyesError):
    """The second step of a four-eyes operation was attempted by someone the rule excludes (the user who
    made the first step, or for a payout the result's enterer or confirmer)."""

    code = "four_eyes"
    status = 403


class DrawInputError(DrawError):
    """The input (a result, a time, a file) is invalid."""
