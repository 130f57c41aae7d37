"""API shapes of the draw pipeline (amounts in cents, times in UTC ISO 8601)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from compliance.bounds import BIGINT_MAX, INT_MAX, SMALLINT_MAX
from compliance.models import Approval

from .games import registry
from .models import (
    GAME_CHOICES,
    Draw,
    DrawMethod,
    DrawResult,
    DrawState,
    Payout,
    RetailImport,
    SettlementRun,
    TierResult,
)
from .rules.bitmask import mask_to_picks
from .selectors import current_run, draw_pending_approvals
from .services.settlement import settled_run

# A drawn or played number, position or digit: far above any game's range (the game's rules then say
# what is allowed), low enough that no arithmetic on it can blow up.
PICK_MAX = 9999


class DrawResultSerializer(serializers.ModelSerializer):
    entered_by = serializers.CharField(source="entered_by.get_username", read_only=True)
    confirmed_by = serializers.CharField(source="confirmed_by.get_username", read_only=True, default=None)

    class Meta:
        model = DrawResult
        fields = ["version", "status", "numbers", "reason", "entered_by", "entered_at", "confirmed_by", "confirmed_at"]


class TierSerializer(serializers.ModelSerializer):
    class Meta:
        model = TierResult
        fields = ["class_key", "label", "kind", "winners", "boosted_winners", "prize_cents", "boosted_prize_cents",
                  "pool_cents", "paid_cents", "breakage_cents", "rollover_in_cents", "rollover_out_cents", "capped"]


class RunSerializer(serializers.ModelSerializer):
    percent = serializers.IntegerField(read_only=True)

    class Meta:
        model = SettlementRun
        fields = ["version", "state", "phase", "percent", "chunks_done", "chunks_total", "lines_count",
                  "turnover_cents", "winners_count", "paid_cents", "breakage_cents", "error", "started_at",
                  "finished_at", "duration_ms"]


class DrawSerializer(serializers.ModelSerializer):
    game = serializers.CharField(source="game.code")
    ruleset = serializers.CharField(source="ruleset.version")
    main_draw = serializers.IntegerField(source="main_draw_id", read_only=True, allow_null=True,
                                         help_text="The main draw of an add-on draw; null for a main draw.")

    class Meta:
        model = Draw
        fields = ["id", "game", "number", "state", "sales_open_at", "sales_close_at", "draw_at", "ruleset",
                  "jackpot_cents", "jackpot_to_highest_class", "rollover_in", "main_draw", "draw_method", "witnesses",
                  "central_inputs", "cancel_reason"]


class PendingApprovalSerializer(serializers.ModelSerializer):
    """A four-eyes request waiting for a second person (compliance.approvals), as the draw page lists it."""

    object = serializers.CharField(source="target_repr")
    requested_by = serializers.CharField(source="requested_by_repr")

    class Meta:
        model = Approval
        fields = ["id", "kind", "object", "requested_by", "requested_at", "reason"]


class DrawDetailSerializer(DrawSerializer):
    results = DrawResultSerializer(many=True, read_only=True)
    settlement = serializers.SerializerMethodField()
    tiers = serializers.SerializerMethodField()
    pending_approvals = serializers.SerializerMethodField()

    class Meta(DrawSerializer.Meta):
        fields = [*DrawSerializer.Meta.fields, "results", "settlement", "tiers", "pending_approvals"]

    @extend_schema_field(PendingApprovalSerializer(many=True))
    def get_pending_approvals(self, draw) -> list[dict]:
        """The four-eyes requests about this draw that wait for a second person, oldest first (as on
        the draw page): the result's or a correction's confirmation, the payout, large wins."""
        return PendingApprovalSerializer(draw_pending_approvals(draw), many=True).data

    def get_settlement(self, draw) -> dict | None:
        run = current_run(draw)
        return RunSerializer(run).data if run else None

    def get_tiers(self, draw) -> list[dict]:
        run = settled_run(draw)
        return TierSerializer(run.tiers.all(), many=True).data if run else []


class DrawFilterSerializer(serializers.Serializer):
    """The draw list's query: ?game=lotto&state=open."""

    game = serializers.ChoiceField(choices=[code for code, _ in GAME_CHOICES], required=False)
    state = serializers.ChoiceField(choices=DrawState.choices, required=False)


