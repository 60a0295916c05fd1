"""Players' ratings (scorekeeper/ratings.py): OpenSkill's team model replayed over finished results in order,
and a table's ratings worked out from its matches' sheets, so that a rule change moves them."""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient
from hypothesis import given, settings
from hypothesis import strategies as st
from test_tables import new_table, start

from scorekeeper.ratings import RatingError, Result, rate
from scorekeeper.rules.house_rules import HouseRules
from scorekeeper.rules.match import Match, SideInfo
from scorekeeper.rules.matchfile import deal_from_json


def by_name(results: list[Result]) -> dict[str, tuple[float, float, int]]:
    return {r.name: (r.mu, r.sigma, r.games) for r in rate(results)}


def test_nobody_is_rated_before_a_result() -> None:
    assert rate([]) == ()


def test_a_player_who_always_wins_rises_above_one_who_always_loses() -> None:
    ratings = by_name([Result((("Ann",), ("Bob",)))] * 5)
    assert ratings["Ann"][0] > 25 > ratings["Bob"][0]
    assert [r.name for r in rate([Result((("Ann",), ("Bob",)))] * 5)] == ["Ann", "Bob"]


def test_the_uncertainty_shrinks_with_every_game() -> None:
    played = [by_name([Result((("Ann",), ("Bob",)))] * n)["Ann"] for n in range(1, 6)]
    assert [games for _, _, games in played] == [1, 2, 3, 4, 5]
    assert all(earlier[1] > later[1] for earlier, later in zip(played, played[1:]))
    assert played[0][1] < 25 / 3  # below a newcomer's


def test_partners_share_their_sides_result_and_its_uncertainty() -> None:
    ratings = by_name([Result((("Ann", "Bob"), ("Cy", "Di")))])
    assert ratings["Ann"] == ratings["Bob"] and ratings["Cy"] == ratings["Di"]
    assert ratings["Ann"][0] > 25 > ratings["Cy"][0]
    assert {games for _, _, games in ratings.values()} == {1}


def test_a_strong_partner_earns_less_credit_for_a_win_over_the_same_opponents() -> None:
    # Ann beat Bob alone three times; then Ann and Cy beat Bob and Di: the newcomer Cy gains less than
    # by beating them with an unknown partner, since a side is judged by its players together.
    history = [Result((("Ann",), ("Bob",)))] * 3
    with_ann = by_name([*history, Result((("Ann", "Cy"), ("Bob", "Di")))])["Cy"][0]
    with_eve = by_name([*history, Result((("Eve", "Cy"), ("Bob", "Di")))])["Cy"][0]
    assert 25 < with_ann < with_eve


def test_a_tie_between_equals_moves_nobodys_rating_but_makes_it_surer() -> None:
    ratings = by_name([Result.tie(("Ann", "Bob"), ("Cy", "Di"))])
    assert {round(mu, 9) for mu, _, _ in ratings.values()} == {25.0}
    assert all(sigma < 25 / 3 for _, sigma, _ in ratings.values())


def test_a_tie_with_a_stronger_side_lifts_the_weaker() -> None:
    history = [Result((("Ann",), ("Bob",)))] * 3
    before = by_name(history)["Bob"][0]
    assert by_name([*history, Result.tie(("Ann",), ("Bob",))])["Bob"][0] > before


def test_three_sides_finish_in_places_and_equal_places_tie() -> None:
    ratings = by_name([Result((("Ann",), ("Bob",), ("Cy",)))])
    assert ratings["Ann"][0] > ratings["Bob"][0] > ratings["Cy"][0]
    shared = by_name([Result((("Ann",), ("Bob",), ("Cy",)), places=(1, 2, 2))])
    assert shared["Ann"][0] > shared["Bob"][0] == shared["Cy"][0]


def test_the_same_results_give_the_same_ratings() -> None:
    """The library gives each rating a random id; nothing random reaches the figures."""
    results = [Result((("Ann", "Bob"), ("Cy", "Di"))), Result((("Cy", "Ann"), ("Di", "Bob"))),
               Result.tie(("Ann", "Di"), ("Bob", "Cy")), Result((("Di", "Bob"), ("Ann", "Cy")))]
    assert rate(results) == rate(list(results))


def test_the_later_result_counts_for_more() -> None:
    """As documented: results are replayed in order, and the latest weighs most."""
    ann_first = by_name([Result((("Ann",), ("Bob",))), Result((("Bob",), ("Ann",)))])
    bob_first = by_name([Result((("Bob",), ("Ann",))), Result((("Ann",), ("Bob",)))])
    assert ann_first["Bob"][0] > ann_first["Ann"][0]
    assert bob_first["Ann"][0] > bob_first["Bob"][0]


