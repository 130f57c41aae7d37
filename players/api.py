"""The channel API for players: registration, status, money, sessions and reminders, limits,
self-exclusion. Thin: serializers validate, services decide.

Every refusal is a 4xx with `{"code": ..., "detail": ...}` (and the reasons behind it) and changes
nothing: the services raise `players.errors` (DomainErrors) and the API's one exception handler
(`compliance.api_errors`) answers them; see players/errors.py for the statuses.
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import generics, status
from rest_framework.response import Response

from compliance.api_errors import error_responses

from . import selectors, services
from .models import GameAccount, LedgerEntry, Player, PlaySession
from .serializers import (
    IntervalSerializer,
    LedgerEntrySerializer,
    LimitRequestSerializer,
    MoneySerializer,
    PlayerLimitSerializer,
    PlayerStatusSerializer,
    PlaySessionSerializer,
    PostingSerializer,
    PrizePendingSerializer,
    PrizeSerializer,
    RegisterSerializer,
    ReminderAnswerSerializer,
    SelfExclusionRequestSerializer,
    SelfExclusionSerializer,
    StakeSerializer,
    VerificationSerializer,
)

REFUSALS = error_responses(
    400, 404, 409, 422,
    e404="No such player or session, or not one of the caller's",
    e422="Refused by player protection or the ledger; `reasons` lists why",
)


class _PlayersAPI(generics.GenericAPIView):
    def player(self) -> Player:
        """The player, only when the caller may see it (a channel: its own players); else 404."""
        visible = selectors.players_visible_to(self.request.user)
        return get_object_or_404(visible.select_related("person", "account"), pk=self.kwargs["pk"])

    def session(self) -> PlaySession:
        visible = selectors.players_visible_to(self.request.user)
        return get_object_or_404(PlaySession.objects.filter(player__in=visible), pk=self.kwargs["pk"])

    def valid(self, serializer_class) -> dict:
        serializer = serializer_class(data=self.request.data)
        serializer.is_valid(raise_exception=True)
        return serializer.validated_data


def _status_response(player: Player, code=status.HTTP_200_OK) -> Response:
    player = Player.objects.select_related("person", "account").get(pk=player.pk)
    return Response(PlayerStatusSerializer(selectors.player_status(player, timezone.now())).data, status=code)


def _posting_response(posting: services.Posting) -> Response:
    entry = posting.entry
    data = {
        "replayed": posting.replayed,
        "entry": entry,
        "balance_cents": GameAccount.objects.values_list("balance_cents", flat=True).get(pk=entry.account_id),
        "pending_payout": posting.pending_payout,
    }
    return Response(
        PostingSerializer(data).data,
        status=status.HTTP_200_OK if posting.replayed else status.HTTP_201_CREATED,
    )


class PlayerRegisterAPI(_PlayersAPI):
    """Register a person as a player (refused when under age, on an exclusion register, ...)."""

    permission_required = "players.add_player"
    serializer_class = RegisterSerializer

    @extend_schema(
        request=RegisterSerializer,
        responses={201: PlayerStatusSerializer, 200: PlayerStatusSerializer, **REFUSALS},
        description="201: registered. 200: this channel had registered the person already (the same "
        "player). 409 `registration_refused`: the person cannot be registered through this channel.",
    )
    def post(self, request):
        data = self.valid(RegisterSerializer)
        player = services.player_register(
            actor=request.user, request=request, channel=selectors.channel_of(request.user), **data
        )
        return _status_response(player, status.HTTP_200_OK if player.replayed else status.HTTP_201_CREATED)


class PlayerStatusAPI(_PlayersAPI):
    """The player's status: verification, balance, cap, self-exclusion, limits, open session."""

    permission_required = "players.view_player"
    serializer_class = PlayerStatusSerializer

    @extend_schema(responses={200: PlayerStatusSerializer, 404: REFUSALS[404]})
    def get(self, request, pk: int):
        return _status_response(self.player())


