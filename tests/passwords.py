"""The password hasher of the tests: every test logs in (the cast, the demo's logins, the
browser's and the oracle's), and PBKDF2's deliberate slowness only costs time here."""

FAST_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
