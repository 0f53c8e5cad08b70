"""At the table: the entry language, its completion, the recorder and its prompt, status line, history, undo and rematch."""
