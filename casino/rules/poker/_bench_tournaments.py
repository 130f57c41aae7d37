"""Timing printout for the tournament engines (not a test; no timed assertions anywhere):

    .venv/bin/python -m casino.rules.poker._bench_tournaments

A 10,000-entrant MTT with 2,000 re-entries, progressive bounties and same-hand multi-busts settled
through the JSON kind, and an exact 10-player ICM.
"""

from __future__ import annotations

import random
import time

from ..jsonio import compute


def mtt(entrants: int = 10_000, re_entries: int = 2_000, seed: int = 20) -> dict:
    rnd = random.Random(seed)
    players = [f"P{i:05d}" for i in range(entrants)]
    alive = players[:]
    events = []
    for i in range(re_entries):  # early busts of players who re-enter
        who = players[i]
        by = rnd.choice([p for p in rnd.sample(alive, 3) if p != who])
        events.append({"hand": f"r{i}", "players": [{"player": who, "eliminated_by": [by]}]})
    rnd.shuffle(alive)
    while len(alive) > 1:
        k = 1 if rnd.random() < 0.9 or len(alive) < 4 else 2
        out, alive = alive[:k], alive[k:]
        winner = alive[rnd.randrange(len(alive))]
        events.append({"hand": f"h{len(events)}", "players": [
            {"player": p, "table": 1, "start_stack": rnd.randint(1, 50) * 100, "eliminated_by": [winner]}
            for p in out]})
    paid = 1_500
    weights = [1 / (k + 1) ** 0.9 for k in range(paid)]
    total = sum(weights)
    percents = [f"{100 * w / total:.6f}" for w in weights]
    percents[0] = f"{100 - sum(float(p) for p in percents[1:]):.6f}"
    return {"kind": "tournament_payout", "rulebook": "001", "venue": "casino",
            "entry": {"prize": "80.00", "fee": "10.00", "bounty": "20.00"}, "entries": entrants,
            "re_entries": re_entries, "re_entry_basis": {"add": 1, "per": 2}, "bounty": {"type": "progressive"},
            "payout_table": percents, "eliminations": events, "remaining": alive}


def main() -> None:
    doc = mtt()
    t = time.perf_counter()
    out = compute(doc)
    mtt_s = time.perf_counter() - t
    assert all(out["checks"].values())
    stacks = [random.Random(i).randint(10_000, 2_000_000) for i in range(10)]
    icm_doc = {"kind": "icm", "players": [{"player": f"F{i}", "chips": s} for i, s in enumerate(stacks)],
               "prizes": ["40000.00", "25000.00", "15000.00", "10000.00", "8000.00", "6000.00", "5000.00",
                          "4000.00", "3000.00", "2000.00"]}
    t = time.perf_counter()
    compute(icm_doc)
    icm_s = time.perf_counter() - t
    print(f"tournament_payout, 10,000 entrants + 2,000 re-entries, progressive bounties: {mtt_s:.2f} s")
    print(f"icm, 10 players, 10 paid places, exact fractions: {icm_s:.3f} s")


if __name__ == "__main__":
    main()