def test_the_cautious_figure_orders_the_list_so_one_lucky_win_does_not_top_it() -> None:
    # Ann and Bob trade wins eleven times (Ann wins one more); Di beats Eve in her only match.
    played = [Result((("Ann",), ("Bob",))), Result((("Bob",), ("Ann",)))] * 5 + [Result((("Ann",), ("Bob",)))]
    ratings = rate([*played, Result((("Di",), ("Eve",)))])
    ann, di = (next(r for r in ratings if r.name == name) for name in ("Ann", "Di"))
    assert di.mu > ann.mu and di.sigma > ann.sigma
    assert [r.name for r in ratings] == ["Ann", "Bob", "Di", "Eve"]
    assert ann.cautious == pytest.approx(ann.mu - 3 * ann.sigma)


PEOPLE = ("Ann", "Bob", "Cy", "Di", "Eve", "Flo")


@st.composite
def results(draw: st.DrawFn) -> Result:
    """Two or three sides of one or two players each, drawn from six people, in some finishing order."""
    people = draw(st.permutations(PEOPLE))
    sizes = draw(st.lists(st.integers(1, 2), min_size=2, max_size=3))
    sides, seat = [], 0
    for size in sizes:
        sides.append(tuple(people[seat:seat + size]))
        seat += size
    steps = draw(st.lists(st.integers(0, 1), min_size=len(sides) - 1, max_size=len(sides) - 1))
    places = [1]
    for step in steps:
        places.append(places[-1] + step)
    return Result(tuple(sides), places=tuple(places))


@settings(max_examples=40, deadline=None)
@given(st.lists(results(), max_size=12))
def test_every_player_is_rated_once_for_each_result_they_are_in(played: list[Result]) -> None:
    ratings = rate(played)
    assert rate(played) == ratings
    assert {r.name: r.games for r in ratings} == {
        name: sum(name in side for result in played for side in result.sides)
        for name in {name for result in played for side in result.sides for name in side}}
    assert all(0 < r.sigma < 25 / 3 for r in ratings)
    assert [r.cautious for r in ratings] == sorted((r.cautious for r in ratings), reverse=True)
    winners = [name for result in played[-1:] for name in result.sides[0] if result.places[1] > 1]
    assert all(r.mu > 25 for r in ratings if r.name in winners and r.games == 1)


@pytest.mark.parametrize(("sides", "places", "message"), [
    ((("Ann",),), (), "two sides"),
    ((("Ann",), ()), (), "needs a player"),
    ((("Ann",), ("Ann",)), (), "Ann plays on two sides"),
    ((("Ann", "Ann"), ("Bob",)), (), "Ann plays on two sides"),
    ((("Ann",), ("Bob",)), (2, 1), "places (2, 1)"),
    ((("Ann",), ("Bob",)), (1,), "places (1,)"),
])
def test_a_result_that_cannot_be_rated_is_refused(sides: tuple[tuple[str, ...], ...], places: tuple[int, ...],
                                                  message: str) -> None:
    with pytest.raises(RatingError, match=re.escape(message)):
        Result(sides, places=places)


# From a match's sheet --------------------------------------------------------------------------------

PAIRS = (SideInfo("Ann & Bob", ("Ann", "Bob")), SideInfo("Cy & Di", ("Cy", "Di")))


def match(*totals: tuple[int, ...], sides: tuple[SideInfo, ...] = PAIRS) -> Match:
    """A match to 500, each deal bid (50) and made by the side that scored most in it."""
    deals = tuple(deal_from_json({"bidder": line.index(max(line)), "bid": 50,
                                  "sides": [{"total": t} for t in line]}, len(sides)) for line in totals)
    return Match(sides=sides, rules=HouseRules(target=500), deals=deals)


def test_a_finished_match_gives_its_winner_first() -> None:
    result = Result.of_match(match((150, 300), (100, 250)))
    assert result is not None and result.sides == (("Cy", "Di"), ("Ann", "Bob")) and result.places == (1, 2)


@pytest.mark.parametrize("unrated", [
    match((100, 50)),  # not finished
    match((300, 50), (300, 50), sides=(SideInfo("Us"), SideInfo("Them"))),  # nobody named
    match((300, 50), (300, 50), sides=(PAIRS[0], SideInfo("Them"))),  # one side named
])
def test_a_match_without_a_winner_or_without_named_players_is_not_rated(unrated: Match) -> None:
    assert Result.of_match(unrated) is None


def test_three_sides_after_the_winner_are_placed_by_their_totals() -> None:
    three = (SideInfo("Ann", ("Ann",)), SideInfo("Bob", ("Bob",)), SideInfo("Cy", ("Cy",)), SideInfo("Di", ("Di",)))
    result = Result.of_match(match((100, 200, 520, 200), sides=three))
    assert result is not None
    assert (result.sides, result.places) == ((("Cy",), ("Bob",), ("Di",), ("Ann",)), (1, 2, 2, 4))


