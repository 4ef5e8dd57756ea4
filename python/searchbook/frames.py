"""Grid rows to pandas or polars DataFrames, each column typed by the engine's type for it (the
mapping, the collection schema, or ES|QL's columns): dates as datetimes, numbers as numbers;
arrays (multi-valued fields, nested leaves) stay lists. A column whose values do not fit its
type (a document written before its mapping changed) is left as the engine sent it."""
from datetime import datetime, timezone

DATE_TYPES = {"date", "date_nanos", "datetime"}
INTEGER_TYPES = {"long", "integer", "short", "byte", "unsigned_long", "int32", "int64", "counter_integer", "counter_long"}
FLOAT_TYPES = {"double", "float", "half_float", "scaled_float", "float32", "float64", "counter_double"}
BOOLEAN_TYPES = {"boolean", "bool"}


def _kind(engine_type):
    # `long | keyword` when the indices of an alias disagree: no single type to give.
    t = (engine_type or "").strip()
    if t in DATE_TYPES:
        return "date"
    if t in INTEGER_TYPES:
        return "integer"
    if t in FLOAT_TYPES:
        return "float"
    if t in BOOLEAN_TYPES:
        return "boolean"
    return None


def _date(value):
    if isinstance(value, bool):
        raise ValueError(value)
    if isinstance(value, (int, float)):
        return datetime.fromtimestamp(value / 1000, tz=timezone.utc)
    if isinstance(value, str):
        text = value.strip()
        if text.isdigit():
            return datetime.fromtimestamp(int(text) / 1000, tz=timezone.utc)
        if text.endswith(("Z", "z")):
            text = text[:-1] + "+00:00"
        parsed = datetime.fromisoformat(text)
        return parsed if parsed.tzinfo else parsed.replace(tzinfo=timezone.utc)
    raise ValueError(value)


def _typed(kind, values):
    """The column's values converted to its kind, or None when one does not fit."""
    present = [v for v in values if v is not None]
    try:
        if kind == "date":
            return [None if v is None else _date(v) for v in values]
        if kind in ("integer", "float"):
            if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in present):
                return None
            return [None if v is None else (int(v) if kind == "integer" else float(v)) for v in values]
        if kind == "boolean":
            return values if all(isinstance(v, bool) for v in present) else None
    except (ValueError, OverflowError, OSError):
        return None
    return None


def _columns(columns, rows, types):
    for name in columns:
        values = [row.get(name) for row in rows]
        kind = _kind(types.get(name))
        typed = _typed(kind, values) if kind else None
        yield name, (kind if typed is not None else None), (typed if typed is not None else values)


def to_pandas(columns, rows, types):
    try:
        import pandas as pd
    except ImportError:
        raise ImportError("to_pandas() needs pandas: `pip install 'jupyterlab-searchbook[pandas]'` (or `pip install pandas`).") from None
    data = {}
    for name, kind, values in _columns(columns, rows, types):
        if kind == "date":
            data[name] = pd.Series(pd.to_datetime(values, utc=True), dtype="datetime64[ns, UTC]")
        elif kind == "integer":
            data[name] = pd.array(values, dtype="Int64")
        elif kind == "float":
            data[name] = pd.array([float("nan") if v is None else v for v in values], dtype="float64")
        elif kind == "boolean":
            data[name] = pd.array(values, dtype="boolean")
        else:
            data[name] = pd.Series(values, dtype=object) if _has_lists(values) else pd.Series(values)
    return pd.DataFrame(data, columns=list(columns))


def to_polars(columns, rows, types):
    try:
        import polars as pl
    except ImportError:
        raise ImportError("to_polars() needs polars: `pip install 'jupyterlab-searchbook[polars]'` (or `pip install polars`).") from None
    series = []
    for name, kind, values in _columns(columns, rows, types):
        dtype = {"date": pl.Datetime("us", "UTC"), "integer": pl.Int64, "float": pl.Float64, "boolean": pl.Boolean}.get(kind)
        if dtype is not None:
            series.append(pl.Series(name, values, dtype=dtype, strict=False))
            continue
        try:
            # Lists of one type become polars lists (List(String) for tags, nested leaves).
            series.append(pl.Series(name, values))
        except Exception:  # polars raises several kinds for values of mixed types
            series.append(pl.Series(name, values, dtype=pl.Object))
    return pl.DataFrame(series)


def _has_lists(values):
    return any(isinstance(v, (list, dict)) for v in values)
