"""Every limit on what a match may hold, declared once.

The forms, the JSON API, the match file reader and the store all read these, so input is refused at
the same size whichever way it comes in. A real evening at the table is well under a hundred deals;
the limits leave room for that many times over while keeping any one request cheap to check.
"""

from __future__ import annotations

MIN_SIDES = 2  # a match has two to four sides (partnerships or single players)
MAX_SIDES = 4
MAX_PLAYERS = 4  # players named on one side
MAX_DEALS = 1_000  # deals in one match

MAX_MATCH_NAME = 80  # characters in a match's name
MAX_SIDE_NAME = 40  # characters in a side's name
MAX_PLAYER_NAME = 40  # characters in a player's name

MAX_NUMBER = 100_000  # any bid, points or count in a deal: far above any score a deal can give
MAX_DIGITS = 9  # digits a number typed into a form or a query may have (at most 999,999,999)

MAX_JSON_DEPTH = 32  # nested lists and objects in a JSON text (a match file needs eight)
MAX_JSON_DIGITS = 100  # digits of a whole number in a JSON text (a larger one is refused where it stands)

MIN_WRITE_KEY = 8  # characters in the key that names a write (a form's hidden key, an Idempotency-Key)
MAX_WRITE_KEY = 64

MAX_EVENT_ENTRANTS = 200  # players in one club event (50 tables)
MAX_ROUND_MINUTES = 600  # a round of a club event with a time limit: at most ten hours

MAX_TABLE_NAME = 80  # characters in a table's name
MAX_TABLE_PLAYERS = 40  # players a table remembers
MAX_RULE_CARDS = 20  # rule cards a table keeps
MAX_RULE_CARD_NAME = 40  # characters in a rule card's name
MAX_TABLE_MATCHES = 200  # matches one table file may bring in
MAX_TABLE_DEALS = 2_000  # deals one table file may bring in, all its matches together
