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
from .match import Match, SideDetail
from .scoring import MADE, SET, THROWN_IN, DealScore, Sheet, sheet_and_scores


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
    ``checked``: the matches are stored ones, checked at entry (see ``score_match``).

    The same matches asked again answer the same figures from memory (the result is shared: read it,
    do not change it); a match changed in any fact or rule is a different match and is worked out anew.
    """
    played = tuple(matches)
    key = (played, tuple(players), checked)
    known = _TABLES.get(key)
    if known is None:
        tally = _Tally(players)
        for match in played:
            summary = _summary(match, checked)
            if summary is not None:
                tally.add(match, summary)
        known = tally.result()
        if len(_TABLES) >= _TABLES_KEPT:
            _TABLES.clear()
        _TABLES[key] = known
    return known


@dataclass(frozen=True)
class _MatchSummary:
    """What one match adds to its players' figures: its winner, and per player the bids and meld."""

    winner: int | None
    players: tuple[tuple[str, tuple[int, ...]], ...]  # name and its figures, in ``_FIGURES`` order


_FIGURES = ("bids", "made", "set", "thrown_in", "bid_points", "biggest_bid_made", "melds", "meld_points",
            "biggest_meld")
_BIGGEST = (5, 8)  # the figures that keep the largest value rather than add up
_UNKNOWN = object()
_SUMMARIES: dict[tuple[Match, bool], _MatchSummary | None] = {}
_SUMMARIES_KEPT = 20_000
_TABLES: dict[tuple[tuple[Match, ...], tuple[str, ...], bool], TableStats] = {}
_TABLES_KEPT = 8


def forget() -> None:
    """Forget every match and table worked out (a cold start)."""
    _SUMMARIES.clear()
    _TABLES.clear()


def _summary(match: Match, checked: bool) -> _MatchSummary | None:
    """The match's summary, remembered by its facts; None when its facts contradict its rules."""
    key = (match, checked)
    known = _SUMMARIES.get(key, _UNKNOWN)
    if known is not _UNKNOWN:
        return known if isinstance(known, _MatchSummary) else None
    try:
        sheet, scores = sheet_and_scores(match, checked=checked)
    except ContradictionError:
        summary = None
    else:
        summary = _summarise(match, sheet, scores)
    if len(_SUMMARIES) >= _SUMMARIES_KEPT:
        _SUMMARIES.clear()
    _SUMMARIES[key] = summary
    return summary


def _summarise(match: Match, sheet: Sheet, scores: Sequence[DealScore]) -> _MatchSummary:
    """Bids and meld from the first deal up to the one that ended the match."""
    figures: dict[str, list[int]] = {}

    def of(name: str) -> list[int]:
        found = figures.get(name)
        if found is None:
            found = figures[name] = [0, 0, 0, 0, 0, 0, 0, 0, 0]
        return found

    seated = [[of(name) for name in side.players] for side in match.sides]  # each side's players' figures
    last = sheet.ended_at or len(match.deals)
    for deal, score in zip(match.deals[:last], scores[:last]):
        if deal.passed:
            continue
        if deal.bidder is not None and deal.bid is not None:
            bidder = deal.bid_by
            if bidder is None:
                bidding = match.sides[deal.bidder].players
                bidder = bidding[0] if len(bidding) == 1 else None
            if bidder is not None:
                player = of(bidder)
                player[0] += 1
                player[4] += deal.bid
                if score.status == MADE:
                    player[1] += 1
                    player[5] = max(player[5], deal.bid)
                elif score.status == SET:
                    player[2] += 1
                elif score.status == THROWN_IN:
                    player[3] += 1
        for players, entry, hands in zip(seated, deal.sides, score.hand_melds):
            if not hands or len(hands) != len(players) or not isinstance(entry, SideDetail):
                continue
            for player, (points, exact) in zip(players, hands):
                if exact:
                    player[6] += 1
                    player[7] += points
                    if points > player[8]:
                        player[8] = points
    return _MatchSummary(sheet.winner, tuple((name, tuple(values)) for name, values in figures.items()))


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

    def add(self, match: Match, summary: _MatchSummary) -> None:
        for name, (bids, made, set_, thrown_in, bid_points, biggest_bid, melds, meld_points, biggest_meld) \
                in summary.players:
            player = self.stats(name)
            if bids:
                player.bids += bids
                player.made += made
                player.set += set_
                player.thrown_in += thrown_in
                player.bid_points += bid_points
                if made:
                    player.biggest_bid_made = max(player.biggest_bid_made or 0, biggest_bid)
            if melds:
                player.melds += melds
                player.meld_points += meld_points
                player.biggest_meld = max(player.biggest_meld or 0, biggest_meld)
        if summary.winner is None:
            self.unfinished += 1
            return
        self.finished += 1
        self._add_result(match, summary.winner)

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
