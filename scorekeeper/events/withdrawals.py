"""The director's changes to who plays: a player withdrawn from a round on (a no-show: from the current round,
before its first deal, which is then seated again), and a substitute in a player's seat for the rest of a
round. Both are kept as ``EventWithdrawalRow``; the rules are those of docs/rules.md (club events)."""

from __future__ import annotations

from itertools import zip_longest

from ..db import get_session
from ..models import EventRoundRow, EventRow, EventTableRow, EventWithdrawalRow
from ..rules.errors import RulesError
from ..rules.limits import MAX_PLAYER_NAME
from ..rules.problems import ProblemCode
from ..rules.refusals import Conflict, Invalid
from ..rules.rotation import fitted_side_name
from ..rules.seating import seat_round
from ..rules.text import clean_name
from .director import (
    ROUND_CLOSED,
    ROUND_STARTED,
    check_version,
    claim,
    commit,
    round_being_played,
    start_match,
)
from .loading import (
    chosen_movement,
    current_round,
    entrants,
    event_format,
    playing_entrants,
    seating_json,
    seating_of,
    withdrawn,
)

WITHDRAWN = "withdrawn"  # the player was withdrawn already


def _entrant_name(event: EventRow, name: str, field: str = "player") -> str:
    """The name as the event entered it (case aside), or 422 ``player_unknown``."""
    found = next((known for entrant in entrants(event) for known in entrant if known.casefold() == name.casefold()),
                 None)
    if found is None:
        raise Invalid(field, ProblemCode.PLAYER_UNKNOWN, f"{name} does not play in this event")
    return found


def first_round_to_miss(event: EventRow) -> int:
    """The round a withdrawal starts from unless told: the current one before its first deal, else the next."""
    current = event.played_rounds[-1] if event.played_rounds else None
    if current is not None and current.closed_at is None and not any(table.match.deals for table in current.tables):
        return current.number
    return min(len(event.played_rounds) + 1, event.rounds)


def withdraw(event: EventRow, player: str, from_round: int, expected: int | None) -> EventWithdrawalRow:
    """Withdraw ``player`` (a team event: their team) from round ``from_round`` on: not seated again, and
    what they earned before stays theirs. From the current round only before its first deal (a no-show):
    that round is seated again without them."""
    check_version(event, expected)
    name = _entrant_name(event, player)
    if name in withdrawn(event):
        raise Conflict("player", WITHDRAWN, f"{name} was withdrawn from round {withdrawn(event)[name]} on")
    if not 1 <= from_round <= event.rounds:
        raise Invalid("from_round", ProblemCode.OUT_OF_RANGE,
                           f"the event has rounds 1 to {event.rounds}, not {from_round}")
    played = current_round(event)
    next_round = len(event.played_rounds) + 1
    again: EventRoundRow | None = None
    if from_round < next_round:
        assert played is not None
        if from_round < played.number or played.closed_at is not None:
            raise Conflict("from_round", ROUND_CLOSED, f"round {from_round} has been played: withdraw "
                               f"from round {next_round} on (what was earned stays)")
        if any(table.match.deals for table in played.tables):
            raise Conflict("from_round", ROUND_STARTED, f"round {from_round} has started: withdraw from "
                               f"round {next_round} on, or put a substitute in the seat")
        again = played
    left = [entrant for entrant in playing_entrants(event, from_round) if name not in entrant]
    if len(left) * event_format(event).entrant_size < 4:
        raise Invalid("player", ProblemCode.TOO_FEW_ENTRANTS,
                           f"without {name} too few would be left to fill a table")
    claim(event)
    row = EventWithdrawalRow(player=name, from_round=from_round)
    event.withdrawals.append(row)
    if again is not None:
        _seat_again(event, again, f"the director withdrew {name}: the round was seated again")
    commit()
    return row


def _seat_again(event: EventRow, played: EventRoundRow, why: str) -> None:
    """Seat round ``played`` (not started) again with those still playing: the tables' matches take their
    new sides, a table no longer needed goes with its match (it has no deal)."""
    past = [seating_of(before) for before in event.played_rounds if before.number < played.number]
    seating = seat_round(event_format(event), playing_entrants(event, played.number), past, event.rounds,
                         chosen_movement(event))
    played.seating = seating_json(seating)
    for table, seated in zip_longest(list(played.tables), seating.tables):
        if seated is None:
            played.tables.remove(table)
            get_session().delete(table.match)
        elif table is None:
            played.tables.append(EventTableRow(number=seated.number, match=start_match(event, played.number, seated)))
        else:
            for side, players in zip(table.match.sides, seated.sides, strict=True):
                side.players = list(players)
                side.name = fitted_side_name(players)
            table.match.last_change = why


def substitute(event: EventRow, number: int, player: str, substitute: str, expected: int | None) -> EventTableRow:
    """Put ``substitute`` in ``player``'s seat for the rest of round ``number`` (the current one): the side's
    name shows them; the seat's points stay the player's."""
    check_version(event, expected)
    played = round_being_played(event, number)
    name = _entrant_name(event, player)
    seated = seating_of(played).table_of(name)
    if seated is None:
        raise Invalid("player", ProblemCode.PLAYER_UNKNOWN, f"{name} is not at a table in round {number}")
    try:
        cleaned = clean_name(substitute, "substitute", MAX_PLAYER_NAME, "a substitute's name")
    except RulesError as error:
        raise Invalid("substitute", error.code, error.problem.message) from None
    if not cleaned:
        raise Invalid("substitute", ProblemCode.NAME_MISSING, "a substitute needs a name")
    taken = {known.casefold() for entrant in entrants(event) for known in entrant}
    if cleaned.casefold() in taken:
        raise Invalid("substitute", ProblemCode.DUPLICATE_PLAYER,
                           f"{cleaned} plays in this event: swap seats before the round instead")
    claim(event)
    event.withdrawals.append(EventWithdrawalRow(player=name, from_round=number, substitute=cleaned))
    table = played.tables[seated.number - 1]
    for side in table.match.sides:
        if name in side.players:
            side.name = fitted_side_name([f"{cleaned} for {known}" if known == name else known
                                          for known in side.players])
    table.match.last_change = f"the director put {cleaned} in {name}'s seat"
    commit()
    return table
