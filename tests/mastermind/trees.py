"""Tree files for the tests of reading them, in the library and on the command line."""


def one_peg_tree(**top) -> dict:
    """The tree file of 1 peg and 2 colours: 1, then 2; ``top`` adds or replaces keys."""
    return {
        "format": "hamle-mastermind-tree",
        "version": 1,
        "variant": {"pegs": 1, "colours": 2, "repeat": True},
        "root": {"guess": "1", "answers": {"0 0": {"guess": "2"}}},
        **top,
    }
