"""`tsumolab review`: every decision of one player of a real game (analyzer.games) evaluated with advise."""
