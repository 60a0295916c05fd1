"""Statistics of the players who play together, worked out from their matches' recorded facts.

Nothing here is stored: every figure comes from recomputing the matches under the rules in force, so a
house-rule change in a match changes the statistics with its sheet. A match counts as played (and won
or lost) once it has a winner, as in progress before; its bids and meld count from its first deal, up to
the deal that ended it, in finished matches and in those in progress alike.

A bid belongs to the player named in ``bid_by``, or to the bidding side's only player; meld belongs to a
player when the side recorded one meld per player (the list form) or has a single player.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import NamedTuple

from .errors import ContradictionError
from .match import Match, SideDetail, SideInfo
from .scoring import MADE, SET, THROWN_IN, Settled, play, settle_match


@dataclass
class PlayerStats:
    """One player's figures at the table."""

    name: str
    matches: int = 0  # finished matches played
    won: int = 0
    in_progress: int = 0  # matches seated in that have no winner yet
    bids: int = 0  # auctions won
    made: int = 0
    set: int = 0
    thrown_in: int = 0
    bid_points: int = 0  # the sum of the bids, for the average
    biggest_bid_made: int | None = None
    melds: int = 0  # hands whose meld is known
    meld_points: int = 0
    biggest_meld: int | None = None

    @property
    def win_percent(self) -> float | None:
        return _percent(self.won, self.matches)

    @property
    def made_percent(self) -> float | None:
        return _percent(self.made, self.bids)

    @property
    def average_bid(self) -> float | None:
        return self.bid_points / self.bids if self.bids else None

    @property
    def average_meld(self) -> float | None:
        return self.meld_points / self.melds if self.melds else None


@dataclass
class Together:
    """Players who sat on one side (a partnership), or two players facing each other (head to head)."""

    players: tuple[str, ...]
    matches: int = 0
    won: int = 0  # partnership: won together; head to head: won by ``players[0]``
    lost: int = 0  # head to head: won by ``players[1]``

    @property
    def win_percent(self) -> float | None:
        return _percent(self.won, self.matches)


class FormPoint(NamedTuple):
    """A player's record after each finished match, in the order the matches were played (a named tuple:
    a big table has one for every player of every match)."""

    played: int
    won: int

    @property
    def win_percent(self) -> float:
        return 100 * self.won / self.played


@dataclass(frozen=True)
class TableStats:
    """Every figure of a table: players by name, partnerships, head to head, each player's form."""

    players: tuple[PlayerStats, ...]
    partnerships: tuple[Together, ...]
    head_to_head: tuple[Together, ...]
    form: dict[str, tuple[FormPoint, ...]] = field(default_factory=dict)
    matches: int = 0  # finished matches
    unfinished: int = 0

    def player(self, name: str) -> PlayerStats | None:
        return next((p for p in self.players if p.name == name), None)


def table_stats(matches: Iterable[Match], players: Sequence[str] = (), checked: bool = False) -> TableStats:
    """The statistics of ``matches`` (in the order they were played); ``players`` are listed even with
    no match yet. A match whose facts contradict its rules is left out, as its sheet cannot be drawn;
    ``checked``: the matches are stored ones, checked at entry (see ``score_match``).
    """
    tally = _Tally(players)
    for match in matches:
        summary = _summary(match, checked)
        if summary is not None:
            tally.add(match, summary)
    return tally.result()


@dataclass(slots=True)
class _Figures:
    """What one match adds to one player's figures."""

    bids: int = 0
    made: int = 0
    set: int = 0
    thrown_in: int = 0
    bid_points: int = 0
    biggest_bid_made: int = 0
    melds: int = 0
    meld_points: int = 0
    biggest_meld: int = 0


class _Summary(NamedTuple):
    """What one match adds to its players' figures: its winner (None: unfinished) and each player's figures
    (those seated, then any other who won an auction)."""

    winner: int | None
    figures: dict[str, _Figures]


def _summary(match: Match, checked: bool) -> _Summary | None:
    """The match's summary; None when its facts contradict its rules."""
    try:
        return _summarise(match, settle_match(match, checked=checked))
    except ContradictionError:
        return None


