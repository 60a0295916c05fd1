"""A club event made through the API for the browser tests, and its pages' addresses."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from playwright.sync_api import Page


@dataclass(frozen=True)
class MadeEvent:
    director: str  # the director's page's path
    standings: str  # the public standings' path
    token: str

    @property
    def public_id(self) -> str:
        return self.director.rsplit("/", 1)[-1]


def make_event(page: Page, players: int = 8, seated: bool = True, names: list[str] | None = None,
               **fields: Any) -> MadeEvent:
    """An event of ``players`` players (P01…, or these ``names``), its first round seated unless told; made with
    the page's cookies left alone (the API takes a token, not the phone's session)."""
    body = {"name": "Club night", "format": "progressive", "round_end": {"deals": 4}, "rounds": 3,
            "players": names or [f"P{number:02}" for number in range(1, players + 1)], **fields}
    made = page.request.post("/api/v1/events", data=body)
    assert made.status == 201, made.text()
    answer = made.json()
    event = MadeEvent(urlsplit(answer["links"]["director"]).path, urlsplit(answer["links"]["standings"]).path,
                      answer["director_token"])
    if seated:
        seat = page.request.post(f"/api/v1/events/{event.public_id}/rounds",
                                 headers={"Authorization": f"Bearer {event.token}"})
        assert seat.status == 201, seat.text()
    return event
