"""The payment form carries a hidden key of its own (league/club/idempotency.py): the same
form sent twice (a double tap, a reload that posts again) books once and shows the first
result again; the form sent again with other values is refused in German. A page whose
body is past its bound is refused before it is read (league/club/body_limits.py)."""

import re

import pytest
from django.urls import reverse

from league.ledger.models import Payment

pytestmark = pytest.mark.django_db


def _form(secretary_client, member, amount: str = "5,00") -> dict:
    page = secretary_client.get(reverse("payment_create")).content.decode()
    key = re.search(r'name="idempotency_key" value="([^"]+)"', page)
    assert key is not None
    return {
        "member": member.pk,
        "amount": amount,
        "paid_on": "2026-03-06",
        "method": "cash",
        "note": "",
        "idempotency_key": key.group(1),
    }


def test_a_payment_form_sent_twice_books_once(secretary_client, member, season):
    form = _form(secretary_client, member)
    secretary_client.post(reverse("payment_create"), form)
    secretary_client.post(reverse("payment_create"), form)
    assert Payment.objects.filter(member=member).count() == 1


def test_a_payment_form_sent_twice_shows_the_first_result_again(secretary_client, member, season):
    form = _form(secretary_client, member)
    first = secretary_client.post(reverse("payment_create"), form)
    again = secretary_client.post(reverse("payment_create"), form, follow=True)
    assert again.redirect_chain == [(first["Location"], 302)]
    assert "Zahlung von Anna Becker eingetragen" in again.content.decode()


def test_two_forms_rendered_apart_book_two_payments(secretary_client, member, season):
    for _ in range(2):
        secretary_client.post(reverse("payment_create"), _form(secretary_client, member))
    assert Payment.objects.filter(member=member).count() == 2


def test_a_payment_form_sent_again_with_another_amount_is_refused(secretary_client, member, season):
    form = _form(secretary_client, member)
    secretary_client.post(reverse("payment_create"), form)
    page = secretary_client.post(reverse("payment_create"), {**form, "amount": "7,00"})
    assert "schon mit anderen Angaben gesendet" in page.content.decode()
    assert list(Payment.objects.filter(member=member).values_list("amount", flat=True)) == [5]


def test_a_form_past_the_body_bound_is_refused_in_german(secretary_client, settings):
    settings.API_MAX_BODY_BYTES = 1000
    page = secretary_client.post(reverse("payment_create"), {"note": "x" * 2000})
    assert page.status_code == 400
    assert "zu groß" in page.content.decode()
