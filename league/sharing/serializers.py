"""The evening's share in the API."""

from rest_framework import serializers


class EveningShareSerializer(serializers.Serializer):
    """`text`: the lines for the club's chat, ending with the evening's link; `image_url`:
    the evening's card (PNG, 1080 px wide; needs the same login)."""

    text = serializers.CharField()
    image_url = serializers.URLField()
