"""warbook's interpreter: plays a compiled rulebook on a scenario (see shared DESIGN.md).

``interpreter.rules`` holds the compiled rules, ``interpreter.game.Game`` the game
(state, sequence of play, decisions, log), ``interpreter.cli`` the ``warbook`` command.
Importing this package imports none of them, so ``warbook lint`` of a rules file loads
only the language (``warbook.dsl``) and the command line.
"""
