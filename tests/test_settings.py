"""Settings from the environment (schockclub/settings.py): a yes/no word that is neither
stops the start instead of silently meaning no."""

import pytest
from django.core.exceptions import ImproperlyConfigured

from schockclub.settings import env_bool


@pytest.mark.parametrize("word", ["1", "true", "Yes", " on "])
def test_yes_words_are_true(monkeypatch, word):
    monkeypatch.setenv("SOME_FLAG", word)
    assert env_bool("SOME_FLAG", False) is True


@pytest.mark.parametrize("word", ["0", "false", "NO", "off", ""])
def test_no_words_are_false(monkeypatch, word):
    monkeypatch.setenv("SOME_FLAG", word)
    assert env_bool("SOME_FLAG", True) is False


def test_an_unset_flag_takes_its_default(monkeypatch):
    monkeypatch.delenv("SOME_FLAG", raising=False)
    assert env_bool("SOME_FLAG", True) is True


@pytest.mark.parametrize("typo", ["ture", "flase", "yes please", "2"])
def test_a_typo_stops_the_start(monkeypatch, typo):
    monkeypatch.setenv("SOME_FLAG", typo)
    with pytest.raises(ImproperlyConfigured, match="SOME_FLAG"):
        env_bool("SOME_FLAG", False)


def test_each_xdist_worker_gets_a_redis_database_of_its_own():
    from tests.redis_per_worker import worker_redis_url

    assert worker_redis_url("redis://127.0.0.1:6379/0", "gw0") == "redis://127.0.0.1:6379/2"
    assert worker_redis_url("redis://127.0.0.1:6379/0", "gw1") == "redis://127.0.0.1:6379/4"
    assert worker_redis_url("redis://:pw@redis:6379/15", "gw0") == "redis://:pw@redis:6379/1"
    assert worker_redis_url("redis://127.0.0.1:6379", "gw3") == "redis://127.0.0.1:6379/8"


def test_each_xdist_worker_gets_a_cache_database_apart_from_every_broker_database():
    from tests.redis_per_worker import worker_redis_url

    url = "redis://127.0.0.1:6379/0"
    brokers = {worker_redis_url(url, f"gw{n}") for n in range(4)}
    caches = {worker_redis_url(url, f"gw{n}", cache=True) for n in range(4)}
    assert len(brokers) == len(caches) == 4
    assert not brokers & caches
    assert url not in brokers | caches and "redis://127.0.0.1:6379/1" not in brokers | caches


def test_the_cache_is_in_the_database_after_the_brokers_by_default():
    from schockclub.settings import _next_redis_database

    assert _next_redis_database("redis://127.0.0.1:6379/0") == "redis://127.0.0.1:6379/1"
    assert _next_redis_database("redis://:pw@redis:6379/15") == "redis://:pw@redis:6379/0"
