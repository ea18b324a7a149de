"""The bench's settings: the production settings (from the environment) with one more URL,
`/bench/bare/`, a bare Django view behind the same middleware (bench/anchor_urls.py): the
anchor the app's cheapest endpoint is compared with."""

from schockclub.settings import *  # noqa: F403

ROOT_URLCONF = "anchor_urls"
