"""Statistics of the players who play together, worked out from their matches' recorded facts.

Nothing here is stored: every figure comes from recomputing the matches under the rules in force, so a
house-rule change in a match changes the statistics with its sheet. A match counts as played (and won
or lost) once it has a winner; its bids and meld count from its first deal, up to the deal that ended it.

A bid belongs to the player named in ``bid_by``, or to the bidding side's only player; meld belongs to a
player when the side recorded one meld per player (the list form) or has a single player.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from .errors import ContradictionError
from .match import Deal, Match, SideDetail
from .pricing import price_meld
from .scoring import Sheet, score_match


@dataclass
class PlayerStats:
    """One player's figures at the table."""

    name: str
    matches: int = 0  # finished matches played
    won: int = 0
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


@dataclass(frozen=True)
class FormPoint:
    """A player's record after each finished match, in the order the matches were played."""

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
    ``checked``: the matches are stored ones, checked at entry (see ``score_match``)."""
    tally = _Tally(players)
    for match in matches:
        try:
            sheet = score_match(match, checked=checked)
        except ContradictionError:
            continue
        tally.add(match, sheet)
    return tally.result()


class _Tally:
    def __init__(self, players: Sequence[str]) -> None:
        self.players: dict[str, PlayerStats] = {name: PlayerStats(name) for name in players}
        self.partnerships: dict[tuple[str, ...], Together] = {}
        self.faced: dict[tuple[str, str], Together] = {}
        self.form: dict[str, list[FormPoint]] = defaultdict(list)
        self.finished = 0
        self.unfinished = 0

    def stats(self, name: str) -> PlayerStats:
        found = self.players.get(name)
        if found is None:
            found = self.players[name] = PlayerStats(name)
        return found

    def add(self, match: Match, sheet: Sheet) -> None:
        for side in match.sides:
            for name in side.players:
                self.stats(name)
        last = sheet.ended_at or len(match.deals)
        for deal, line in zip(match.deals[:last], sheet.deals[:last]):
            if not deal.passed:
                self._add_bid(match, deal, line.status)
                self._add_meld(match, deal)
        if sheet.winner is None:
            self.unfinished += 1
            return
        self.finished += 1
        self._add_result(match, sheet.winner)

    def _add_bid(self, match: Match, deal: Deal, status: str) -> None:
        if deal.bidder is None or deal.bid is None:
            return
        name = deal.bid_by
        if name is None:
            bidding = match.sides[deal.bidder].players
            name = bidding[0] if len(bidding) == 1 else None
        if name is None:
            return
        player = self.stats(name)
        player.bids += 1
        player.bid_points += deal.bid
        if status == "made":
            player.made += 1
            player.biggest_bid_made = max(player.biggest_bid_made or 0, deal.bid)
        elif status == "set":
            player.set += 1
        elif status == "thrown_in":
            player.thrown_in += 1

    def _add_meld(self, match: Match, deal: Deal) -> None:
        for side, entry in zip(match.sides, deal.sides):
            if not isinstance(entry, SideDetail) or not entry.meld or len(entry.meld) != len(side.players):
                continue
            for name, fact in zip(side.players, entry.meld):
                points, exact = price_meld(fact, deal, match.rules)
                if exact:
                    player = self.stats(name)
                    player.melds += 1
                    player.meld_points += points
                    player.biggest_meld = max(player.biggest_meld or 0, points)

    def _add_result(self, match: Match, winner: int) -> None:
        for index, side in enumerate(match.sides):
            won = index == winner
            for name in side.players:
                player = self.stats(name)
                player.matches += 1
                player.won += won
                self.form[name].append(FormPoint(player.matches, player.won))
            if len(side.players) > 1:
                key = tuple(sorted(side.players))
                together = self.partnerships.setdefault(key, Together(key))
                together.matches += 1
                together.won += won
        seated = [(index, name) for index, side in enumerate(match.sides) for name in side.players]
        for (i, a), (j, b) in combinations(seated, 2):
            if i == j:
                continue
            if b < a:
                (i, a), (j, b) = (j, b), (i, a)
            facing = self.faced.setdefault((a, b), Together((a, b)))
            facing.matches += 1
            facing.won += winner == i
            facing.lost += winner == j

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
