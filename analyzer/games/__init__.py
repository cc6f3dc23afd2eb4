"""Real games read from the logs players have (Mahjong Soul records, tenhou.net/6 JSON, Tenhou's mjlog XML, mjai)
into one form, `GameRecord` (analyzer.games.record): the hands as mjai-style events in tsumolab's words.
`read_game` picks the reader by the document's shape. The writers (analyzer.games.writers) go the other way for
simulated matches: mjai, tenhou.net/6 and Mahjong Soul records of `tsumolab replay --format`, which the readers
read back."""
