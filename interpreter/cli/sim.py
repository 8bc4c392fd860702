"""``warbook sim``: placeholder while the study runner is written."""


def register(sub) -> None:
    pass
