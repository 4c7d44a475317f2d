"""The shipped data (installed as the package usurper.data): catalogue/ holds the catalogues
that `usurper pick` and `usurper catalogue stats` read; known_deals.json the hand-built deals
with known answers that the tests check."""
