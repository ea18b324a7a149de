"""Static files: names with a hash of their content, kept by browsers and proxies for a
year; every other static URL for WHITENOISE_MAX_AGE seconds.

`collectstatic` (README "Production") writes every file under a hashed name too
(`css/app.3f2a9c1b7d4e.css`, Django's manifest storage, compressed by WhiteNoise) and
`{% static %}` links those; a new release has new names, so nothing stale is ever served
from a cache. Without `collectstatic` (the developer's runserver, the test suite) there is
no manifest and `{% static %}` links the plain names, served with the short max-age.
"""

from __future__ import annotations

from whitenoise.middleware import WhiteNoiseMiddleware
from whitenoise.storage import CompressedManifestStaticFilesStorage

#: How long a hashed static file is kept (seconds): a year.
HASHED_MAX_AGE = 365 * 24 * 60 * 60


class HashedStaticFilesStorage(CompressedManifestStaticFilesStorage):
    """WhiteNoise's compressed manifest storage; a name the manifest lacks (no
    `collectstatic` ran) is linked as it is instead of failing the page."""

    manifest_strict = False

    def stored_name(self, name: str) -> str:
        try:
            return super().stored_name(name)
        except ValueError:  # no manifest and no collected file: the plain name
            return name


class StaticFilesMiddleware(WhiteNoiseMiddleware):
    """WhiteNoise, with a hashed file kept a year (`Cache-Control: max-age=31536000,
    public, immutable`) instead of WhiteNoise's ten."""

    FOREVER = HASHED_MAX_AGE
