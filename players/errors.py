"""Refusals raised by the player services, each with a stable reason code and a readable message.

The API turns them into `{"code": ..., "detail": ..., ...}` with the status below; a refusal
changes nothing (only the screening decision behind it is logged).

| class | status | when |
|---|---|---|
| InvalidRequest | 400 | the request breaks a rule about its own values (e.g. a 20-minute reminder interval) |
| Conflict | 409 | the request conflicts with the state (reused reference, closed session, shortening a self-exclusion) |
| Refused | 422 | player protection or the ledger refuses (screening denial, insufficient funds) |
"""

from __future__ import annotations

from typing import Any


class PlayerError(Exception):
    status_code = 409

    def __init__(self, code: str, detail: str, **extra: Any):
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.extra = extra

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "detail": self.detail, **self.extra}


class InvalidRequest(PlayerError):
    status_code = 400


class Conflict(PlayerError):
    status_code = 409


class Refused(PlayerError):
    status_code = 422

    @classmethod
    def from_decision(cls, decision) -> Refused:
        denials = [r for r in decision.reasons if r["code"] != "balance_cap_diverted"]
        first = denials[0]
        extra = {k: v for k, v in first.items() if k not in ("code", "message", "error")}
        public = [{k: v for k, v in r.items() if k != "error"} for r in denials]
        err = cls(first["code"], first["message"], reasons=public, **extra)
        err.decision = decision
        return err
