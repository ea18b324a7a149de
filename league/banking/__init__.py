"""Money in: the club's bank account and the EPC GiroCode of a member's
open amount."""
