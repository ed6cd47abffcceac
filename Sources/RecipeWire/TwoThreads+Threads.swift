// RecipeDecisions reaches `TwoThreads` through RecipeWire until it imports Threads itself.
@_exported import enum Threads.TwoThreads
