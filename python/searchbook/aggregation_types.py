"""Column types of an aggregation table, read from the engine's answer (Python's own parse of
its text, so `0.0` is still a float there): a bucket key the engine also gives as a date text
(`key_as_string` of a `date_histogram`, of `terms` on a date field) is a date; numbers are
integers only where every value the answer holds for that column is one."""
from searchbook.dates import instant_ns, readers

_ISO_DATES = readers(None)


def _is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _buckets(aggregation):
    buckets = aggregation.get("buckets") if isinstance(aggregation, dict) else None
    if isinstance(buckets, dict):  # keyed buckets, `filters`
        return [b for b in buckets.values() if isinstance(b, dict)]
    return [b for b in buckets or [] if isinstance(b, dict)]


def _answer_values(buckets, column):
    """What the answer holds for `column` in each bucket: the bucket's own field, or a metric's value."""
    head, _, rest = column.partition(".")
    out = []
    for bucket in buckets:
        value = bucket.get(column, bucket.get(head))
        if isinstance(value, dict):
            value = value.get(rest or "value") if rest or "value" in value else None
        out.append(value)
    return out


def _is_date_text(text):
    try:
        instant_ns(text, _ISO_DATES)
    except ValueError:
        return False
    return not text.strip().lstrip("-").isdigit()


def _date_keys(buckets):
    """The epoch-millisecond key of each key text, when the keys are instants the engine also wrote as text."""
    keyed = [(b.get("key_as_string"), b.get("key")) for b in buckets if "key_as_string" in b]
    if not keyed or len(keyed) != len(buckets):
        return None
    if not all(isinstance(text, str) and isinstance(key, int) and not isinstance(key, bool) for text, key in keyed):
        return None
    if any(text in ("true", "false") for text, _ in keyed):
        return None
    if not any(_is_date_text(text) for text, _ in keyed) and all(_is_number_text(text) for text, _ in keyed):
        return None
    return dict(keyed)


def _is_number_text(text):
    try:
        float(text.replace(",", ""))
    except ValueError:
        return False
    return True


def table_types(name, columns, rows, answer):
    """(types, formats, rows): each column's type as a hits column names it, and the rows with
    date keys as the instants they stand for (epoch milliseconds) where their text is not ISO."""
    aggregation = ((answer or {}).get("aggregations") or {}).get(name) if isinstance(answer, dict) else None
    buckets = _buckets(aggregation)
    types, formats = {}, {}
    for column in columns:
        shown = [row.get(column) for row in rows if row.get(column) is not None]
        if column == "key" and buckets:
            dates = _date_keys(buckets)
            if dates is not None:
                if all(_is_date_text(v) for v in shown if isinstance(v, str)):
                    types[column] = "date"
                else:
                    rows = [{**row, column: dates.get(row.get(column), row.get(column))} for row in rows]
                    types[column], formats[column] = "date", "epoch_millis"
                continue
        if not shown or not all(_is_number(v) for v in shown):
            continue
        seen = [v for v in _answer_values(buckets, column) if v is not None] if buckets else []
        evidence = shown + [v for v in seen if _is_number(v)]
        types[column] = "long" if all(isinstance(v, int) for v in evidence) else "double"
    return types, formats, rows