class PlayerVerificationAPI(_PlayersAPI):
    """Record the result of identity verification (KYC)."""

    permission_required = "players.verify_person"
    serializer_class = VerificationSerializer

    @extend_schema(request=VerificationSerializer, responses={200: PlayerStatusSerializer, **REFUSALS})
    def post(self, request, pk: int):
        player = self.player()
        data = self.valid(VerificationSerializer)
        if data["result"] == "verified":
            services.person_verify(
                actor=request.user,
                person=player.person,
                method=data["method"],
                note=data["note"],
                request=request,
            )
        else:
            services.person_reject_verification(
                actor=request.user, person=player.person, note=data["note"] or data["method"], request=request
            )
        return _status_response(player)


class _MovementAPI(_PlayersAPI):
    """A money movement of the player's own (deposit, withdrawal, stake): validate, post through the
    service, answer with the posting (201; 200 when the reference was posted before)."""

    permission_required = "players.transact"
    serializer_class = MoneySerializer

    def move(self, player: Player, data: dict) -> services.Posting:
        raise NotImplementedError

    @extend_schema(responses={201: PostingSerializer, 200: PostingSerializer, **REFUSALS})
    def post(self, request, pk: int):
        player = self.player()
        return _posting_response(self.move(player, self.valid(self.serializer_class)))


class DepositAPI(_MovementAPI):
    """Deposit; refused above the balance cap (`allowed_cents` says how much still fits) or a limit."""

    def move(self, player, data):
        return services.account_deposit(actor=self.request.user, account=player.account, request=self.request, **data)


class WithdrawalAPI(_MovementAPI):
    """Withdraw to the player (allowed during self-exclusion)."""

    def move(self, player, data):
        return services.account_withdraw(actor=self.request.user, account=player.account, request=self.request, **data)


class StakeAPI(_MovementAPI):
    """Debit a stake placed in an open play session."""

    serializer_class = StakeSerializer

    def move(self, player, data):
        session = PlaySession.objects.filter(pk=data.pop("session"), player=player).first()
        return services.account_stake(actor=self.request.user, account=player.account, session=session, **data)


class PrizeAPI(_PlayersAPI):
    """Credit a prize; the part above the balance cap becomes a pending bank payout. Up to the channel's
    prize limit it is credited at once (201); above it the credit waits for a compliance officer's
    approval (202 with the request's id) and is posted under the same reference when approved."""

    permission_required = "players.transact"
    serializer_class = PrizeSerializer

    @extend_schema(
        request=PrizeSerializer,
        responses={201: PostingSerializer, 200: PostingSerializer, 202: PrizePendingSerializer, **REFUSALS},
    )
    def post(self, request, pk: int):
        player = self.player()
        data = self.valid(PrizeSerializer)
        session_id = data.pop("session")
        session = PlaySession.objects.filter(pk=session_id, player=player).first() if session_id else None
        credit = services.channel_prize_credit(
            actor=request.user, channel=selectors.channel_of(request.user), account=player.account,
            session=session, request=request, **data,
        )
        if credit.posting is not None:
            return _posting_response(credit.posting)
        return Response(
            PrizePendingSerializer({
                "code": "approval_required",
                "detail": _("The prize is above this channel's limit; it is credited when a compliance officer "
                            "approves it."),
                "approval": credit.approval.pk,
                "reference": data["reference"],
            }).data,
            status=status.HTTP_202_ACCEPTED,
        )


class LedgerAPI(_PlayersAPI, generics.ListAPIView):
    """The account's ledger, newest first."""

    permission_required = "players.view_ledgerentry"
    serializer_class = LedgerEntrySerializer

    def get_queryset(self):
        visible = selectors.players_visible_to(self.request.user)
        return LedgerEntry.objects.filter(
            account__player_id=self.kwargs["pk"], account__player__in=visible
        ).order_by("-created_at", "-pk")

    def list(self, request, *args, **kwargs):
        self.player()  # 404 for an unknown player rather than an empty list
        return super().list(request, *args, **kwargs)


