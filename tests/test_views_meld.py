"""The meld calculator page: tapped and typed hands, errors at the field, sending a meld to a deal."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import create_app
from scorekeeper.rules.cards import ALL_CARDS, Card, Deck
from scorekeeper.rules.house_rules import PRESETS_BY_KEY
from scorekeeper.rules.match import Match, SideInfo
from scorekeeper.rules.matchfile import match_to_json

WORKED_HAND = "AH TH KH QH JH KH QH 9H QS JD AS AC"  # RULES.md: 240 with hearts on single-classic
SINGLE = {"deck": "single", "table": "single-classic"}


def count_form(cards: str, deck: Deck) -> dict[str, str]:
    """The per-card counts a player would tap for ``cards``."""
    counts = {f"n_{card.code}": 0 for card in ALL_CARDS if deck.copies_of(card)}
    for token in cards.split():
        counts[f"n_{Card.from_text(token).code}"] += 1
    return {name: str(n) for name, n in counts.items()}


def result_section(html: str) -> str:
    return html[html.index('id="meld-result"'):]


def selected_count(html: str, code: str) -> int:
    body = re.search(rf'<select name="n_{code}"[^>]*>(.*?)</select>', html, re.S)
    assert body, f"no count for {code}"
    return int(re.search(r'<option selected>(\d+)', body.group(1)).group(1))


def shown_cards(html: str) -> list[str]:
    """The cards offered (the nines of a double deck are drawn hidden, for the script to show on a change of deck)."""
    return re.findall(r'<label class="card-pick[^"]*" data-card>.*?<select name="n_(\w+)"', html)


def test_blank_page_offers_each_card_of_the_default_double_deck(client: FlaskClient) -> None:
    html = client.get("/meld").get_data(as_text=True)
    assert len(shown_cards(html)) == sum(1 for card in ALL_CARDS if Deck.DOUBLE.copies_of(card)) == 20
    assert "9H" not in shown_cards(html)
    assert re.search(r'<label class="card-pick" data-card hidden>[^\n]*name="n_9H"', html)
    assert '<option>4<' in html


def test_each_count_is_named_by_its_card_in_words(client: FlaskClient) -> None:
    html = client.get("/meld?deck=single").get_data(as_text=True)
    names = re.findall(r'<span class="visually-hidden">([^<]*)</span>\s*<select name="n_', html)
    assert names[:6] == ["ace of spades", "10 of spades", "king of spades", "queen of spades", "jack of spades",
                         "9 of spades"]
    assert "ace of hearts" in names and "A of hearts" not in html


def test_single_deck_shows_nines_and_two_copies(client: FlaskClient) -> None:
    html = client.get("/meld?deck=single").get_data(as_text=True)
    assert len(shown_cards(html)) == 24
    assert "9H" in shown_cards(html)
    assert '<option>3<' not in html


@pytest.mark.parametrize("entry", ["typed", "tapped"])
def test_worked_hand_with_hearts_is_240_by_class(client: FlaskClient, entry: str) -> None:
    data = {**SINGLE, "trump": "H"}
    data.update({"cards": WORKED_HAND} if entry == "typed" else count_form(WORKED_HAND, Deck.SINGLE))
    html = result_section(client.post("/meld", data=data).get_data(as_text=True))
    assert "<strong>240</strong>" in html
    for meld, points in [("Run", 150), ("Royal marriage", 40), ("Dix", 10), ("Pinochle", 40)]:
        assert re.search(rf"<td class=\"left\">{meld}</td>\s*<td>1</td>\s*<td>{points}</td>", html), meld
    assert re.search(r"1\. Trump and marriages</th>\s*<td>200</td>", html)
    assert re.search(r"3\. Around</th>\s*<td>0</td>", html)


def test_a_link_with_cards_counts_them_and_a_single_deck_brings_its_table(client: FlaskClient) -> None:
    html = client.get("/meld?deck=single&trump=H&cards=" + WORKED_HAND.replace(" ", "+")).get_data(as_text=True)
    assert re.search(r'<option (selected value="single-classic"|value="single-classic" selected)', html)
    assert "<strong>240</strong>" in result_section(html)


def test_typed_cards_are_added_to_tapped_ones_and_move_into_the_counts(client: FlaskClient) -> None:
    data = {**SINGLE, "trump": "H", **count_form("AH TH KH", Deck.SINGLE), "cards": "QH JH"}
    html = client.post("/meld", data=data).get_data(as_text=True)
    assert re.search(r"<td class=\"left\">Run</td>\s*<td>1</td>\s*<td>150</td>", html)
    assert selected_count(html, "QH") == 1 and selected_count(html, "AH") == 1
    assert re.search(r'name="cards"[^>]*value=""', html)


def test_all_four_trumps_best_first(client: FlaskClient) -> None:
    html = result_section(client.post("/meld", data={**SINGLE, "trump": "all", "cards": WORKED_HAND})
                          .get_data(as_text=True))
    totals = [int(n) for n in re.findall(r'<span class="trump-name">[^<]*</span> <strong>(\d+)</strong>', html)]
    assert len(totals) == 4 and totals == sorted(totals, reverse=True)
    assert totals[0] == 240 and "♥ Hearts" in html[: html.index("</ol>")].split("<li>")[1]
    # with another trump the hearts are two plain marriages (40) beside the pinochle (40)
    assert totals[1:] == [80, 80, 80]


def test_bad_token_is_named_at_the_field_and_the_typing_is_kept(client: FlaskClient) -> None:
    html = client.post("/meld", data={**SINGLE, "trump": "H", "cards": "AH XQ 10H"}).get_data(as_text=True)
    error = re.search(r'<p class="field-error" id="cards-error" role="alert">(.*?)</p>', html, re.S)
    assert error and "&#39;XQ&#39; is not a card" in error.group(1)
    assert 'value="AH XQ 10H"' in html and 'aria-invalid="true"' in html
    assert "<strong>" not in result_section(html)


def test_more_copies_than_the_deck_holds_is_refused(client: FlaskClient) -> None:
    data = {**SINGLE, "trump": "H", **count_form("AH AH", Deck.SINGLE), "cards": "AH"}
    html = client.post("/meld", data=data).get_data(as_text=True)
    assert re.search(r'id="hand-error"[^>]*>three A♥ but a single deck has two', html)
    assert selected_count(html, "AH") == 2


def test_nine_in_a_double_deck_is_refused(client: FlaskClient) -> None:
    html = client.post("/meld", data={"deck": "double", "table": "double-small", "trump": "S",
                                      "cards": "9S KS QS"}).get_data(as_text=True)
    assert "9♠ is not in a double deck" in html


def test_typed_markup_is_escaped(client: FlaskClient) -> None:
    html = client.post("/meld", data={**SINGLE, "trump": "H", "cards": "<script>x</script>"}).get_data(as_text=True)
    assert "<script>x</script>" not in html
    assert "&lt;script&gt;x&lt;/script&gt;" in html


def test_unknown_deck_is_an_error_at_its_field(client: FlaskClient) -> None:
    html = client.post("/meld", data={"deck": "triple", "table": "single-classic", "trump": "H",
                                      "cards": "AH"}).get_data(as_text=True)
    assert 'id="deck-error"' in html


def test_empty_hand_asks_for_cards(client: FlaskClient) -> None:
    html = client.post("/meld", data={**SINGLE, "trump": "H"}).get_data(as_text=True)
    assert "No cards yet" in html


def new_match(client: FlaskClient, preset: str = "double-500", deals: list[object] | None = None) -> str:
    """A match with a preset's sides and rules, created through the API; returns its link id."""
    chosen = PRESETS_BY_KEY[preset]
    match = Match(sides=tuple(SideInfo(name) for name in chosen.side_names), rules=chosen.rules)
    response = client.post("/api/v1/matches", json={**match_to_json(match), "deals": deals or []})
    assert response.status_code == 201, response.get_json()
    return str(response.get_json()["id"])


