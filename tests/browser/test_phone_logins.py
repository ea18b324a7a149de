"""The secretary gives a member a login on a phone: through "Mehr"
to the logins page, an invitation link (and its QR code) for Carla Vogt, which Carla opens
to set her own password and log in; the secretary never chooses a password."""

from tests.browser.conftest import fits_the_phone

NEW_PASSWORD = "Sechs-Augen-Wurf-77"


def test_secretary_gives_a_member_a_login_by_invitation(page, live_server, club_cast, log_in):
    log_in(page, "bernd")
    page.click("details.more > summary")
    page.click(".more-menu >> text=Zugänge")
    assert fits_the_phone(page)
    page.locator("li.card", has_text="Carla Vogt").locator("text=Zugang geben").click()
    assert fits_the_phone(page)
    page.click("form button.primary")
    link = page.input_value("input.copy")
    assert "/einladung/" in link or link.startswith("http")
    assert page.locator("img.invitation-qr").is_visible()  # the same link to scan
    assert fits_the_phone(page)

    page.click("details.more > summary")
    page.click(".more-menu button:has-text('Abmelden')")
    page.goto(link)
    assert "carla" in page.inner_text("main")
    page.fill("input[name=new_password1]", NEW_PASSWORD)
    page.fill("input[name=new_password2]", NEW_PASSWORD)
    page.click("form button.primary")
    assert "Willkommen" in page.inner_text(".messages")  # logged in as Carla
    assert fits_the_phone(page)

    page.click("details.more > summary")
    page.click(".more-menu button:has-text('Abmelden')")
    page.goto(live_server.url + "/login/")
    page.fill("#id_username", "carla")
    page.fill("#id_password", NEW_PASSWORD)
    page.click("main form button[type=submit]")
    page.wait_for_url(lambda url: "/login/" not in url)
    assert page.locator("nav.mainnav").is_visible()
