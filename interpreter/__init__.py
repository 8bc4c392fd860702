"""warbook's interpreter: plays a loaded rulebook on a scenario (see shared DESIGN.md).

This package currently holds the command line (``interpreter.cli``); the game
engine lands with the interpreter issue.
"""