class PayoutFilterSerializer(serializers.Serializer):
    """A draw's payouts: ?state=held|due|paid|retail|failed|superseded."""

    state = serializers.ChoiceField(choices=Payout.State.choices, required=False)


class WinnersQuerySerializer(serializers.Serializer):
    """The winners page's query (keyset pagination: `after` is the `next` of the previous page)."""

    class_no = serializers.IntegerField(min_value=0, max_value=SMALLINT_MAX, required=False)
    boosted = serializers.BooleanField(required=False, allow_null=True, default=None)
    min_prize_cents = serializers.IntegerField(min_value=0, max_value=BIGINT_MAX, required=False)
    ticket = serializers.CharField(max_length=200, required=False, allow_blank=True, default="",
                                   help_text="A retail ticket reference, or channel:reference.")
    order = serializers.ChoiceField(choices=["line", "prize"], required=False, default="line")
    after = serializers.RegexField(r"^[0-9]{1,19}(:[0-9]{1,19})?$", required=False, allow_blank=True,
                                   help_text="The cursor: `next` of the previous page.")
    limit = serializers.IntegerField(min_value=1, max_value=1000, required=False, default=100)

    def validate(self, data):
        after = data.get("after") or ""
        if after:
            parts = after.split(":")
            if len(parts) != (2 if data["order"] == "prize" else 1) or any(int(p) > BIGINT_MAX for p in parts):
                raise serializers.ValidationError({"after": _("Not a cursor of this order.")})
        return data


class DrawScheduleSerializer(serializers.Serializer):
    game = serializers.CharField(max_length=32)
    number = serializers.IntegerField(min_value=1, max_value=INT_MAX)
    sales_open_at = serializers.DateTimeField()
    sales_close_at = serializers.DateTimeField()
    draw_at = serializers.DateTimeField()
    jackpot_cents = serializers.IntegerField(min_value=0, max_value=BIGINT_MAX, required=False, allow_null=True,
                                             help_text="At most LOTTERY_JACKPOT_MAX_CENTS.")


class ResultInputSerializer(serializers.Serializer):
    """A draw result; each game uses its own fields (docs/draws.md): Lotto numbers + additional + plus,
    Eurojackpot numbers + stars, Vikinglotto numbers + viking + plus, Milli numbers + additional, Keno
    numbers + kunkku, Kaikki tai ei mitään numbers + lucky, Tähdenlento numbers + bonus, Synttärit
    date + letter, Jokeri digits, Lomatonni city + number."""

    numbers = serializers.ListField(child=serializers.IntegerField(min_value=0, max_value=PICK_MAX), max_length=100,
                                    required=False)
    additional = serializers.IntegerField(min_value=0, max_value=PICK_MAX, required=False)
    stars = serializers.ListField(child=serializers.IntegerField(min_value=0, max_value=PICK_MAX), max_length=100,
                                    required=False)
    viking = serializers.IntegerField(min_value=0, max_value=PICK_MAX, required=False)
    plus = serializers.IntegerField(min_value=0, max_value=PICK_MAX, required=False)
    kunkku = serializers.IntegerField(min_value=0, max_value=PICK_MAX, required=False, help_text="Keno: the Kunkku number, one of the 20.")
    lucky = serializers.IntegerField(min_value=0, max_value=PICK_MAX, required=False, help_text="Kaikki tai ei mitään: the Onnenapila lucky number.")
    bonus = serializers.CharField(required=False, help_text="Tähdenlento: the drawn bonus token.")
    date = serializers.CharField(required=False, help_text="Synttärit: the drawn date, YYYY-MM-DD.")
    letter = serializers.CharField(required=False, help_text="Synttärit: the drawn letter.")
    digits = serializers.CharField(required=False, help_text="Jokeri: the 7 drawn digits in order, e.g. 0123456.")
    city = serializers.CharField(required=False, help_text="Lomatonni: the drawn city.")
    number = serializers.IntegerField(min_value=0, max_value=PICK_MAX, required=False, help_text="Lomatonni: the drawn number 1..100.")


