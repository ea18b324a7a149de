"""The club's bank account and the EPC GiroCode of a member's open amount."""

import datetime
from decimal import Decimal

import pytest
import segno

from games.evenings.services import evening_create, game_record
from league.banking.girocode import (
    epc_payload,
    girocode_png,
)
from league.banking.models import ClubBankAccount
from league.banking.selectors import (
    member_girocode,
    member_open_seasons,
)
from league.banking.services import club_bank_account_set
from league.club.errors import BooksError
from league.club.reference import ParsedReference, creditor_reference, parse_reference
from league.club.services import season_get_or_create
from league.ledger.services import payment_record
from tests.factories import ClubFactory, MemberFactory, UserFactory

pytestmark = pytest.mark.django_db

IBAN = "DE89370400440532013000"


@pytest.fixture
def club_books():
    club = ClubFactory(name="Girocodeclub")
    anna = MemberFactory(club=club, name="Anna", is_secretary=True, user=UserFactory())
    bernd = MemberFactory(club=club, name="Bernd", user=UserFactory())
    season = season_get_or_create(club=club, year=2026)
    evening = evening_create(
        club=club,
        date=datetime.date(2026, 10, 9),
        secretary=anna,
        present_members=[anna, bernd],
    )
    for _ in range(5):  # Bernd loses 5 games: 5 Marks at 0.50 EUR = 2.50 EUR
        game_record(evening=evening, loser=bernd)
    return {"club": club, "anna": anna, "bernd": bernd, "season": season}


def _epc_payload(*, holder, iban, bic, amount_text, reference) -> bytes:
    """The EPC069-12 text, written out by hand: service tag, version, charset (2 =
    ISO-8859-1, segno's choice for Latin text), SCT, BIC, name, IBAN, amount, purpose,
    structured reference (the unstructured text after it is empty and left off)."""
    lines = ["BCD", "002", "2", "SCT", bic, holder, iban, amount_text, "", reference]
    return "\n".join(lines).encode("iso-8859-1")


def test_iban_is_validated_and_stored_compact(club_books):
    account = club_bank_account_set(
        club=club_books["club"], holder="Schockclub  Kasse", iban="de89 3704 0044 0532 0130 00"
    )
    assert (account.holder, account.iban, account.bic) == ("Schockclub Kasse", IBAN, "")


@pytest.mark.parametrize(
    ("iban", "bic", "code"),
    [
        ("DE89 3704 0044 0532 0130 01", "", "invalid_iban"),  # checksum
        ("XX00", "", "invalid_iban"),
        ("=1+1", "", "invalid_iban"),
        (IBAN, "XXXX", "invalid_bic"),
    ],
)
def test_bad_iban_or_bic_is_refused_and_nothing_saved(club_books, iban, bic, code):
    with pytest.raises(BooksError) as refused:
        club_bank_account_set(club=club_books["club"], holder="Kasse", iban=iban, bic=bic)
    assert refused.value.code == code
    assert not ClubBankAccount.objects.exists()


def test_the_account_change_is_audited(club_books):
    club_bank_account_set(club=club_books["club"], holder="Kasse", iban=IBAN)
    club_bank_account_set(club=club_books["club"], holder="Neue Kasse", iban=IBAN)
    account = ClubBankAccount.objects.get()
    assert [h.holder for h in account.history.order_by("history_date")] == ["Kasse", "Neue Kasse"]


def test_girocode_carries_iban_amount_and_reference(club_books):
    club_bank_account_set(
        club=club_books["club"], holder="Schockclub Kasse", iban=IBAN, bic="COBADEFFXXX"
    )
    code = member_girocode(member=club_books["bernd"], season=club_books["season"])
    assert code.amount == Decimal("2.50")
    bernd_id, season_id = club_books["bernd"].pk, club_books["season"].pk
    assert code.reference == creditor_reference(member_id=bernd_id, season_id=season_id)
    # Decode the EPC text: the code segno drew is exactly the QR code of this hand-written
    # payload (same modules), so the payload is what a banking app reads.
    payload = _epc_payload(
        holder="Schockclub Kasse",
        iban=IBAN,
        bic="COBADEFFXXX",
        amount_text="EUR2.5",  # segno writes the amount without trailing zeros (EPC allows it)
        reference=code.reference,
    )
    lines = payload.decode("iso-8859-1").split("\n")
    assert lines[:4] == ["BCD", "002", "2", "SCT"]
    assert lines[6] == IBAN
    assert Decimal(lines[7].removeprefix("EUR")) == Decimal("2.50")
    assert parse_reference(lines[9]) == ParsedReference(member_id=bernd_id, season_id=season_id)
    assert payload.decode("iso-8859-1") == epc_payload(code)
    expected = segno.make_qr(payload, error="m", boost_error=False)
    png = girocode_png(code, scale=1)
    assert png == _png(expected)


def _png(qr) -> bytes:
    import io

    buf = io.BytesIO()
    qr.save(buf, kind="png", scale=1, border=4)
    return buf.getvalue()


