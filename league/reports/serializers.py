"""REST API shapes of the season report: its state and its latest build (the results of
league/reports/builds.py's report_state).

Serializers translate only: no rule of the books lives here (STYLE.md 3).
"""

from rest_framework import serializers

from league.reports.models import ReportBuild


class ReportBuildSerializer(serializers.ModelSerializer):
    class Meta:
        model = ReportBuild
        fields = ["id", "status", "data_version", "attempts", "error", "created_at", "updated_at"]


class ReportStateSerializer(serializers.Serializer):
    """The report's state: none, queued, building, retrying, ready, stale, failed or
    unavailable (the task queue cannot be reached)."""

    state = serializers.CharField()
    message = serializers.CharField(help_text="German sentence for people.")
    build = ReportBuildSerializer(allow_null=True, help_text="The latest build.")
    download_url = serializers.CharField(allow_null=True, help_text="Set when ready.")
    worker_late = serializers.BooleanField(help_text="Queued for long: no worker running?")
    broker_ok = serializers.BooleanField(help_text="False when Redis cannot be reached.")
