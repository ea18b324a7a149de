"""`manage.py club_create`: a new club with its secretary and the secretary's login.

The one step a club needs outside its pages: afterwards the secretary sets the club up
on /verein/ (season, members and guests, logins) and enters the first evening. Prints
the secretary's invitation link at the site's address (settings.SITE_URL, or --base-url):
the secretary sets their own password there (nobody else chooses one, not even the one
who runs the command).
"""

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.urls import reverse

from league.club.errors import BooksError
from league.club.models import RULE_PRESET_CHOICES
from league.club.scoping import across_clubs
from league.club.services import club_create, login_create, login_invitation


class Command(BaseCommand):
    help = "Create a club with its secretary and the secretary's login."

    def add_arguments(self, parser):
        parser.add_argument("name", help="The club's name.")
        parser.add_argument("--secretary", required=True, help="The secretary's name.")
        parser.add_argument("--username", required=True, help="The secretary's user name.")
        presets = ", ".join(preset for preset, _label in RULE_PRESET_CHOICES)
        parser.add_argument(
            "--rules", default="club", help=f"The club's rule preset: one of {presets}."
        )
        parser.add_argument(
            "--base-url",
            default=None,
            help="Where the app is served (default: the SITE_URL setting).",
        )

    @across_clubs()  # a new club and its login
    def handle(self, *args, name, secretary, username, rules, base_url, **options):
        presets = [preset for preset, _label in RULE_PRESET_CHOICES]
        if rules not in presets:
            raise CommandError(f"Unknown rule preset {rules!r}: use one of {', '.join(presets)}.")
        base_url = base_url or settings.SITE_URL
        try:
            with transaction.atomic():
                person = club_create(name=name, secretary_name=secretary, rule_preset=rules)
                login_create(person=person, username=username)
        except BooksError as exc:
            raise CommandError(exc.message) from exc
        self.stdout.write(self.style.SUCCESS(f"{person.club.name}: {person.name} ({username})"))
        uidb64, token = login_invitation(person=person)
        path = reverse("login_invitation_accept", kwargs={"uidb64": uidb64, "token": token})
        self.stdout.write(f"Invitation: {base_url.rstrip('/')}{path}")
