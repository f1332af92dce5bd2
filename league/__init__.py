"""Club nights and leagues: standings over many games, seating of rounds, statistics.

Pure Python over the games' table documents; storage and HTTP are elsewhere (services/, web/).
"""
