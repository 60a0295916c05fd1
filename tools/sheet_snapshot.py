"""Write every score sheet page and API answer of many matches to one file, to compare two versions of the code.

The matches are those of tests/vectors/matches.json (varied house rules, two to four sides, with and without an
auction; the files the rules refuse give their 422 answer) and three long ones of bench/bench_club.py. Each is
imported through the API, its pages read (players' page, watch page, their live parts, the page gzipped), then
changed by a few writes (a correction, two deals added, a deletion, two changes of the target), each answer and
the pages after it written down. Links, tokens, form keys and the release's build id are replaced by names, so
the output of two checkouts is the same file when they draw the same bytes:

    .venv/bin/python tools/sheet_snapshot.py /tmp/before.txt --code /path/to/other/checkout
    .venv/bin/python tools/sheet_snapshot.py /tmp/after.txt
    cmp /tmp/before.txt /tmp/after.txt

``--code`` runs the app of another checkout (its ``scorekeeper`` package and templates); this checkout's test
vectors are used either way.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent
VECTORS = HERE / "tests" / "vectors" / "matches.json"
FORM_KEYS = re.compile(r'name="(csrf_token|write_key)" value="[^"]*"')


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output", type=Path)
    parser.add_argument("--code", type=Path, default=HERE, help="the checkout whose app draws the pages")
    parser.add_argument("--limit", type=int, help="only the first LIMIT matches")
    args = parser.parse_args()
    sys.path[:0] = [str(args.code), str(HERE / "bench")]
    from bench_club import deal, match_file

    from scorekeeper import create_app

    folder = tempfile.mkdtemp(prefix="sheet-snapshot-")
    app = create_app({"DATABASE_URL": f"sqlite:///{folder}/snapshot.sqlite", "SECRET_KEY": "snapshot",
                      "INSTANCE_PATH": folder, "RATELIMIT_ENABLED": False})
    files = [match_file(deals, f"Club <b>&{deals}") for deals in (9, 30, 61)]
    files += [vector["file"] for vector in json.loads(VECTORS.read_text(encoding="utf-8"))]
    records: list[str] = []
    for index, file in enumerate(files[:args.limit]):
        records += Snapshot(app, app.extensions["scorekeeper.build_id"]).match(index, file, deal(index))
    text = "\n".join(records)
    args.output.write_text(text, encoding="utf-8")
    print(f"{len(records)} answers, sha256 {hashlib.sha256(text.encode()).hexdigest()[:16]}")


class Snapshot:
    """The answers about one match, written down with its links and tokens replaced by names."""

    def __init__(self, app: Any, build_id: str) -> None:
        self.client = app.test_client()
        self.build_id = build_id
        self.names: list[tuple[str, str]] = []
        self.records: list[str] = []

    def match(self, index: int, file: dict[str, Any], extra_deal: dict[str, Any]) -> list[str]:
        created = self.client.post("/api/v1/matches", json=file)
        if created.status_code != 201:
            self.keep(f"create {index}", created)
            return self.records
        data = created.get_json()
        public_id, watch_id = data["id"], data["links"]["watch"].rsplit("/", 1)[1]
        self.names = [(data["edit_token"], "TOKEN"), (public_id, "LINK"), (watch_id, "WATCH")]
        self.keep(f"create {index}", created)
        self.pages(f"{index} start", public_id, watch_id)
        auth = {"Authorization": f"Bearer {data['edit_token']}"}
        for step, (method, path, body) in enumerate(writes(f"/api/v1/matches/{public_id}", file, extra_deal)):
            self.keep(f"{index} write {step} {method} {path}", self.client.open(path, method=method, json=body,
                                                                               headers=auth))
            self.pages(f"{index} after write {step}", public_id, watch_id)
        return self.records

    def pages(self, step: str, public_id: str, watch_id: str) -> None:
        for path in (f"/m/{public_id}", f"/m/{public_id}/live", f"/w/{watch_id}", f"/w/{watch_id}/live"):
            self.keep(f"{step} {path}", self.client.get(path))
        self.keep(f"{step} gzipped", self.client.get(f"/m/{public_id}", headers={"Accept-Encoding": "gzip"}))

    def keep(self, what: str, answer: Any) -> None:
        body = answer.get_data()
        if answer.headers.get("Content-Encoding") == "gzip":
            body = b"gzip: " + gzip.decompress(body)
        head = f"== {what} {answer.status_code} {answer.headers.get('ETag', '')}"
        self.records.append(self.named(f"{head}\n{body.decode()}"))

    def named(self, text: str) -> str:
        for value, name in self.names:
            text = text.replace(value, name)
        return FORM_KEYS.sub(r'name="\1" value="KEY"', text).replace(self.build_id, "BUILD")


def writes(api: str, file: dict[str, Any], extra_deal: dict[str, Any]) -> list[tuple[str, str, Any]]:
    """A match's writes: its deals corrected, added and deleted, then its target moved down and up."""
    deals = file.get("deals") or []
    done: list[tuple[str, str, Any]] = []
    if deals:
        done += [("PUT", f"{api}/deals/1", deals[-1]), ("POST", f"{api}/deals", deals[0]),
                 ("POST", f"{api}/deals", extra_deal)]
    if len(deals) > 1:
        done += [("DELETE", f"{api}/deals/2", None), ("PUT", f"{api}/deals/{len(deals)}", deals[0])]
    return done + [("PUT", f"{api}/rules", {"target": 200}), ("PUT", f"{api}/rules", {"target": 5000})]


if __name__ == "__main__":
    main()
