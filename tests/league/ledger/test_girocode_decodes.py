"""The GiroCode really decodes, end to end: the PNG a person's banking app would scan (its
real URL, ``GET /api/v1/members/{id}/girocode.png``) is read back by a QR decoder of its
own (zbar's ``zbarimg``, not segno that drew it), its EPC payload names the club account,
the open amount and a valid RF reference, and a CAMT.053 statement carrying exactly what
was decoded settles the person's open amount, once.

zbarimg comes with Debian's ``zbar-tools``, which .ci/run installs; without it the test is
skipped with that reason.
"""

import shutil
import subprocess
from decimal import Decimal

import pytest
from stdnum import iso11649

from league.banking.services import club_bank_account_set
from league.club.reference import parse_reference
from league.ledger.models import Payment
from league.ledger.selectors import member_balance
from tests.league.ledger.test_bank_statements import (  # noqa: F401 (books: a fixture)
    IBAN,
    _client,
    _file,
    _post,
    books,
)

pytestmark = pytest.mark.django_db

ZBARIMG = shutil.which("zbarimg")
# Not ASCII: the payload's charset line says ISO-8859-1, and the name must survive the
# round trip through the image byte for byte.
HOLDER = "Würfelfreunde Kasse"


def _decode(png: bytes, tmp_path) -> bytes:
    """The bytes of the one QR code in `png`, as zbarimg reads them (``-Sbinary``: the
    payload's own bytes, not re-encoded to UTF-8)."""
    path = tmp_path / "girocode.png"
    path.write_bytes(png)
    done = subprocess.run(
        [ZBARIMG, "--raw", "-q", "-Sbinary", str(path)],
        capture_output=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    return done.stdout


@pytest.mark.skipif(ZBARIMG is None, reason="zbarimg is not installed (apt-get install zbar-tools)")
def test_the_girocode_png_decodes_and_its_transfer_settles_the_open_amount(
    books,  # noqa: F811 (the fixture imported above)
    tmp_path,
):
    club, bernd, season = books["club"], books["bernd"], books["season"]
    club_bank_account_set(club=club, holder=HOLDER, iban=IBAN)
    assert member_balance(member=bernd, season=season) == Decimal("2.50")

    response = _client(bernd).get(f"/api/v1/members/{bernd.pk}/girocode.png")
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "image/png"
    raw = _decode(response.content, tmp_path)

    # EPC069-12 version 002: service tag, version, charset (2: ISO-8859-1), SEPA credit
    # transfer, BIC (empty: optional within the EEA), name, IBAN, amount, purpose code,
    # structured reference; the unstructured text after it is empty and left off.
    lines = raw.decode("iso-8859-1").split("\n")
    assert lines[:4] == ["BCD", "002", "2", "SCT"]
    assert lines[4:7] == ["", HOLDER, IBAN]
    assert lines[7].startswith("EUR")
    amount = Decimal(lines[7].removeprefix("EUR"))
    assert amount == Decimal("2.50")
    assert lines[8] == ""
    reference = lines[9]
    assert iso11649.is_valid(reference), reference
    parsed = parse_reference(reference)
    assert parsed is not None
    assert (parsed.member_id, parsed.season_id) == (bernd.pk, season.pk)
    assert len(lines) == 10

    # The bank statement of that transfer, with what the banking app read from the code.
    statement = _file("camt053_v08.xml", reference, amount)
    first = _post(books, statement)
    assert first.status_code == 200, first.content
    body = first.json()
    assert [(s["member"], s["parts"][0]["amount"]) for s in body["settled"]] == [(bernd.pk, "2.50")]
    assert member_balance(member=bernd, season=season) == 0
    nothing_open = _client(bernd).get(f"/api/v1/members/{bernd.pk}/payment/")
    assert (nothing_open.status_code, nothing_open.json()["code"]) == (404, "no_girocode")
    payments = Payment.objects.filter(member=bernd).count()
    assert payments == 1

    again = _post(books, statement)
    assert again.status_code == 200, again.content
    body = again.json()
    assert body["settled"] == []
    assert [d["purpose"] for d in body["duplicates"]] == [reference]
    assert Payment.objects.filter(member=bernd).count() == payments
    assert member_balance(member=bernd, season=season) == 0
