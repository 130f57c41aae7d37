"""What players registers with compliance from PlayersConfig.ready(): what each role gets of its
permissions, its pages, its report kind and its demo data."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from compliance import roles
from compliance.navigation import NavEntry
from compliance.plugins import register_app
from compliance.words import register_words

from . import demo, work
from .reports import PLAYER_PROTECTION
from .services import CHANNEL_PRIZE_KIND, PAYOUT_RELEASE_KIND

# The staff player page and what it shows (docs/players.md).
PLAYER_VIEWS = [
    "players.view_player", "players.view_person", "players.view_gameaccount", "players.view_ledgerentry",
    "players.view_pendingpayout", "players.view_playerlimit", "players.view_operatorlimit",
    "players.view_playsession", "players.view_sessionreminder", "players.view_selfexclusion",
    "players.view_channel",
]

GRANTS = {
    roles.OPERATOR: [*PLAYER_VIEWS, "players.release_payout", "players.search_identifier"],
    roles.COMPLIANCE_OFFICER: [
        *PLAYER_VIEWS, "players.verify_person", "players.reveal_identifier", "players.search_identifier",
        # Money out needs a second person: a recorded bank payout, a channel's prize above its limit.
        "players.release_payout", "players.approve_channel_prize",
    ],
    # What a sales channel does for its players over the API.
    roles.SALES_CHANNEL: [
        "players.add_player", "players.view_player", "players.view_ledgerentry", "players.verify_person",
        "players.transact", "players.manage_protection",
    ],
}

NAVIGATION = [NavEntry("players:search", _("Players"), "players.view_player")]


def _player_of_person(pk: str) -> str:
    from django.urls import reverse

    from .models import Player

    player = Player.objects.filter(person_id=int(pk)).values_list("pk", flat=True).first()
    return reverse("players:detail", args=[player]) if player else ""


def _person_name(**lookup) -> str:
    from .models import Person

    row = Person.objects.filter(**lookup).values_list("first_name", "last_name").first()
    return f"{row[0]} {row[1]}" if row else ""


def _player_name(pk: str) -> str:
    """A player, an account or a self-exclusion in the audit trail by the person's name ("Liisa
    Nieminen, 2027-02-26 02:03 asti"), not the English name stored with the event ("Player 3")."""
    return _person_name(player__pk=int(pk))


def _account_name(pk: str) -> str:
    return _person_name(player__account__pk=int(pk))


def _self_exclusion_name(pk: str) -> str:
    from django.utils import timezone
    from django.utils.translation import gettext

    from .models import SelfExclusion

    found = SelfExclusion.objects.filter(pk=int(pk)).select_related("person").first()
    if found is None:
        return ""
    until = (gettext("until %(until)s") % {"until": timezone.localtime(found.ends_at).strftime("%Y-%m-%d %H:%M")}
             if found.ends_at else gettext("permanently"))
    return f"{found.person.first_name} {found.person.last_name}, {until}"


def _player_of_person_of_self_exclusion(pk: str) -> str:
    from django.urls import reverse

    from .models import Player

    player = Player.objects.filter(person__self_exclusions__pk=int(pk)).values_list("pk", flat=True).first()
    return reverse("players:detail", args=[player]) if player else ""


def _player_of_account(pk: str) -> str:
    from django.urls import reverse

    from .models import GameAccount

    player = GameAccount.objects.filter(pk=int(pk)).values_list("player_id", flat=True).first()
    return reverse("players:detail", args=[player]) if player else ""


WORDS = dict(
    actions={
        "players.registered": _("Player registered"),
        "players.registration_refused": _("Registration refused"),
        "players.deposit": _("Deposit"),
        "players.withdrawal": _("Withdrawal"),
        "players.adjustment": _("Balance adjusted"),
        "players.limit_set": _("Limit set"),
        "players.self_excluded": _("Self-excluded"),
        "players.kyc_verified": _("Identity verified"),
        "players.kyc_rejected": _("Identity verification rejected"),
        "players.payout_pending": _("Bank payout pending"),
        "players.payout_paid": _("Bank payout paid"),
        "players.identifier_revealed": _("Identifier shown"),
        "players.identifier_search": _("Search by identifier"),
        "players.identifier_search_throttled": _("Search by identifier throttled"),
        "players.channel_created": _("Sales channel created"),
    },
    object_types={
        "players.player": _("Player"),
        "players.person": _("Person"),
        "players.gameaccount": _("Game account"),
        "players.pendingpayout": _("Bank payout"),
        "players.channel": _("Sales channel"),
    },
    keys={"balance": _("Balance"), "reference": _("Reference"), "bank_reference": _("Bank reference"),
          "active": _("In force"), "birth_date": _("Birth date"), "channel": _("Channel"),
          "jurisdiction": _("Jurisdiction"), "kyc_status": _("Identity verification"), "limit": _("Limit"),
          "name": _("Name"), "pending": _("Pending"), "period": _("Period"), "permanent": _("Permanent"),
          "person": _("Person"), "prize_limit": _("Prize limit"), "sessions_ended": _("Sessions ended"),
          "value": _("Value")},
)


def register() -> None:
    from django.urls import reverse

    register_words(**WORDS, links={
        "players.player": lambda pk: reverse("players:detail", args=[int(pk)]),
        "players.person": _player_of_person,
        "players.gameaccount": _player_of_account,
        "players.selfexclusion": _player_of_person_of_self_exclusion,
    }, names={"players.player": _player_name, "players.gameaccount": _account_name,
              "players.selfexclusion": _self_exclusion_name})
    register_app("players", grants=GRANTS, navigation=NAVIGATION, report_kinds=(PLAYER_PROTECTION,), demo=demo.seed,
                 approval_phrases={CHANNEL_PRIZE_KIND: work.channel_prize_phrases,
                                   PAYOUT_RELEASE_KIND: work.payout_release_phrases})
