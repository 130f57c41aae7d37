"""Tables of the lottery app: rule versions, games and draws, sales, settlement."""

from .draws import Draw, DrawMethod, DrawResult, DrawState, Game, ResultStatus
from .payouts import Payout
from .rulesets import GAME_CHOICES, RuleSet
from .sales import RETAIL, Line, LomatonniCity, RetailImport, Wager, WagerRefund
from .settlement import RunPhase, RunState, SettlementChunk, SettlementRun, TierResult, Winning

__all__ = [
    "GAME_CHOICES",
    "RETAIL",
    "Draw",
    "DrawMethod",
    "DrawResult",
    "DrawState",
    "Game",
    "Line",
    "LomatonniCity",
    "Payout",
    "ResultStatus",
    "RetailImport",
    "RuleSet",
    "RunPhase",
    "RunState",
    "SettlementChunk",
    "SettlementRun",
    "TierResult",
    "Wager",
    "WagerRefund",
    "Winning",
]
