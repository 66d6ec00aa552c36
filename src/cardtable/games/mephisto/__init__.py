"""Mephisto: collect monster souls for the Devil. See docs/rules/mephisto.md for the rules as clauses."""
