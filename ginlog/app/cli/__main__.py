"""``python -m ginlog.app.cli``: the same as the ``ginlog`` executable."""

from ginlog.app.cli import main

if __name__ == "__main__":  # pragma: no cover - run as a program, never imported for its effect
    main()
