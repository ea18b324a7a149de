"""OpenAPI documentation of the evening's share (league/sharing/api.py). Nothing here runs
on a request."""

from drf_spectacular.utils import OpenApiExample, extend_schema

from league.club.api_common import error_responses
from league.sharing.serializers import EveningShareSerializer

SHARE_EXAMPLE = OpenApiExample(
    "An evening",
    value={
        "text": (
            "Abend vom 9. Oktober 2026\n25 von 25 Spielen\n"
            "Am meisten verloren: Anna Becker (7 Spiele)\n\nSchock-Aus:\n"
            "• 1. Schock-Aus: Carla Vogt (Spiel 3)\n\nRunden fällig:\n"
            "• Carla Vogt (erster Schock-Aus)\n\nTabelle 2026, die ersten drei:\n"
            "1. Dieter Hahn (+2)\n2. Erik Lange (−1)\n3. Carla Vogt (−3)\n\n"
            "https://schockclub.example.org/abende/41/"
        ),
        "image_url": "https://schockclub.example.org/abende/41/teilen.png",
    },
    response_only=True,
    status_codes=["200"],
)

SHARE_GET = extend_schema(
    tags=["Evenings"],
    operation_id="evenings_share",
    summary="An evening's share: the text for the club's chat and the image card",
    description=(
        "The text names the date, who lost most, the Schock-Aus with their throwers, the "
        "Runden owed, the season's top three and the evening's link; `image_url` is the "
        "evening's card as PNG (1080 px wide, same login). Any person of the evening's club "
        "may read it; another club's evening is 404."
    ),
    responses={200: EveningShareSerializer, **error_responses(401, 404)},
    examples=[SHARE_EXAMPLE],
)
