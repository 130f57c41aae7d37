"""A reproducible, auditable random source for draws (digest §7 §42, RP §14, NA §8).

The additional draws, the Rahapika second-chance draw and the Nettiarvat draw from a depleting
pool all take a **recorded seed**: whoever holds the seed, the draw's reference and its input can
re-run the draw and get the same winners. The random bits come from

    **NIST SP 800-90A Rev. 1 HMAC_DRBG with SHA-256** (section 10.1.2), instantiated with
    ``seed_material = seed || personalization`` (no reseed, no additional input, no prediction
    resistance), and whole numbers below ``n`` by the **Simple Discard Method** of SP 800-90A
    Appendix A.5.1: take the bit length ``k`` of ``n - 1`` (at least 1), ask the generator for
    ``ceil(k / 8)`` bytes, read them big-endian, keep the low ``k`` bits, and discard and ask
    again while the value is ``>= n``.

The method is recorded with every draw as :data:`METHOD`. Why this one rather than
``random.Random(seed)``: HMAC_DRBG is a published standard with official test vectors (the
tests check the NIST CAVP vectors), any language reproduces it from ``hmac`` and ``sha256``
alone, and it cannot drift with a Python upgrade, whereas ``random``'s higher-level methods
(``choices``, ``sample``, ``shuffle``) are documented as not guaranteed stable across versions.
The seed itself must come from a cryptographic source (``secrets.token_hex(32)``) and be
recorded (committed) before the draw; the engine only consumes it.
"""

from __future__ import annotations

import hashlib
import hmac

from .errors import RoundInputError

METHOD = "NIST SP 800-90A HMAC_DRBG/SHA-256; integers: Simple Discard Method (A.5.1); valvoja-draw-v1"
#: Seeds shorter than this (bytes) are refused: 256 bits of security need 32 bytes; 16 is the floor.
MIN_SEED_BYTES = 16
MAX_SEED_BYTES = 1024


class HmacDrbg:
    """HMAC_DRBG (SHA-256) of SP 800-90A §10.1.2, without reseeding."""

    def __init__(self, entropy: bytes, nonce: bytes = b"", personalization: bytes = b"") -> None:
        self._key = b"\x00" * 32
        self._value = b"\x01" * 32
        self._update(entropy + nonce + personalization)

    def _hmac(self, key: bytes, data: bytes) -> bytes:
        return hmac.new(key, data, hashlib.sha256).digest()

    def _update(self, provided: bytes = b"") -> None:
        self._key = self._hmac(self._key, self._value + b"\x00" + provided)
        self._value = self._hmac(self._key, self._value)
        if provided:
            self._key = self._hmac(self._key, self._value + b"\x01" + provided)
            self._value = self._hmac(self._key, self._value)

    def generate(self, length: int) -> bytes:
        """``length`` pseudo-random bytes (one generate request)."""
        out = b""
        while len(out) < length:
            self._value = self._hmac(self._key, self._value)
            out += self._value
        self._update()
        return out[:length]

    def below(self, n: int) -> int:
        """A uniform whole number in ``[0, n)``: the Simple Discard Method (SP 800-90A A.5.1)."""
        if n < 1:
            raise ValueError("n must be at least 1")
        bits = max(1, (n - 1).bit_length())
        mask = (1 << bits) - 1
        while True:
            value = int.from_bytes(self.generate((bits + 7) // 8), "big") & mask
            if value < n:
                return value


def parse_seed(value: object, field: str = "seed") -> bytes:
    """The recorded seed: a hexadecimal string of 32 to 2,048 hex digits (16 to 1,024 bytes)."""
    if not isinstance(value, str):
        raise RoundInputError(field, "the recorded seed as a hexadecimal string (e.g. secrets.token_hex(32))")
    try:
        seed = bytes.fromhex(value)
    except ValueError:
        raise RoundInputError(field, "is not a hexadecimal string") from None
    if not MIN_SEED_BYTES <= len(seed) <= MAX_SEED_BYTES:
        raise RoundInputError(
            field, f"must be {MIN_SEED_BYTES * 2} to {MAX_SEED_BYTES * 2} hex digits (got {len(value)})"
        )
    return seed


def drbg_for(seed: bytes, draw_ref: str) -> HmacDrbg:
    """The generator of one draw: the seed, personalised with the draw's reference (so one seed
    reused for two draws still gives two independent streams)."""
    return HmacDrbg(seed, personalization=draw_ref.encode("utf-8"))


def weighted_pick(weights: list[int], u: int) -> int:
    """The index whose cumulative weight interval ``[c_i, c_i + w_i)`` holds ``u`` (0 <= u < sum)."""
    running = 0
    for i, w in enumerate(weights):
        running += w
        if u < running:
            return i
    raise ValueError("u is not below the total weight")


def weighted_draw(weights: list[int], prizes: int, generator: HmacDrbg, *, replace: bool = False) -> list[int]:
    """Draw ``prizes`` indices, each draw proportional to ``weights`` (whole numbers, e.g. cents).

    Without replacement (RP §17, digest A24) a drawn index leaves the draw, and every later draw is
    proportional to the weights of those left; the draw stops early when no weight is left. With
    replacement every draw is over all of them. Exact integer arithmetic: draw ``u`` below the total
    weight (Simple Discard Method) and take the index whose cumulative interval holds it.
    """
    left = list(weights)
    chosen: list[int] = []
    for _ in range(prizes):
        total = sum(left)
        if total == 0:
            break
        index = weighted_pick(left, generator.below(total))
        chosen.append(index)
        if not replace:
            left[index] = 0
    return chosen


def entries_digest(entries: list[tuple[str, int]]) -> str:
    """SHA-256 of the draw's canonical entry list (``id<TAB>weight`` lines, in draw order): recorded
    with the draw so that an audit can show that it re-ran the draw on the same entries."""
    text = "".join(f"{ref}\t{weight}\n" for ref, weight in entries)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
