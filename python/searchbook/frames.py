"""Grid rows to pandas or polars DataFrames, each column typed by the engine's type for it (the
mapping, the collection schema, or ES|QL's columns): dates as datetimes read by the field's
`format`, integers in the narrowest exact type that holds them all, floats as floats; arrays
(multi-valued fields, nested leaves) stay lists. Nothing is rounded and nothing raises: a
column whose values do not fit its type (a document written before its mapping changed) is
left as the engine sent it."""
from searchbook.dates import instant_ns, readers

DATE_TYPES = {"date", "date_nanos", "datetime"}
INTEGER_TYPES = {"long", "integer", "short", "byte", "unsigned_long", "int32", "int64", "counter_integer", "counter_long"}
FLOAT_TYPES = {"double", "float", "half_float", "scaled_float", "float32", "float64", "counter_double"}
BOOLEAN_TYPES = {"boolean", "bool"}
INT64 = (-(2**63), 2**63 - 1)
UINT64 = (0, 2**64 - 1)
# Past this a float64 no longer holds every integer: such a column keeps Python ints.
EXACT_IN_FLOAT = 2**53


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


def integer_width(values):
    """`Int64`, `UInt64` or `object`: the narrowest exact type for these ints (None left out)."""
    present = [v for v in values if v is not None]
    if not present or (INT64[0] <= min(present) and max(present) <= INT64[1]):
        return "Int64"
    if UINT64[0] <= min(present) and max(present) <= UINT64[1]:
        return "UInt64"
    return "object"


def instants(values, fmt, engine_type):
    """Nanosecond instants of a date column's values by its format, or None when one does not fit."""
    field = readers(fmt, nanos=engine_type == "date_nanos")
    try:
        return [None if v is None else instant_ns(v, field) for v in values]
    except ValueError:
        return None


def _types_of(values):
    """The exact types among the values, None left out (type() rather than isinstance: a bool is
    an int to isinstance, never a number here). One pass in C, where a check per value is slow."""
    kinds = set(map(type, values))
    kinds.discard(type(None))
    return kinds


_DATE_VALUES = {str, int, float}
_NUMBER_VALUES = {int, float}


def _typed(kind, values):
    """The values converted to the column's kind (dates stay as sent, read later), or None when one does not fit."""
    kinds = _types_of(values)
    if kind == "date":
        return values if kinds <= _DATE_VALUES else None
    if kind in ("integer", "float"):
        if not kinds <= _NUMBER_VALUES:
            return None
        if kind == "float":
            return [None if v is None else float(v) for v in values]
        if float not in kinds:
            return values
        if not all(v.is_integer() for v in values if type(v) is float):
            return None
        return [v if v is None or type(v) is int else int(v) for v in values]
    if kind == "boolean":
        return values if kinds <= {bool} else None
    return None


def typed_columns(columns, rows, types, formats=None, values_by_name=None):
    """Each column as (name, kind, engine type, format, values): kind None leaves the values as sent.
    `values_by_name`, when given, holds each column's values already (read column by column)."""
    formats = formats or {}
    for name in columns:
        values = values_by_name[name] if values_by_name is not None else [row.get(name) for row in rows]
        engine_type = (types.get(name) or "").strip()
        kind = _kind(engine_type)
        typed = _typed(kind, values) if kind else None
        if typed is None and _untyped_big_integers(values):
            # A column the mapping says nothing of, holding integers a float would round.
            kind, typed = "integer", values
        yield name, (kind if typed is not None else None), engine_type, formats.get(name), (typed if typed is not None else values)


def _untyped_big_integers(values):
    if _types_of(values) != {int}:
        return False
    present = [v for v in values if v is not None]
    return max(present) > EXACT_IN_FLOAT or min(present) < -EXACT_IN_FLOAT