def test_no_girocode_when_nothing_is_open(club_books):
    club_bank_account_set(club=club_books["club"], holder="Kasse", iban=IBAN)
    payment_record(
        member=club_books["bernd"], amount=Decimal("2.50"), paid_on=datetime.date(2026, 10, 10)
    )
    assert member_girocode(member=club_books["bernd"], season=club_books["season"]) is None
    assert member_open_seasons(member=club_books["bernd"]) == []


def test_no_girocode_in_a_dm_season(club_books):
    club_bank_account_set(club=club_books["club"], holder="Kasse", iban=IBAN)
    dm = season_get_or_create(club=club_books["club"], year=1999)
    evening = evening_create(
        club=club_books["club"],
        date=datetime.date(1999, 10, 8),
        secretary=club_books["anna"],
        present_members=[club_books["anna"], club_books["bernd"]],
    )
    game_record(evening=evening, loser=club_books["bernd"])
    assert member_girocode(member=club_books["bernd"], season=dm) is None
    assert [s.year for s, _ in member_open_seasons(member=club_books["bernd"])] == [2026]


def test_no_girocode_without_a_bank_account(club_books):
    assert member_girocode(member=club_books["bernd"], season=club_books["season"]) is None


def test_the_api_says_when_the_club_has_no_bank_account_yet(client, club_books):
    bernd = club_books["bernd"]
    client.force_login(bernd.user)
    response = client.get(f"/api/v1/members/{bernd.pk}/girocode.png", HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 404
    assert response.json() == {
        "code": "no_girocode",
        "message": "Der Verein hat sein Bankkonto noch nicht eingetragen.",
        "field": None,
    }


def _login(client, member):
    client.force_login(member.user)
    return client


def test_member_gets_own_girocode_png(client, club_books):
    club_bank_account_set(club=club_books["club"], holder="Kasse", iban=IBAN)
    bernd = club_books["bernd"]
    response = _login(client, bernd).get(f"/api/v1/members/{bernd.pk}/girocode.png")
    assert response.status_code == 200
    assert response["Content-Type"] == "image/png"
    assert response.content.startswith(b"\x89PNG")


def test_secretary_gets_a_members_girocode_and_a_member_not_anothers(client, club_books):
    club_bank_account_set(club=club_books["club"], holder="Kasse", iban=IBAN)
    bernd, anna = club_books["bernd"], club_books["anna"]
    url = f"/api/v1/members/{bernd.pk}/girocode.png?season={club_books['season'].pk}"
    assert _login(client, anna).get(url).status_code == 200
    other = MemberFactory(club=club_books["club"], name="Carl", user=UserFactory())
    assert _login(client, other).get(url).status_code == 403


def test_girocode_404_when_nothing_open_and_400_for_a_bad_season(client, club_books):
    club_bank_account_set(club=club_books["club"], holder="Kasse", iban=IBAN)
    anna = club_books["anna"]
    response = _login(client, anna).get(f"/api/v1/members/{anna.pk}/girocode.png")
    assert response.status_code == 404
    assert response.json()["code"] == "no_girocode"
    bad = client.get(f"/api/v1/members/{anna.pk}/girocode.png?season=1E2")
    assert bad.status_code == 400


def test_secretary_sets_the_bank_account_on_the_settings_page(client, club_books):
    _login(client, club_books["anna"])
    response = client.post(
        "/verein/bankkonto/", {"holder": "Kasse", "iban": "DE89 3704 0044 0532 0130 00"}
    )
    assert response.status_code == 302
    assert ClubBankAccount.objects.get().iban == IBAN
    page = client.post("/verein/bankkonto/", {"holder": "Kasse", "iban": "DE00 1234"})
    assert page.status_code == 200
    assert "IBAN ist ungültig" in page.content.decode()


def test_a_member_cannot_open_the_bank_account_page(client, club_books):
    assert _login(client, club_books["bernd"]).get("/verein/bankkonto/").status_code == 403


def test_girocode_page_shows_the_open_season(client, club_books):
    club_bank_account_set(club=club_books["club"], holder="Kasse", iban=IBAN)
    page = _login(client, club_books["bernd"]).get("/marken/girocode/").content.decode()
    assert "2,50" in page
    assert f"/api/v1/members/{club_books['bernd'].pk}/girocode.png" in page


def test_the_payload_text_keeps_a_holder_name_outside_latin_1():
    """segno writes "Ł" in ISO 8859-2 (charset 3), not in ISO 8859-1: the text is read in the
    charset its third line names, and the PNG carries the same bytes as segno's own code."""
    import io

    from segno.helpers import make_epc_qr

    from league.banking.girocode import GiroCode, epc_payload, girocode_png

    code = GiroCode(
        holder="Łukasz Schockclub",
        iban="DE89370400440532013000",
        bic="COBADEFFXXX",
        amount=Decimal("12.50"),
        reference="RF18M1S2",
    )
    lines = epc_payload(code).split("\n")
    assert (lines[2], lines[5]) == ("3", "Łukasz Schockclub")
    expected = io.BytesIO()
    make_epc_qr(
        name=code.holder,
        iban=code.iban,
        amount=code.amount,
        reference=code.reference,
        bic=code.bic,
    ).save(expected, kind="png", scale=6, border=4)
    assert girocode_png(code) == expected.getvalue()
