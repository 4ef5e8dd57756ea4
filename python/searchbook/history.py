"""IPython keeps every cell's text, a cell holding a typed secret included, in `In` and in its
history database (history.sqlite) before the cell runs: `forget_cell(n)` removes cell n from both."""


def forget_cell(number, shell=None):
    """Removes the text of cell `number` of this session from IPython's history (In, _ih and
    history.sqlite). Returns how many saved entries it removed from the database."""
    if shell is None:
        from IPython import get_ipython

        shell = get_ipython()
    history = shell.history_manager
    if number < len(history.input_hist_raw):
        history.input_hist_raw[number] = ""
        history.input_hist_parsed[number] = ""
    shell.user_ns.pop(f"_i{number}", None)
    # Written to the database in batches: flush first, so the cell is there to delete.
    history.writeout_cache()
    if not getattr(history, "enabled", True) or history.db is None:
        return 0
    with history.db:
        removed = history.db.execute("DELETE FROM history WHERE session = ? AND line = ?", (history.session_number, number)).rowcount
        history.db.execute("DELETE FROM output_history WHERE session = ? AND line = ?", (history.session_number, number))
    return removed


def secret_advice(shell):
    """What to tell the user whose cell held a secret: IPython has stored it already."""
    history = getattr(shell, "history_manager", None)
    if history is None or not history.input_hist_raw:
        return ""
    # The running cell is the last input IPython stored (execution_count may already count the next).
    number = len(history.input_hist_raw) - 1
    where = getattr(history, "hist_file", "history.sqlite")
    return (
        f" IPython has already stored this cell's text, the secret with it, in In[{number}] and its history file ({where}): "
        f"`import searchbook; searchbook.forget_cell({number})` removes it from both."
    )