def to_pandas(columns, rows, types, formats=None, notes=None, values_by_name=None):
    try:
        import pandas as pd
    except ImportError:
        raise ImportError("to_pandas() needs pandas: `pip install 'jupyterlab-searchbook[pandas]'` (or `pip install pandas`).") from None
    data = {}
    for name, kind, engine_type, fmt, values in typed_columns(columns, rows, types, formats, values_by_name):
        column = None
        if kind == "date":
            column = _pandas_dates(pd, values, fmt, engine_type)
        elif kind == "integer":
            width = integer_width(values)
            column = pd.Series(values, dtype=object) if width == "object" else pd.array(values, dtype=width)
        elif kind == "float":
            column = pd.array([float("nan") if v is None else v for v in values], dtype="float64")
        elif kind == "boolean":
            column = pd.array(values, dtype="boolean")
        if column is None:
            column = pd.Series(values, dtype=object) if _has_lists(values) else _inferred(pd, values)
        data[name] = column.array if isinstance(column, pd.Series) else column
    # Each column's own array, made here for this frame alone: not copied once more (a frame
    # of Series copies every column, a third of the time the frame takes to build).
    frame = pd.DataFrame(data, columns=list(columns), copy=False)
    if notes:
        frame.attrs["notes"] = list(notes)
    return frame


def _inferred(pd, values):
    try:
        return pd.Series(values)
    except (OverflowError, TypeError, ValueError):
        return pd.Series(values, dtype=object)


def _pandas_dates(pd, values, fmt, engine_type):
    """A date column as `datetime64[ns, UTC]`; None when a value does not fit its format, or lies
    outside what that type holds (years 1677-2262)."""
    import numpy as np

    if fmt is None and all(type(v) is str for v in values if v is not None):
        # The default format's ISO texts: pandas reads them at once, to the nanosecond.
        try:
            return pd.Series(pd.to_datetime(values, format="ISO8601", utc=True), dtype="datetime64[ns, UTC]")
        except (ValueError, TypeError, OverflowError):
            pass
    read = instants(values, fmt, engine_type)
    if read is None:
        return None
    nat = np.iinfo(np.int64).min
    try:
        raw = np.array([nat if v is None else v for v in read], dtype="int64")
    except OverflowError:
        return None
    if any(v == nat for v in read if v is not None):
        return None
    return pd.Series(raw.view("datetime64[ns]")).dt.tz_localize("UTC")


def to_polars(columns, rows, types, formats=None, values_by_name=None):
    try:
        import polars as pl
    except ImportError:
        raise ImportError("to_polars() needs polars: `pip install 'jupyterlab-searchbook[polars]'` (or `pip install polars`).") from None
    series = []
    for name, kind, engine_type, fmt, values in typed_columns(columns, rows, types, formats, values_by_name):
        built = None
        if kind == "date":
            built = _polars_dates(pl, name, instants(values, fmt, engine_type), engine_type == "date_nanos")
        elif kind == "integer":
            built = _polars_integers(pl, name, values)
        elif kind in ("float", "boolean"):
            built = pl.Series(name, values, dtype=pl.Float64 if kind == "float" else pl.Boolean, strict=False)
        if built is None:
            built = _polars_any(pl, name, values)
        series.append(built)
    return pl.DataFrame(series)


def _polars_dates(pl, name, instants, nanos):
    if instants is None:
        return None
    try:
        built = pl.Series(name, instants, dtype=pl.Int64).cast(pl.Datetime("ns")).dt.replace_time_zone("UTC")
    except (OverflowError, TypeError, ValueError, pl.exceptions.PolarsError):
        return None
    # Dates keep microseconds, as `date` fields are read elsewhere; `date_nanos` keeps nanoseconds.
    return built if nanos else built.dt.cast_time_unit("us")


def _polars_integers(pl, name, values):
    width = integer_width(values)
    wide = [getattr(pl, "Int128", None), pl.Decimal(38, 0)]
    for dtype in [pl.Int64] if width == "Int64" else [pl.UInt64] if width == "UInt64" else wide:
        if dtype is None:
            continue
        try:
            return pl.Series(name, values, dtype=dtype)
        except (OverflowError, TypeError, ValueError, pl.exceptions.PolarsError):
            continue
    return pl.Series(name, values, dtype=pl.Object)


def _polars_any(pl, name, values):
    try:
        # Lists of one type become polars lists (List(String) for tags, nested leaves). Not
        # strict: polars' strict inference takes a list's type from its first values and cuts
        # later ones to it (274.16 in a list after [274] became 274).
        built = pl.Series(name, values, strict=False)
        # Whatever polars made of them must read back as the values themselves, or they stay objects.
        if built.to_list() == values:
            return built
    except Exception:  # polars raises several kinds for values of mixed types
        pass
    return pl.Series(name, values, dtype=pl.Object)


def _has_lists(values):
    kinds = set(map(type, values))
    return list in kinds or dict in kinds