class LimitAPI(_PlayersAPI):
    """Set, lower, raise or remove one of the player's own limits. Lowering applies at once,
    raising or removing after the cooling-off period (`effective_from`)."""

    permission_required = "players.manage_protection"
    serializer_class = LimitRequestSerializer

    @extend_schema(request=LimitRequestSerializer, responses={201: PlayerLimitSerializer, **REFUSALS})
    def post(self, request, pk: int):
        player = self.player()
        data = self.valid(LimitRequestSerializer)
        row = services.limit_set(actor=request.user, player=player, request=request, **data)
        return Response(PlayerLimitSerializer(row).data, status=status.HTTP_201_CREATED)


class SelfExclusionAPI(_PlayersAPI):
    """Self-exclude at once, for some days or permanently; can be extended, never shortened."""

    permission_required = "players.manage_protection"
    serializer_class = SelfExclusionRequestSerializer

    @extend_schema(
        request=SelfExclusionRequestSerializer, responses={201: SelfExclusionSerializer, **REFUSALS}
    )
    def post(self, request, pk: int):
        player = self.player()
        data = self.valid(SelfExclusionRequestSerializer)
        row = services.self_exclusion_start(actor=request.user, person=player.person, request=request, **data)
        return Response(SelfExclusionSerializer(row).data, status=status.HTTP_201_CREATED)


class SessionStartAPI(_PlayersAPI):
    """Log the player in: a new play session (refused when the player may not play)."""

    permission_required = "players.manage_protection"
    serializer_class = PlaySessionSerializer

    @extend_schema(request=None, responses={201: PlaySessionSerializer, **REFUSALS})
    def post(self, request, pk: int):
        session = services.session_start(actor=request.user, player=self.player())
        return Response(PlaySessionSerializer(session).data, status=status.HTTP_201_CREATED)


class SessionAPI(_PlayersAPI):
    """The session now. When a reminder is due, `reminder` holds it (and it is recorded as shown):
    stakes are refused until the player answers it."""

    permission_required = "players.manage_protection"
    serializer_class = PlaySessionSerializer

    @extend_schema(responses={200: PlaySessionSerializer, 404: REFUSALS[404]})
    def get(self, request, pk: int):
        session = services.session_refresh(actor=request.user, session=self.session())
        return Response(PlaySessionSerializer(session).data)


class ReminderAnswerAPI(_PlayersAPI):
    """Answer the due reminder: continue (optionally with a shorter interval) or log out."""

    permission_required = "players.manage_protection"
    serializer_class = ReminderAnswerSerializer

    @extend_schema(request=ReminderAnswerSerializer, responses={200: PlaySessionSerializer, **REFUSALS})
    def post(self, request, pk: int):
        data = self.valid(ReminderAnswerSerializer)
        session = services.session_answer_reminder(actor=request.user, session=self.session(), **data)
        return Response(PlaySessionSerializer(session).data)


class SessionIntervalAPI(_PlayersAPI):
    """Shorten the reminder interval (after the first reminder; at most 15 minutes)."""

    permission_required = "players.manage_protection"
    serializer_class = IntervalSerializer

    @extend_schema(request=IntervalSerializer, responses={200: PlaySessionSerializer, **REFUSALS})
    def post(self, request, pk: int):
        data = self.valid(IntervalSerializer)
        session = services.session_set_interval(
            actor=request.user, session=self.session(), minutes=data["minutes"]
        )
        return Response(PlaySessionSerializer(session).data)


class SessionEndAPI(_PlayersAPI):
    """Log out."""

    permission_required = "players.manage_protection"
    serializer_class = PlaySessionSerializer

    @extend_schema(request=None, responses={200: PlaySessionSerializer, 404: REFUSALS[404]})
    def post(self, request, pk: int):
        session = services.session_end(actor=request.user, session=self.session())
        return Response(PlaySessionSerializer(session).data)
