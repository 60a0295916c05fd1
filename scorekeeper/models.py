"""The tables: facts of each match and deal, never a derived score. Each row class is named for its table."""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Integer, String, Text, UniqueConstraint, false
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship
from sqlalchemy.types import DateTime


class Base(DeclarativeBase):
    """Base of every table."""


def utc_now() -> datetime:
    return datetime.now(UTC)


def aware(moment: datetime) -> datetime:
    """A stored moment with its zone (SQLite gives it back without one)."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def utc_iso(moment: datetime) -> str:
    """A stored moment as ISO 8601 in UTC with its ``Z``."""
    return aware(moment).astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def new_public_id() -> str:
    """The match's link: 22 characters, 128 random bits (less a hair: never a leading "-", which a command
    line would read as an option)."""
    while True:
        made = secrets.token_urlsafe(16)
        if not made.startswith("-"):
            return made


def new_watch_id() -> str:
    """The match's watch link (read only): 22 characters, 128 random bits, unrelated to its link."""
    return new_public_id()


def new_edit_token() -> str:
    """The secret that lets the API change a match: 192 random bits."""
    return secrets.token_urlsafe(24)


class MatchRow(Base):
    """A match: its name, house rules (as the match file writes them) and a version for concurrent edits."""

    __tablename__ = "match"

    id: Mapped[int] = mapped_column(primary_key=True)
    public_id: Mapped[str] = mapped_column(String(64), unique=True, index=True, default=new_public_id)
    watch_id: Mapped[str] = mapped_column(String(64), unique=True, index=True, default=new_watch_id)
    edit_token: Mapped[str] = mapped_column(String(64), default=new_edit_token)
    name: Mapped[str] = mapped_column(String(200), default="")
    auction: Mapped[bool] = mapped_column(default=True)
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
    version: Mapped[int] = mapped_column(Integer, nullable=False)
    last_change: Mapped[str] = mapped_column(Text, default="the match was created")
    table_id: Mapped[int | None] = mapped_column(index=True)  # the table it was played at (TableRow.id)
    # The decided match this one is the next match of (``MatchRow.id``): unique, so a match has one next match.
    follows_id: Mapped[int | None] = mapped_column(unique=True, index=True)
    first_dealer: Mapped[str | None] = mapped_column(String(100))  # who deals first, when not the first player
    started_by: Mapped[str | None] = mapped_column(String(100))  # the name of the phone that started it, if any

    sides: Mapped[list[SideRow]] = relationship(
        back_populates="match", order_by="SideRow.position", cascade="all, delete-orphan"
    )
    deals: Mapped[list[DealRow]] = relationship(
        back_populates="match", order_by="DealRow.position", cascade="all, delete-orphan"
    )
    rule_changes: Mapped[list[RuleChangeRow]] = relationship(
        back_populates="match", order_by="RuleChangeRow.id", cascade="all, delete-orphan"
    )
    # The event table it is played at, if any: read with the match itself (a join), so that drawing the
    # sheet of a match of no event costs no statement more.
    event_table: Mapped[EventTableRow | None] = relationship(viewonly=True, lazy="joined")

    # Every write bumps the version; a write based on an older version is refused.
    __mapper_args__ = {"version_id_col": version}


class SideRow(Base):
    """A partnership or a single player, in seat order (position 0 is the first side)."""

    __tablename__ = "side"
    __table_args__ = (UniqueConstraint("match_id", "position"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("match.id", ondelete="CASCADE"), index=True)
    position: Mapped[int]
    name: Mapped[str] = mapped_column(String(100))
    players: Mapped[list[str]] = mapped_column(JSON, default=list)

    match: Mapped[MatchRow] = relationship(back_populates="sides")


class DealRow(Base):
    """What happened in one deal (position 1 is the first deal), with the pricing it was entered under."""

    __tablename__ = "deal"
    __table_args__ = (UniqueConstraint("match_id", "position"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("match.id", ondelete="CASCADE"), index=True)
    position: Mapped[int]
    passed: Mapped[bool] = mapped_column(default=False)
    bidder: Mapped[int | None]
    bid: Mapped[int | None]
    trump: Mapped[str | None] = mapped_column(String(1))
    thrown_in: Mapped[bool] = mapped_column(default=False)
    out: Mapped[bool] = mapped_column(default=False, server_default=false())  # the bidders announced going out
    forced: Mapped[bool] = mapped_column(default=False, server_default=false())  # all passed, dealer's side forced
    bid_by: Mapped[str | None] = mapped_column(String(100))
    dealt_by: Mapped[str | None] = mapped_column(String(100))
    meld_table: Mapped[str] = mapped_column(String(32))
    trick_scale: Mapped[str] = mapped_column(String(32))
    last_trick: Mapped[int]
    meld_prices: Mapped[dict[str, Any] | None] = mapped_column(JSON)  # the table's own, when it had any
    sides: Mapped[list[dict[str, Any]]] = mapped_column(JSON, default=list)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)

    match: Mapped[MatchRow] = relationship(back_populates="deals")


class RuleChangeRow(Base):
    """One house rule changed during the match (values as the match file writes them)."""

    __tablename__ = "rule_change"

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("match.id", ondelete="CASCADE"), index=True)
    changed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
    rule: Mapped[str] = mapped_column(String(32))
    old_value: Mapped[Any] = mapped_column(JSON)
    new_value: Mapped[Any] = mapped_column(JSON)
    after_deal: Mapped[int] = mapped_column(default=0)
    batch: Mapped[int | None] = mapped_column(default=None)  # the rules changed at once share it (the match version)
    action: Mapped[str | None] = mapped_column(String(16), default=None)  # "rescale ×10", "rescale ÷10", "undo"
    by: Mapped[str | None] = mapped_column(String(40), default=None)  # who, as ``DealChangeRow.by``
    by_name: Mapped[str | None] = mapped_column(String(100), default=None)

    match: Mapped[MatchRow] = relationship(back_populates="rule_changes")