def test_meld_for_a_deal_takes_the_match_rules_and_links_back_with_sets(client: FlaskClient) -> None:
    public_id = new_match(client, "single-1500")
    page = client.get(f"/meld?match={public_id}&side=1").get_data(as_text=True)
    assert re.search(r'<option selected value="single">|<option value="single" selected', page)
    assert re.search(r'<option selected value="single-classic">|<option value="single-classic" selected', page)
    data = {**SINGLE, "trump": "H", "cards": WORKED_HAND, "match": public_id, "side": "1"}
    html = client.post("/meld", data=data).get_data(as_text=True)
    link = re.search(r'<a class="button primary" href="([^"]+)">Use in deal', html)
    assert link
    url = urlsplit(link.group(1).replace("&amp;", "&"))
    assert url.path == f"/m/{public_id}/deals/new"
    query = parse_qs(url.query)
    assert query["side"] == ["1"] and query["trump"] == ["H"]
    assert dict(item.split(":") for item in query["sets"][0].split(",")) == {
        "run": "1", "royal_marriage": "1", "dix": "1", "pinochle": "1"}
    assert client.get(link.group(1).replace("&amp;", "&")).status_code == 200


def test_meld_for_a_recorded_deal_links_back_to_its_edit_form(client: FlaskClient) -> None:
    public_id = new_match(client, "single-1500", [{"bidder": 0, "bid": 250, "sides": [{"total": 300}, {"total": 100}]}])
    html = client.post("/meld", data={**SINGLE, "trump": "S", "cards": "AS 10S KS QS JS",
                                      "match": public_id, "side": "0", "deal": "1"}).get_data(as_text=True)
    assert re.search(r'<input[^>]*name="deal"[^>]*value="1"', html)
    link = re.search(r'<a class="button primary" href="([^"]+)">Use in deal', html)
    assert link
    url = urlsplit(link.group(1).replace("&amp;", "&"))
    assert url.path == f"/m/{public_id}/deals/1/edit"
    assert parse_qs(url.query) == {"side": ["0"], "player": ["0"], "sets": ["run:1"], "trump": ["S"]}
    assert client.get(link.group(1).replace("&amp;", "&")).status_code == 200


def test_no_deal_link_without_a_match(client: FlaskClient) -> None:
    html = client.post("/meld", data={**SINGLE, "trump": "H", "cards": WORKED_HAND}).get_data(as_text=True)
    assert "Use in deal" not in html


@pytest.mark.parametrize("query", ["match=nosuchmatch&side=0", "side=7", "side=x", "side=0&deal=1",
                                   "side=0&deal=x", "side=0&player=4", "side=0&player=x"])
def test_unknown_match_or_side_is_404(client: FlaskClient, query: str) -> None:
    public_id = new_match(client)
    if not query.startswith("match="):
        query = f"match={public_id}&{query}"
    assert client.get(f"/meld?{query}").status_code == 404


def test_form_carries_a_csrf_token_and_refuses_a_post_without_it(app: Flask) -> None:
    guarded = create_app({**app.config, "WTF_CSRF_ENABLED": True, "TESTING": True})
    client = guarded.test_client()
    assert 'name="csrf_token"' in client.get("/meld").get_data(as_text=True)
    assert client.post("/meld", data={**SINGLE, "trump": "H", "cards": "AH"}).status_code == 400
    guarded.extensions["scorekeeper.engine"].dispose()
