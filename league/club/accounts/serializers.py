"""Request and response bodies of the login API and of the club's
logins (the secretary's)."""

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


class ClubLoginSerializer(serializers.Serializer):
    """One active person of the club and their login, as the logins page shows it."""

    member = serializers.IntegerField(help_text="The person's id.")
    name = serializers.CharField()
    is_secretary = serializers.BooleanField()
    username = serializers.CharField(allow_null=True, help_text="None: no login yet.")
    locked = serializers.BooleanField(help_text="Locked by a secretary (cannot log in).")
    locked_out = serializers.BooleanField(
        help_text="Locked after too many failed logins (django-axes), from some address."
    )
    invitation_open = serializers.BooleanField(
        help_text="The login has no password yet: its invitation is not used."
    )
    password_set_by_holder = serializers.BooleanField(
        help_text="The person set the password themself (invitation, reset or change)."
    )


class InvitationSerializer(ClubLoginSerializer):
    """A login's invitation just made: the link, shown only now, where the person sets
    their own password."""

    invitation = serializers.URLField(
        help_text="The one-time link; it works until a password is set, at most "
        "PASSWORD_RESET_TIMEOUT (a day)."
    )


class InviteBodySerializer(serializers.Serializer):
    """POST /api/v1/logins/{member_id}/invite/: the user name of a new login (ignored when
    the person has a login already)."""

    username = serializers.CharField(max_length=150, required=False, allow_blank=True)
