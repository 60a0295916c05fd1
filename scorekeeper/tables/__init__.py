"""Tables: the people who play together, their rule cards and their matches, read and recorded.

A table is found by its link (``public_id``) as a match is; its matches point at it (``MatchRow.table_id``).
One module per concern: the names (``names``), finding a table and reading its matches (``reading``), its
players (``players``), its rule cards and the new-match form's starting points (``rule_cards``), the match
after a decided one (``next_match``), the figures and ratings (``stats``) and the table file (``files``).
Who sits where and who deals next are the rules core's (``rules.rotation``).
"""

from __future__ import annotations

from .files import TABLE_FORMAT, ImportedTable, TableFile, dumps_table, import_table, read_table_file, table_file
from .names import name_key, player_name, player_names, side_name_of, table_name
from .next_match import default_match_name, next_match
from .players import NOT_AT_TABLE, add_players, check_players_at_table, create_table, remove_player
from .reading import find_table, get_table_or_404, player_list, table_matches, table_of, tables_by_public_id
from .rule_cards import StartingRules, add_rule_card, remove_rule_card, rule_card_name, starting_rules
from .stats import MatchState, StatsAndRatings, match_states, stats_and_ratings, stats_of

__all__ = [
    "NOT_AT_TABLE", "TABLE_FORMAT", "ImportedTable", "MatchState", "StartingRules", "StatsAndRatings", "TableFile",
    "add_players", "add_rule_card", "check_players_at_table", "create_table", "default_match_name",
    "dumps_table", "find_table", "get_table_or_404", "import_table", "match_states", "name_key", "next_match",
    "player_list", "player_name", "player_names", "read_table_file", "remove_player", "remove_rule_card",
    "rule_card_name", "side_name_of", "starting_rules", "stats_and_ratings", "stats_of", "table_file",
    "table_matches", "table_name", "table_of", "tables_by_public_id",
]