class DealChangeRow(Base):
    """One change of a deal, appended in the change's own transaction and never altered: the deal as it
    was (``before``, none when it was entered) and as it became (``after``, none when it was deleted), in
    the match file format with the pricing it was entered under; when, and who (``by``: ``phone:<id>``,
    ``api``, or none for the command line, with the name the phone gave at the time). ``deal_id`` is the
    deal's row id, kept by a deal put back by an undo; ``number`` its place then; ``version`` the match's
    version the change made (a match file's deals share the first)."""

    __tablename__ = "deal_change"

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("match.id", ondelete="CASCADE"), index=True)
    deal_id: Mapped[int] = mapped_column(index=True)
    number: Mapped[int]
    version: Mapped[int]
    changed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
    by: Mapped[str | None] = mapped_column(String(40))
    by_name: Mapped[str | None] = mapped_column(String(100))
    before: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    after: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    undo: Mapped[bool] = mapped_column(default=False)  # the change took back the one before it


class WriteKeyRow(Base):
    """A write already done to a match, named by the key its form or API client sent with it.

    Stored in the write's own transaction under a unique (match, key) constraint, so a repeated write
    (a double tap, a retry after a lost answer) finds the first one's result instead of writing again,
    whichever worker or database it reaches. ``fingerprint`` tells a repeat from another write that
    reuses the key; ``number`` and ``version`` are what the first write answered.
    """

    __tablename__ = "write_key"
    __table_args__ = (UniqueConstraint("match_id", "key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("match.id", ondelete="CASCADE"))
    key: Mapped[str] = mapped_column(String(64))
    fingerprint: Mapped[str] = mapped_column(String(64))
    number: Mapped[int | None]
    version: Mapped[int]
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
    started_match_id: Mapped[int | None]  # a rematch: the match it started (``match.id``)


class TableRow(Base):
    """A table: the people who play together, their saved house rules and their matches (``MatchRow.table_id``).
    Its link and edit token work as a match's do."""

    __tablename__ = "play_table"

    id: Mapped[int] = mapped_column(primary_key=True)
    public_id: Mapped[str] = mapped_column(String(64), unique=True, index=True, default=new_public_id)
    edit_token: Mapped[str] = mapped_column(String(64), default=new_edit_token)
    name: Mapped[str] = mapped_column(String(200), default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
    season_best: Mapped[int | None]  # a season counts each player's best N events; empty: every event

    players: Mapped[list[TablePlayerRow]] = relationship(
        order_by="TablePlayerRow.position", cascade="all, delete-orphan"
    )
    rule_cards: Mapped[list[RuleCardRow]] = relationship(
        order_by="RuleCardRow.position", cascade="all, delete-orphan"
    )


class TablePlayerRow(Base):
    """A player of a table, in the order they were added; ``name_key`` (the name casefolded) is unique per table."""

    __tablename__ = "table_player"
    __table_args__ = (UniqueConstraint("table_id", "name_key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("play_table.id", ondelete="CASCADE"), index=True)
    position: Mapped[int]
    name: Mapped[str] = mapped_column(String(100))
    name_key: Mapped[str] = mapped_column(String(200))


class RuleCardRow(Base):
    """A table's named set of every house rule (values as the match file writes them)."""

    __tablename__ = "rule_card"
    __table_args__ = (UniqueConstraint("table_id", "name_key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("play_table.id", ondelete="CASCADE"), index=True)
    position: Mapped[int]
    name: Mapped[str] = mapped_column(String(100))
    name_key: Mapped[str] = mapped_column(String(200))
    auction: Mapped[bool] = mapped_column(default=True)
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)


class EventRow(Base):
    """A club night or tournament: its director's link and API token, its public standings link, what
    every round of it is played under, and the table (the club) holding it, if any. ``version`` moves on
    with each of the director's writes, so that a write read from an older version (another director got
    in first) is refused."""

    __tablename__ = "event"

    id: Mapped[int] = mapped_column(primary_key=True)
    public_id: Mapped[str] = mapped_column(String(64), unique=True, index=True, default=new_public_id)
    standings_id: Mapped[str] = mapped_column(String(64), unique=True, index=True, default=new_public_id)
    director_token: Mapped[str] = mapped_column(String(64), default=new_edit_token)
    name: Mapped[str] = mapped_column(String(200), default="")
    format: Mapped[str] = mapped_column(String(16))  # rules.events.EventFormat
    auction: Mapped[bool] = mapped_column(default=True)
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)  # as the match file writes them
    round_end: Mapped[str] = mapped_column(String(16))  # rules.events.RoundEndKind
    round_end_count: Mapped[int | None]  # deals or minutes; empty for a game to the target
    rounds: Mapped[int]
    # A team event's rules.movements.Movement; empty: the one its number of rounds chooses.
    movement: Mapped[str | None] = mapped_column(String(16))
    ranking: Mapped[str] = mapped_column(String(16), default="points", server_default="points")  # rules.events.Ranking
    version: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
    # The table (the club) holding it (TableRow.id): its matches are that table's too, as a match's ``table_id``.
    table_id: Mapped[int | None] = mapped_column(index=True)

    entrants: Mapped[list[EventEntrantRow]] = relationship(
        order_by="EventEntrantRow.position", cascade="all, delete-orphan"
    )
    played_rounds: Mapped[list[EventRoundRow]] = relationship(
        order_by="EventRoundRow.number", cascade="all, delete-orphan"
    )
    withdrawals: Mapped[list[EventWithdrawalRow]] = relationship(
        order_by="EventWithdrawalRow.id", cascade="all, delete-orphan"
    )
    corrections: Mapped[list[EventCorrectionRow]] = relationship(
        order_by="EventCorrectionRow.id", cascade="all, delete-orphan"
    )


class EventEntrantRow(Base):
    """A player (progressive) or a team of two (team format) of an event, in the order they were entered."""

    __tablename__ = "event_entrant"
    __table_args__ = (UniqueConstraint("event_id", "position"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("event.id", ondelete="CASCADE"), index=True)
    position: Mapped[int]
    players: Mapped[list[str]] = mapped_column(JSON)


class EventWithdrawalRow(Base):
    """A player out of an event: withdrawn from round ``from_round`` on (not seated again; a no-show
    withdrawn from the current round before its first deal), or, with a ``substitute``, replaced at their
    seat for the rest of round ``from_round`` only. When the director wrote it."""

    __tablename__ = "event_withdrawal"

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("event.id", ondelete="CASCADE"), index=True)
    player: Mapped[str] = mapped_column(String(100))
    from_round: Mapped[int]
    substitute: Mapped[str | None] = mapped_column(String(100))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)


class EventRoundRow(Base):
    """A round as it was seated (after any swap): each table's two sides and the byes, in the form
    ``{"tables": [[[names], [names]], …], "byes": [[names], …]}``; when it started and closed."""

    __tablename__ = "event_round"
    __table_args__ = (UniqueConstraint("event_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("event.id", ondelete="CASCADE"), index=True)
    number: Mapped[int]
    seating: Mapped[dict[str, Any]] = mapped_column(JSON)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
    closed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # A time-limited round's clock, as the director ran it (``rules.events.Clock``).
    paused_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    paused_seconds: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    extra_minutes: Mapped[int] = mapped_column(Integer, default=0, server_default="0")

    tables: Mapped[list[EventTableRow]] = relationship(
        order_by="EventTableRow.number", cascade="all, delete-orphan"
    )


class EventTableRow(Base):
    """A table of a round: its number and the ordinary match played there (one event table per match).
    A table the director closed late counts its first ``closed_after`` deals: its score as it stood."""

    __tablename__ = "event_table"
    __table_args__ = (UniqueConstraint("round_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("event_round.id", ondelete="CASCADE"), index=True)
    number: Mapped[int]
    match_id: Mapped[int] = mapped_column(ForeignKey("match.id", ondelete="CASCADE"), unique=True)
    closed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    closed_after: Mapped[int | None]  # deals counted, when closed late

    match: Mapped[MatchRow] = relationship()


class EventCorrectionRow(Base):
    """A change the director made to a closed table, with when and why: a deal corrected or deleted at its
    match (``before``/``after`` the deal as the match file writes it, ``after`` empty for a delete), or an
    adjusted score given to the table (``totals``, each side's points for the event; empty: the adjusted
    score withdrawn). Kept for ever, shown with the standings."""

    __tablename__ = "event_correction"

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("event.id", ondelete="CASCADE"), index=True)
    round: Mapped[int]
    table: Mapped[int]
    kind: Mapped[str] = mapped_column(String(16))  # events.corrections.Kind
    deal: Mapped[int | None]
    before: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    after: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    totals: Mapped[list[int] | None] = mapped_column(JSON)
    reason: Mapped[str] = mapped_column(Text)
    made_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
