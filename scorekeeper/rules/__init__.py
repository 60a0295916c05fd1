"""The rules of Pinochle as the score keeper applies them: standard library only."""
