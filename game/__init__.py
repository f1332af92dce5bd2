"""The game at a table: the ledger (one hand's effect on the scores, the round, honba and sticks,
under a rule set) and the board (a table's state as the replay of its log of changes).

Pure Python, no Flask and no SQL: the server stores with it and the phone runs it offline in
Pyodide, so both show the same board.
"""
