"""The ``scorekeeper`` command: meld of a hand, the sheet of a match file, the web app."""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict, TypeVar

import click

from .instance import StartupError
from .rules.cards import Deck, Hand, Suit
from .rules.errors import RulesError
from .rules.house_rules import RULE_SPECS_BY_KEY, MeldTableName, RuleKind
from .rules.match import Match
from .rules.matchfile import loads_match
from .rules.meld import MeldResult, best_meld, meld_all_trumps
from .rules.refusals import Invalid
from .rules.scoring import Sheet, score_match
from .rules.text import load_json
from .samples import BadSample, read_samples, sample_public_id, seeds_dir

if TYPE_CHECKING:
    from sqlalchemy import Connection, Engine

F = TypeVar("F", bound=Callable[..., Any])

DEFAULT_TABLE = {Deck.SINGLE: MeldTableName.SINGLE_CLASSIC, Deck.DOUBLE: MeldTableName.DOUBLE_SMALL}


@click.group(help="Keep the score of a Pinochle match.")
def cli() -> None:
    pass


@cli.command(help="Work out the best meld of a hand, e.g. scorekeeper meld --trump H AH 10H KH QH JH.")
@click.option("--deck", type=click.Choice([d.value for d in Deck]), default="double", show_default=True)
@click.option("--table", type=click.Choice([t.value for t in MeldTableName]),
              help="Meld values [default: single-classic for a single deck, double-small for a double deck]")
