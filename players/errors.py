"""Refusals raised by the player services: `compliance.errors.DomainError`s, each with a stable reason
code, a translatable message and the HTTP status below.

The API's one exception handler (`compliance.api_errors`) answers them as `{"code", "detail", ...}` with
their extra keys (`reasons`, `allowed_cents`, ...); pages show the same message (`compliance.refusals`).
A refusal changes nothing (only the screening decision behind it is logged).

| class | status | when |
|---|---|---|
| InvalidRequest | 400 | the request breaks a rule about its own values (e.g. a 20-minute reminder interval) |
| Conflict | 409 | the request conflicts with the state (reused reference, closed session, shortening a self-exclusion) |
| Refused | 422 | player protection or the ledger refuses (screening denial, insufficient funds) |
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from compliance.errors import DomainError
from compliance.screening import reason_message


class PlayerError(DomainError):
    """`PlayerError(code, message, params={...}, **extra)`: `message` a `gettext_lazy` template whose
    `%(name)s` parameters come from `params` and `extra`; `extra` is also kept in the API body."""

    status = 409

    def __init__(self, code: str, message: Any, *, params: Mapping[str, Any] | None = None, **extra: Any):
        super().__init__(message, code=code, extra=extra, **{**extra, **(params or {})})


class InvalidRequest(PlayerError):
    status = 400


class Conflict(PlayerError):
    status = 409


class Refused(PlayerError):
    status = 422

    @classmethod
    def from_decision(cls, decision) -> Refused:
        """The first denial of a screening decision, with every denial under `reasons` (each message in
        the active language, rendered from the reason's code and parameters)."""
        denials = [r for r in decision.reasons if r["code"] != "balance_cap_diverted"]
        first = denials[0]
        extra = {k: v for k, v in first.items() if k not in ("code", "message", "error", "params")}
        public = [
            {**{k: v for k, v in r.items() if k not in ("error", "params")}, "message": reason_message(r)}
            for r in denials
        ]
        err = cls(first["code"], reason_message(first), reasons=public, **extra)
        err.decision = decision
        return err
