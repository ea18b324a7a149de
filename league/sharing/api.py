"""REST API: an evening's share, ``GET /api/v1/evenings/{id}/share/`` -> ``{"text",
"image_url"}``. Any person of the evening's club may read it; another
club's evening is a 404. OpenAPI prose: league/sharing/schema.py."""

from django.shortcuts import get_object_or_404
from django.urls import reverse
from rest_framework.response import Response
from rest_framework.views import APIView

from games.evenings.models import Evening
from league.club.api_common import request_club
from league.club.api_login import ClubLogin
from league.sharing import schema
from league.sharing.selectors import evening_share_text
from league.sharing.serializers import EveningShareSerializer


class EveningShareView(APIView):
    """The text for the club's chat and the URL of the evening's image card (PNG)."""

    permission_classes = [ClubLogin]

    @schema.SHARE_GET
    def get(self, request, evening_id: int):
        evening = get_object_or_404(Evening, pk=evening_id, club=request_club(request))
        page = request.build_absolute_uri(reverse("evening_detail", args=[evening.pk]))
        image = request.build_absolute_uri(reverse("evening_share_card", args=[evening.pk]))
        body = {"text": evening_share_text(evening=evening, url=page), "image_url": image}
        return Response(EveningShareSerializer(body).data)