class ResultEntrySerializer(ResultInputSerializer):
    draw_method = serializers.ChoiceField(choices=DrawMethod.choices)
    witnesses = serializers.CharField()


class CorrectionSerializer(ResultInputSerializer):
    reason = serializers.CharField()


class ReasonSerializer(serializers.Serializer):
    reason = serializers.CharField(required=False, allow_blank=True, default="")


class JackpotSerializer(serializers.Serializer):
    jackpot_cents = serializers.IntegerField(min_value=0, max_value=BIGINT_MAX, allow_null=True,
                                             help_text="At most LOTTERY_JACKPOT_MAX_CENTS.")
    to_highest_class = serializers.BooleanField(required=False, allow_null=True, default=None)


class RetailImportSerializer(serializers.ModelSerializer):
    class Meta:
        model = RetailImport
        fields = ["id", "draw", "state", "phase", "progress_done", "progress_total", "file_name", "file_sha256",
                  "size_bytes", "method", "rows", "tickets", "lines", "stake_cents", "error_count", "errors", "error",
                  "actor_repr", "started_at", "finished_at"]


class RetailUploadSerializer(serializers.Serializer):
    file = serializers.FileField()


class WinningSerializer(serializers.Serializer):
    line_id = serializers.IntegerField()
    ticket = serializers.CharField(source="wager.reference", default="")
    channel = serializers.CharField(source="wager.channel", default="")
    player_id = serializers.IntegerField(source="wager.player_id", default=None)
    class_no = serializers.IntegerField()
    boosted = serializers.BooleanField()
    prize_cents = serializers.IntegerField()


class TuplausSerializer(serializers.Serializer):
    position = serializers.IntegerField(min_value=0, max_value=PICK_MAX, help_text="1..7")
    digit = serializers.IntegerField(min_value=0, max_value=PICK_MAX, help_text="0..9")


class LineInputSerializer(serializers.Serializer):
    """A line; each game uses its own fields (docs/draws.md, "Wagers from sales channels")."""

    numbers = serializers.ListField(child=serializers.IntegerField(min_value=0, max_value=PICK_MAX), max_length=100,
                                    required=False)
    stars = serializers.ListField(child=serializers.IntegerField(min_value=0, max_value=PICK_MAX), max_length=100,
                                    required=False)
    viking = serializers.IntegerField(min_value=0, max_value=PICK_MAX, required=False, allow_null=True)
    plus = serializers.IntegerField(min_value=0, max_value=PICK_MAX, required=False, allow_null=True)
    stake_cents = serializers.IntegerField(min_value=0, max_value=INT_MAX)
    plus_cents = serializers.IntegerField(min_value=0, max_value=INT_MAX, required=False, default=0)
    kunkku = serializers.BooleanField(required=False, help_text="Keno: played as Kunkku-Keno.")
    king_number = serializers.IntegerField(min_value=0, max_value=PICK_MAX, required=False, allow_null=True,
                                           help_text="Keno: the designated king number (designated mode only).")
    lucky = serializers.IntegerField(min_value=0, max_value=PICK_MAX, required=False, allow_null=True,
                                     help_text="Kaikki tai ei mitään: the Onnenapila lucky number.")
    bonus = serializers.CharField(required=False, allow_null=True, help_text="Tähdenlento: the bonus-draw token.")
    date = serializers.CharField(required=False, help_text="Synttärit: YYYY-MM-DD.")
    letter = serializers.CharField(required=False, help_text="Synttärit: one letter.")
    digits = serializers.CharField(required=False, help_text="Jokeri: 7 digits, e.g. 0123456.")
    tuplaus = TuplausSerializer(required=False, allow_null=True, help_text="Jokeri: the Tuplaus position and digit.")
    city = serializers.CharField(required=False, help_text="Lomatonni: the city.")
    number = serializers.IntegerField(min_value=0, max_value=PICK_MAX, required=False, allow_null=True, help_text="Lomatonni: the number 1..100.")
    addon_cents = serializers.IntegerField(min_value=0, max_value=INT_MAX, required=False, default=0,
                                           help_text="The add-on fee: Kunkku, Onnenapila, bonus draw, Tuplaus.")


