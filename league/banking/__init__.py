"""Money in (issue 14 item 2): the club's bank account and the EPC GiroCode of a member's
open amount."""