@pytest.mark.parametrize(("totals", "winner", "sides", "places"), [
    ((350, 420), None, (("Cy",), ("Ann",)), (1, 2)),  # the higher total first
    ((400, 400), None, (("Ann",), ("Cy",)), (1, 1)),  # level: a tie
    ((510, 520), 0, (("Ann",), ("Cy",)), (1, 2)),  # the side that bid out wins below the other's total
])
def test_sides_are_ranked_by_their_totals_after_any_winner(totals: tuple[int, int], winner: int | None,
                                                         sides: tuple[tuple[str, ...], ...],
                                                         places: tuple[int, ...]) -> None:
    result = Result.ranked([("Ann",), ("Cy",)], totals, winner)
    assert (result.sides, result.places) == (sides, places)


# A table's ratings, through the API and the statistics page ------------------------------------------

# Ann & Bob lead after the first deal (300); Cy & Di overtake them and reach 500 at deal 3.
OVERTAKEN = [
    {"bidder": 0, "bid": 60, "bid_by": "Ann", "sides": [{"total": 300}, {"total": 50}]},
    {"bidder": 1, "bid": 60, "bid_by": "Cy", "sides": [{"total": 20}, {"total": 280}]},
    {"bidder": 1, "bid": 60, "bid_by": "Cy", "sides": [{"total": 20}, {"total": 200}]},
]
ANN_AND_BOB_WIN = [{"bidder": 0, "bid": 60, "bid_by": "Ann", "sides": [{"total": 300}, {"total": 50}]}] * 2


def table_ratings(client: FlaskClient, table_id: str) -> tuple[int, list[str]]:
    stats = client.get(f"/api/v1/tables/{table_id}/stats").get_json()
    return stats["rated"], [r["name"] for r in stats["ratings"]]


@pytest.mark.both_databases
def test_a_rule_change_that_gives_the_match_to_the_other_side_changes_the_ratings(client: FlaskClient) -> None:
    table_id, _ = new_table(client)
    played = start(client, table_id, OVERTAKEN).get_json()
    assert table_ratings(client, table_id) == (1, ["Cy", "Di", "Ann", "Bob"])
    changed = client.put(f"/api/v1/matches/{played['id']}/rules", json={"target": 300},
                         headers={"Authorization": f"Bearer {played['edit_token']}"})
    assert changed.status_code == 200  # Ann & Bob now win at deal 1
    assert table_ratings(client, table_id) == (1, ["Ann", "Bob", "Cy", "Di"])


@pytest.mark.both_databases
def test_matches_are_rated_in_the_order_they_were_decided_not_started(client: FlaskClient) -> None:
    table_id, _ = new_table(client)
    first = start(client, table_id, ANN_AND_BOB_WIN[:1]).get_json()  # started first, decided last
    start(client, table_id, OVERTAKEN)  # Cy & Di win
    assert table_ratings(client, table_id) == (1, ["Cy", "Di", "Ann", "Bob"])
    added = client.post(f"/api/v1/matches/{first['id']}/deals", json=ANN_AND_BOB_WIN[1],
                        headers={"Authorization": f"Bearer {first['edit_token']}"})
    assert added.status_code == 201
    stats = client.get(f"/api/v1/tables/{table_id}/stats").get_json()
    assert stats["rated"] == 2 and [r["name"] for r in stats["ratings"]] == ["Ann", "Bob", "Cy", "Di"]
    ann = stats["ratings"][0]
    assert ann["games"] == 2 and ann["cautious"] == pytest.approx(ann["mu"] - 3 * ann["sigma"])


def test_the_statistics_page_shows_the_ratings_and_how_many_matches_were_rated(client: FlaskClient) -> None:
    table_id, _ = new_table(client)
    assert "Ratings" not in client.get(f"/t/{table_id}/stats").get_data(as_text=True)
    start(client, table_id, ANN_AND_BOB_WIN)
    nobody_named = [{key: value for key, value in deal.items() if key != "bid_by"} for deal in ANN_AND_BOB_WIN]
    assert start(client, table_id, nobody_named, sides=[{"name": "Us"}, {"name": "Them"}]).status_code == 201
    page = client.get(f"/t/{table_id}/stats").get_data(as_text=True)
    assert '<h2 id="ratings-title">Ratings</h2>' in page
    rows = re.findall(r'<li data-rating="(\w+)"><strong>\w+</strong> <span class="rating" data-figure="rating">'
                      r'([\d.]+) ± ([\d.]+)</span> <span class="muted">\((\d) match rated\)', page)
    assert [name for name, *_ in rows] == ["Ann", "Bob", "Cy", "Di"]
    (_, ann_mu, ann_sigma, games), (_, cy_mu, cy_sigma, _) = rows[0], rows[2]
    assert float(ann_mu) > 25 > float(cy_mu) and ann_sigma == cy_sigma and float(ann_sigma) < 25 / 3
    assert games == "1"
    assert "From 1 of the 2 finished matches (a match is rated when every side names its players)." in page
    assert '<summary aria-label="What the ratings mean">?</summary>' in page