class AddonLineInputSerializer(LineInputSerializer):
    game = serializers.ChoiceField(choices=["jokeri", "lomatonni"])


class WagerPlaceSerializer(serializers.Serializer):
    reference = serializers.CharField(max_length=64, help_text="Unique per channel: the channel's ticket id.")
    draw = serializers.IntegerField(min_value=1, max_value=BIGINT_MAX)
    player = serializers.IntegerField(min_value=1, max_value=BIGINT_MAX)
    session = serializers.IntegerField(min_value=1, max_value=BIGINT_MAX, help_text="The player's open play session.")
    lines = LineInputSerializer(many=True)
    addons = AddonLineInputSerializer(
        many=True, required=False,
        help_text="Jokeri and Lomatonni lines played as add-ons, in the add-on draws linked to the draw (§2).",
    )


class LineSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    draw = serializers.IntegerField(source="draw_id")
    numbers = serializers.SerializerMethodField()
    secondary = serializers.SerializerMethodField()
    plus = serializers.IntegerField(allow_null=True)
    stake_cents = serializers.IntegerField()
    plus_cents = serializers.IntegerField(source="addon_cents")
    addon_cents = serializers.IntegerField()
    picks = serializers.SerializerMethodField(help_text="The line in its game's terms (lottery.games).")

    def _other(self, line) -> dict | None:
        """The stored line described by its game's codec, for a game whose lines are more than numbers
        (Keno, Jokeri, ...; `GameCodec.describes_picks`; context `games`: draw -> code, params)."""
        code, params = (self.context.get("games") or {}).get(line.draw_id, (None, None))
        spec = registry.find(code)
        if spec is None or not spec.codec.describes_picks:
            return None
        return spec.codec.describe_line(line.main_mask, line.extra_mask, line.plus, line.flags, params)

    def get_picks(self, line) -> dict | None:
        return self._other(line)

    def get_numbers(self, line) -> list[int]:
        other = self._other(line)
        if other is not None:
            return list(other.get("numbers") or [])
        return mask_to_picks(line.main_mask)

    def get_secondary(self, line) -> list[int]:
        if self._other(line) is not None:
            return []
        return mask_to_picks(line.extra_mask)


class WagerSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    channel = serializers.CharField()
    reference = serializers.CharField()
    draw = serializers.IntegerField(source="draw_id")
    player = serializers.IntegerField(source="player_id", allow_null=True)
    stake_cents = serializers.IntegerField()
    line_count = serializers.IntegerField()
    accepted_at = serializers.DateTimeField()
    lines = serializers.SerializerMethodField()

    def get_lines(self, wager) -> list[dict]:
        lines = list(wager.lines.order_by("id"))
        games = {pk: (code, params) for pk, code, params in
                 Draw.objects.filter(pk__in={x.draw_id for x in lines}).values_list("pk", "game__code", "ruleset__params")}
        return LineSerializer(lines, many=True, context={**self.context, "games": games}).data


class PayoutSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    draw = serializers.IntegerField(source="draw_id")
    line_id = serializers.IntegerField()
    player = serializers.IntegerField(source="player_id", allow_null=True)
    class_no = serializers.IntegerField(allow_null=True)
    prize_cents = serializers.IntegerField()
    amount_cents = serializers.IntegerField()
    state = serializers.CharField()
    credited_cents = serializers.IntegerField()
    diverted_cents = serializers.IntegerField()
    error = serializers.CharField()
