"""``python -m hamle``: the ``hamle`` command, for where its script is not on the PATH."""

from hamle.start import main

if __name__ == "__main__":
    main()
