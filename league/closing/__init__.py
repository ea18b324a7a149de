"""Season close with the Kassenprüfer sign-off: the open items of a
season, closing it (its books locked, open balances carried into the next season),
reopening it with an audited reason, and the auditors' signatures over a fingerprint of
the season's figures. Writes: `league.closing.services`; reads: `league.closing.selectors`."""