def _summarise(match: Match, settled: list[Settled]) -> _Summary:
    """Bids and meld from the first deal up to the one that ended the match."""
    standing = play(match, settled)
    figures: dict[str, _Figures] = {}
    seated = [[figures.setdefault(name, _Figures()) for name in side.players] for side in match.sides]
    alone = [side.players[0] if len(side.players) == 1 else None for side in match.sides]  # a side's only player
    ended_at = standing.ended_at
    deals = match.deals if ended_at is None else match.deals[:ended_at]
    for deal, outcome in zip(deals, settled):
        if deal.passed:
            continue
        bid = deal.bid
        if bid is not None and deal.bidder is not None:
            bidder = deal.bid_by
            if bidder is None:
                bidder = alone[deal.bidder]
            if bidder is not None:
                player = figures.get(bidder)
                if player is None:
                    player = figures[bidder] = _Figures()
                player.bids += 1
                player.bid_points += bid
                status = outcome.status
                if status == MADE:
                    player.made += 1
                    if bid > player.biggest_bid_made:
                        player.biggest_bid_made = bid
                elif status == SET:
                    player.set += 1
                elif status == THROWN_IN:
                    player.thrown_in += 1
        melds = outcome.hand_melds
        if not melds:
            continue
        start = 0
        for players, entry in zip(seated, deal.sides):
            if not isinstance(entry, SideDetail):
                continue
            count = len(entry.meld)
            if count == len(players):
                for seat, points in zip(players, melds[start:start + count]):
                    if points is not None:
                        seat.melds += 1
                        seat.meld_points += points
                        if points > seat.biggest_meld:
                            seat.biggest_meld = points
            start += count
    return _Summary(standing.winner, figures)


# A seating: each partnership (the side's index, its players in order of name) and each pair of players
# facing each other (their sides' indexes, their names in order).
_Seating = tuple[tuple[tuple[int, tuple[str, ...]], ...], tuple[tuple[int, int, tuple[str, str]], ...]]


class _Tally:
    def __init__(self, players: Sequence[str]) -> None:
        self.players: dict[str, PlayerStats] = {name: PlayerStats(name) for name in players}
        self.partnerships: dict[tuple[str, ...], Together] = {}
        self.faced: dict[tuple[str, str], Together] = {}
        self.form: dict[str, list[FormPoint]] = defaultdict(list)
        self.seatings: dict[tuple[SideInfo, ...], _Seating] = {}
        self.finished = 0
        self.unfinished = 0

    def add(self, match: Match, summary: _Summary) -> None:
        winner = summary.winner
        known = self.players
        for name, figures in summary.figures.items():
            player = known.get(name)
            if player is None:
                player = known[name] = PlayerStats(name)
            if figures.bids:
                player.bids += figures.bids
                player.made += figures.made
                player.set += figures.set
                player.thrown_in += figures.thrown_in
                player.bid_points += figures.bid_points
                if figures.made:
                    player.biggest_bid_made = max(player.biggest_bid_made or 0, figures.biggest_bid_made)
            if figures.melds:
                player.melds += figures.melds
                player.meld_points += figures.meld_points
                player.biggest_meld = max(player.biggest_meld or 0, figures.biggest_meld)
        if winner is None:
            self.unfinished += 1
            for side in match.sides:
                for name in side.players:
                    known[name].in_progress += 1
            return
        self.finished += 1
        self._add_result(match, winner)

    def _add_result(self, match: Match, winner: int) -> None:
        known, form = self.players, self.form
        for index, side in enumerate(match.sides):
            won = index == winner
            for name in side.players:
                player = known[name]  # every seated player is among the summary's names
                player.matches += 1
                player.won += won
                form[name].append(FormPoint(player.matches, player.won))
        partnerships, facing = self._seating(match.sides)
        for index, key in partnerships:
            together = self.partnerships.get(key)
            if together is None:
                together = self.partnerships[key] = Together(key)
            together.matches += 1
            together.won += index == winner
        for i, j, pair in facing:
            facing_pair = self.faced.get(pair)
            if facing_pair is None:
                facing_pair = self.faced[pair] = Together(pair)
            facing_pair.matches += 1
            facing_pair.won += winner == i
            facing_pair.lost += winner == j

    def _seating(self, sides: tuple[SideInfo, ...]) -> _Seating:
        """Who partners whom and who faces whom in a match between ``sides`` (the same few seatings come
        back all evening, so each is worked out once)."""
        found = self.seatings.get(sides)
        if found is None:
            partnerships = tuple((index, tuple(sorted(side.players))) for index, side in enumerate(sides)
                                 if len(side.players) > 1)
            seated = [(index, name) for index, side in enumerate(sides) for name in side.players]
            facing = []
            for (i, a), (j, b) in combinations(seated, 2):
                if i == j:
                    continue
                if b < a:
                    (i, a), (j, b) = (j, b), (i, a)
                facing.append((i, j, (a, b)))
            found = self.seatings[sides] = (partnerships, tuple(facing))
        return found

    def result(self) -> TableStats:
        return TableStats(
            players=tuple(sorted(self.players.values(), key=lambda p: p.name.casefold())),
            partnerships=tuple(sorted(self.partnerships.values(), key=lambda t: (-t.matches, t.players))),
            head_to_head=tuple(sorted(self.faced.values(), key=lambda t: t.players)),
            form={name: tuple(points) for name, points in self.form.items()},
            matches=self.finished,
            unfinished=self.unfinished,
        )


def _percent(part: int, whole: int) -> float | None:
    return 100 * part / whole if whole else None
