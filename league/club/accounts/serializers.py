"""Request and response bodies of the login API (issue 13 item 3)."""

from rest_framework import serializers


class LoginSerializer(serializers.Serializer):
    """POST /api/v1/auth/token/: the login's name and password (as DRF's token view took
    them, JSON or form)."""

    username = serializers.CharField(max_length=150)
    password = serializers.CharField(
        max_length=4096, trim_whitespace=False, style={"input_type": "password"}
    )


class IssuedTokenSerializer(serializers.Serializer):
    """A token just issued: the token itself (shown only this once) and when it expires."""

    token = serializers.CharField(help_text="Send as `Authorization: Token <token>`.")
    expiry = serializers.DateTimeField(help_text="When the token stops working.")


class TokenInfoSerializer(serializers.Serializer):
    """One of the login's API tokens (never the token itself: only its public id)."""

    id = serializers.CharField(
        source="token_key", help_text="The token's public id: its first 15 characters."
    )
    created = serializers.DateTimeField()
    expiry = serializers.DateTimeField()
    current = serializers.SerializerMethodField(
        help_text="Whether this request was sent with this token."
    )

    def get_current(self, obj) -> bool:
        return obj.pk == self.context.get("current_pk")


class PasswordChangeSerializer(serializers.Serializer):
    """POST /api/v1/auth/password/: the current and the new password."""

    old_password = serializers.CharField(max_length=4096, trim_whitespace=False)
    new_password = serializers.CharField(max_length=4096, trim_whitespace=False)
