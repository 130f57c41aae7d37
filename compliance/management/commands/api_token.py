"""api_token issue|rotate|revoke USER --by ADMIN: API tokens of integration users (compliance.tokens).

The token is printed once; only its digest is stored. `rotate` issues a new token and revokes the
user's others in one transaction. Every call is a significant audit event naming --by.
"""

import sys

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from compliance.tokens import token_issue, token_revoke_all

EXIT_BAD_INPUT = 2


class Command(BaseCommand):
    help = "Issue, rotate or revoke a user's API tokens (printed once; stored as digests)."

    def add_arguments(self, parser):
        parser.add_argument("action", choices=["issue", "rotate", "revoke"])
        parser.add_argument("user", help="the API user's username")
        parser.add_argument("--by", required=True, help="the username of the staff member doing it")
        parser.add_argument("--days", type=int, default=None, help="lifetime in days (default API_TOKEN_TTL_DAYS)")

    def _fail(self, field: str, message: str):
        self.stderr.write(f"error: {field}: {message}")
        sys.exit(EXIT_BAD_INPUT)

    def handle(self, *args, action, user, by, days, **options):
        User = get_user_model()
        target = User.objects.filter(username=user, is_active=True).first()
        if target is None:
            self._fail("user", f"no active user {user!r}")
        actor = User.objects.filter(username=by, is_active=True).first()
        if actor is None:
            self._fail("--by", f"no active user {by!r}")
        if days is not None and not 1 <= days <= 366:
            self._fail("--days", "a lifetime from 1 to 366 days")
        if action == "revoke":
            count = token_revoke_all(actor=actor, user=target)
            self.stdout.write(f"revoked {count} token(s) of {user}")
            return
        token = token_issue(actor=actor, user=target, days=days, revoke_others=action == "rotate")
        self.stdout.write(token)