@click.option("--trump", help="S, H, D or C; leave out to see all four trumps, best first.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.argument("cards", nargs=-1, required=True)
def meld(deck: str, table: str | None, trump: str | None, as_json: bool, cards: Sequence[str]) -> None:
    chosen_deck = Deck(deck)
    chosen_table = MeldTableName(table) if table else DEFAULT_TABLE[chosen_deck]
    hand = Hand.from_text(list(cards), chosen_deck)
    if trump is not None:
        result = best_meld(hand, Suit.from_text(trump), chosen_table)
        click.echo(json.dumps(result.to_json()) if as_json else format_meld(result))
        return
    results = meld_all_trumps(hand, chosen_table)
    if as_json:
        click.echo(json.dumps([r.to_json() for r in results]))
    else:
        click.echo("\n\n".join(format_meld(r) for r in results))


@cli.command(help="Recompute the score sheet of a match file.")
@click.argument("match_file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the sheet as JSON.")
@click.option("--set", "overrides", multiple=True, metavar="RULE=VALUE",
              help="Change a house rule for this run, e.g. --set target=200 (repeatable).")
def score(match_file: Path, as_json: bool, overrides: Sequence[str]) -> None:
    try:
        text = match_file.read_text(encoding="utf-8")
    except OSError as error:
        raise click.UsageError(f"cannot read {match_file}: {error.strerror}") from None
    match = loads_match(text)
    if overrides:
        match = match.with_rules(match.rules.replace(**parse_overrides(overrides)))
    sheet = score_match(match)
    click.echo(json.dumps(sheet.to_json()) if as_json else format_sheet(match, sheet))


def parse_overrides(overrides: Sequence[str]) -> dict[str, object]:
    """``["target=200"]`` → ``{"target": "200"}``; the rules core validates the values. The table's own meld
    prices are JSON: ``meld_prices='{"pinochle": [40, null]}'``."""
    changes: dict[str, object] = {}
    for item in overrides:
        key, sep, value = item.partition("=")
        if not sep:
            raise click.UsageError(f"--set takes RULE=VALUE, not '{item}'")
        if key.strip() not in RULE_SPECS_BY_KEY:
            raise click.UsageError(
                f"'{key}' is not a house rule (rules: {', '.join(RULE_SPECS_BY_KEY)})"
            )
        changes[key.strip()] = value
        if RULE_SPECS_BY_KEY[key.strip()].kind is RuleKind.PRICES:
            try:
                changes[key.strip()] = load_json(value)
            except RulesError as error:
                raise click.UsageError(f"--set {key.strip()} takes JSON: {error.problem.message}") from None
    return changes


def format_meld(result: MeldResult) -> str:
    """A readable breakdown: one line a combination, then the total."""
    trump = result.trump.symbol if result.trump else "-"
    lines = [f"Trump {trump}"]
    for line in result.lines:
        note = "" if line.on_table else "  (not on this table)"
        lines.append(f"  class {line.meld_class}  {line.combination.label:<15} ×{line.sets}  {line.points:>5}{note}")
    if not result.lines:
        lines.append("  no meld")
    lines.append(f"  total {result.total}")
    return "\n".join(lines)


def format_sheet(match: Match, sheet: Sheet) -> str:
    """The sheet as a table: a row a deal with each side's score and running total."""
    names = [side.shown_name for side in match.sides]
    width = max(9, *(len(n) for n in names))
    header = f"{'deal':>4}  {'bidder':<{width}} {'bid':>4}  {'result':<10}" + "".join(
        f"  {n:>{width}}" for n in names
    )
    out = [f"{match.name or 'Match'}: play to {match.rules.target}", header]
    for line in sheet.deals:
        bidder = names[line.bidder] if line.bidder is not None else "-"
        bid = str(line.bid) if line.bid is not None else "-"
        result = line.status.replace("_", " ") + ("*" if line.as_entered else "")
        if line.scores is None or line.totals is None:
            cells = "".join(f"  {'':>{width}}" for _ in names) + "  after the end"
        else:
            cells = "".join(f"  {f'{s:+d} → {t}':>{width}}" for s, t in zip(line.scores, line.totals))
        out.append(f"{line.number:>4}  {bidder:<{width}} {bid:>4}  {result:<10}{cells}")
    standing = ", ".join(f"{names[i]} {sheet.totals[i]}" for i in sheet.rank)
    if sheet.winner is not None:
        out.append(f"Winner: {names[sheet.winner]} at deal {sheet.ended_at}. {standing}")
    else:
        out.append(f"No winner yet: {standing}")
    if any(line.as_entered for line in sheet.deals):
        out.append("* a number kept as entered: it does not convert exactly to the rules in force")
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; bad input gives one line on stderr and exit status 2."""
    try:
        # Without standalone mode, click returns the status of a command that exits (db current) instead.
        status = cli.main(args=list(argv) if argv is not None else None, prog_name="scorekeeper",
                          standalone_mode=False)
    except click.exceptions.Exit as done:
        return done.exit_code
    except click.exceptions.Abort:
        click.echo("scorekeeper: aborted", err=True)
        return 1
    except click.UsageError as error:
        click.echo(f"scorekeeper: {error.format_message()}", err=True)
        return 2
    except RulesError as error:
        click.echo(f"scorekeeper: {error}", err=True)
        return 2
    except StartupError as error:
        click.echo(f"scorekeeper: {error}", err=True)
        return 1
    return status if isinstance(status, int) else 0


# The web app ------------------------------------------------------------------------------------------

class ServerOptions(TypedDict):
    """What waitress is started with."""

    host: str
    port: int
    threads: int
    ident: str
    max_request_body_size: int
    connection_limit: int
    asyncore_use_poll: bool


CONNECTIONS = 800  # under the usual limit of 1,024 open files a process
PER_ADDRESS = 32  # connections one address may hold (serving.py): a few phones behind one router


def server_options(host: str, port: int, threads: int) -> ServerOptions:
    """waitress runs ``threads`` threads. It refuses a body larger than the app
    takes before reading it (the app would refuse it with 413 anyway, after waitress had buffered up to
    its own 1 GB default). It keeps up to
    ``CONNECTIONS`` connections open: every phone showing a sheet keeps one alive to follow the match
    (waitress's default of 100 would make a club night's new connections wait), and watches them with
    poll() rather than select(), which is meant for a few."""
    from . import MAX_REQUEST_BYTES

    return {"host": host, "port": port, "threads": threads, "ident": "scorekeeper",
            "max_request_body_size": MAX_REQUEST_BYTES, "connection_limit": CONNECTIONS, "asyncore_use_poll": True}


DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
ALL_INTERFACES = {"0.0.0.0", ""}


def _host_option() -> Callable[[F], F]:
    return click.option("--host", default=DEFAULT_HOST, show_default=True, envvar="SCOREKEEPER_HOST",
                        help="Address to listen on; 0.0.0.0 lets the other phones on the network in "
                             "[env SCOREKEEPER_HOST].")


def _port_option() -> Callable[[F], F]:
    return click.option("--port", type=click.IntRange(1, 65535), default=DEFAULT_PORT, show_default=True,
                        envvar="SCOREKEEPER_PORT", help="[env SCOREKEEPER_PORT]")


def phone_addresses(host: str, port: int) -> list[str]:
    """The addresses phones can open the app at: every address of the machine on its networks when
    it listens on all of them, else the one it listens on."""
    from .addresses import lan_addresses

    hosts = lan_addresses() if host in ALL_INTERFACES else [host]
    return [f"http://{name}:{port}/" for name in hosts]


def announce(host: str, port: int, base_url: str) -> str:
    """What ``serve`` prints on start: where to open the app, and a QR code of the first address."""
    import segno

    addresses = phone_addresses(host, port)
    lines = [f"Pinochle score keeper listening on {host or '0.0.0.0'}:{port} (Ctrl+C stops it)"]
    if base_url:
        lines.append(f"Players open {base_url}/ (SCOREKEEPER_BASE_URL)")
        shown = f"{base_url}/"
    elif host in ALL_INTERFACES:
        if not addresses:
            lines.append("No network address found: phones cannot reach this machine; open "
                         f"http://127.0.0.1:{port}/ on it.")
            return "\n".join(lines)
        lines.append("Phones on the same network open:")
        lines.extend(f"  {address}" for address in addresses)
        shown = addresses[0]
    else:
        lines.append(f"Open http://{host}:{port}/ on this machine; for the phones at the table, start with "
                     "--host 0.0.0.0")
        return "\n".join(lines)
    out = io.StringIO()
    segno.make(shown, error="m").terminal(out=out, compact=True)
    lines.append(f"Scan to open {shown}:")
    lines.append(out.getvalue().rstrip("\n"))
    return "\n".join(lines)


@cli.command(help="Run the web app with waitress, a production WSGI server (SQLite in the instance "
                  "folder unless DATABASE_URL is set).")
@_host_option()
@_port_option()
@click.option("--threads", type=click.IntRange(1, 64), default=4, show_default=True,
              help="Requests served at the same time.")
@click.option("--per-address", type=click.IntRange(0, CONNECTIONS), envvar="SCOREKEEPER_CONNECTIONS_PER_ADDRESS",
              help=f"Connections one client address may hold at once; 0 for no cap [default: {PER_ADDRESS}, or 0 "
                   "with SCOREKEEPER_PROXIES set, where every connection comes from the proxy] "
                   "[env SCOREKEEPER_CONNECTIONS_PER_ADDRESS].")
def serve(host: str, port: int, threads: int, per_address: int | None) -> None:
    from . import create_app
    from .serving import Guard
    from .serving import serve as guarded_serve

    app = create_app()
    if per_address is None:
        per_address = 0 if app.config["PROXIES"] else PER_ADDRESS
    click.echo(announce(host, port, str(app.config.get("BASE_URL") or "")))
    guarded_serve(app, Guard(per_address=per_address), **server_options(host, port, threads))


@cli.group(name="db", help="The database's layout: its migrations (SQLite in the instance folder unless "
                           "DATABASE_URL is set).")
def db_group() -> None:
    pass


@db_group.command(help="Bring the database to the latest layout, keeping its matches. The app does this on "
                       "start too, once however many processes start together.")
def upgrade() -> None:
    from . import db

    engine = _database_engine()
    try:
        done = db.upgrade(engine)
        click.echo(f"{engine.url.render_as_string(hide_password=True)}: {done}")
    finally:
        engine.dispose()


@db_group.command(help="Print the database's revision and the latest one; exit status 1 if it is behind.")
def current() -> None:
    from . import db

    engine = _database_engine()
    try:
        with engine.connect() as connection:
            revision = db.current_revision(connection)
            if revision is None:
                revision = "none (" + _unversioned(connection) + ")"
    finally:
        engine.dispose()
    head = db.head_revision()
    click.echo(f"{engine.url.render_as_string(hide_password=True)}: {revision}, latest {head}")
    if revision != head:
        raise click.exceptions.Exit(1)


def _database_engine() -> Engine:
    """The engine of the database the app would use, without migrating it."""
    from . import create_app

    app = create_app({"MIGRATE_ON_START": False})
    engine: Engine = app.extensions["scorekeeper.engine"]
    return engine


def _unversioned(connection: Connection) -> str:
    from sqlalchemy import inspect

    from . import db

    tables = set(inspect(connection).get_table_names()) & db.LEGACY_TABLES
    if not tables:
        return "empty: `scorekeeper db upgrade` creates the tables"
    return "made before migrations: `scorekeeper db upgrade` records it at " + db.FIRST_REVISION


@cli.command(help="Load the sample matches (every *.json in seeds/) and print their links; a sample "
                  "loaded before is found again, not added twice.")
@click.option("--dir", "directory", type=click.Path(file_okay=False, exists=True, path_type=Path),
              help="Folder of match files [default: the bundled seeds].")
@click.option("--base-url", help="Where the app is served, for the printed links [default: SCOREKEEPER_BASE_URL, "
                                 "else http://HOST:PORT/ as `serve` would listen].")
@_host_option()
@_port_option()
def seed(directory: Path | None, base_url: str | None, host: str, port: int) -> None:
    from flask import url_for

    from . import create_app
    from .store import reading, writing

    folder = directory or seeds_dir()
    if not any(folder.glob("*.json")):
        raise click.UsageError(f"no match files (*.json) in {folder}")
    try:
        samples = read_samples(folder)  # every file is read and checked first: a bad one loads nothing
    except BadSample as error:
        raise click.UsageError(str(error)) from None
    app = create_app()
    root = (base_url or app.config.get("BASE_URL") or (phone_addresses(host, port) or [""])[0]
            or f"http://127.0.0.1:{port}").rstrip("/")
    with app.test_request_context():
        for sample in samples:
            public_id = sample_public_id(app.config["SECRET_KEY"], sample.key)
            known = reading.find_match(public_id) is not None
            if not known:
                writing.create_match(sample.match, public_id=public_id)
            link = root + url_for("matches.sheet", public_id=public_id)
            click.echo(f"{link}  {sample.match.name}{'  (loaded before)' if known else ''}")



@cli.group("table", help="A table's file: its players, rule cards and every match.")
def table_group() -> None:
    pass


@table_group.command("export", help="Write the table with this id as a table file (to standard output by default).")
@click.argument("table_id")
@click.option("--output", "-o", type=click.Path(dir_okay=False, path_type=Path), help="Write to this file.")
def export_table(table_id: str, output: Path | None) -> None:
    from . import create_app, tables

    app = create_app()
    with app.app_context():
        row = tables.find_table(table_id)
        if row is None:
            raise click.UsageError(f"there is no table with the id {table_id}")
        text = tables.dumps_table(row)
    if output is None:
        click.echo(text, nl=False)
    else:
        output.write_text(text, encoding="utf-8")


@table_group.command("import", help="Load a table file as a new table; prints its id and edit token.")
@click.argument("table_file", type=click.Path(dir_okay=False, exists=True, path_type=Path))
def import_table(table_file: Path) -> None:
    from . import create_app, tables
    from .rules.text import load_json

    try:
        data = load_json(table_file.read_text(encoding="utf-8-sig"))
        checked = tables.read_table_file(data, within_limits=False)
    except (RulesError, UnicodeDecodeError) as error:
        raise click.UsageError(f"{table_file}: {error}") from None
    except Invalid as problem:
        raise click.UsageError(f"{table_file}: {problem.field}: {problem.message}") from None
    app = create_app()
    with app.app_context():
        row = tables.import_table(checked).row
        click.echo(f"id {row.public_id}\ntoken {row.edit_token}\nmatches {len(checked.matches)}")


if __name__ == "__main__":
    sys.exit(main())
