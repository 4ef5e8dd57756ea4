"""A date field's values as instants, read the way the engine reads them: by the field's
`format` (alternatives joined by `||`, tried in order), so `epoch_second` numbers are seconds,
a custom pattern such as `yyyy/MM/dd HH:mm` is read by that pattern, and `date_nanos` keeps its
nanoseconds. Instants are integer nanoseconds since the epoch (UTC): exact, and free of the
microsecond limit of `datetime` and of the Python version's `fromisoformat`."""
import re
from decimal import Decimal, InvalidOperation

DEFAULT_FORMAT = "strict_date_optional_time||epoch_millis"
NANOS_DEFAULT_FORMAT = "strict_date_optional_time_nanos||epoch_millis"
_EPOCH_UNITS = {"epoch_millis": 1_000_000, "epoch_second": 1_000_000_000}
_ZONE = r"(?P<zone>Z|z|[+-]\d{2}(?::?\d{2})?)?"
_FRACTION = r"(?:[.,](?P<fraction>\d{1,9}))?"
# Every built-in ISO name (date_optional_time, date_time, basic_date_time, year_month_day, ...):
# what the source holds already matched its format when it was indexed, so one reader of the
# extended and one of the basic ISO forms is enough.
_ISO = re.compile(
    r"(?P<year>[+-]\d{4,9}|\d{4})(?:-(?P<month>\d{2})(?:-(?P<day>\d{2})"
    r"(?:[T ](?P<hour>\d{2})(?::(?P<minute>\d{2})(?::(?P<second>\d{2})" + _FRACTION + r")?)?" + _ZONE + r")?)?)?"
)
_BASIC_ISO = re.compile(
    r"(?P<year>\d{4})(?P<month>\d{2})(?P<day>\d{2})(?:T(?P<hour>\d{2})(?P<minute>\d{2})(?P<second>\d{2})" + _FRACTION + _ZONE + r")?"
)
_MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
_DAYS_BEFORE_MONTH = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334]


def _days_from_civil(year, month, day):
    # Days since 1970-01-01 in the proleptic Gregorian calendar (Howard Hinnant's algorithm):
    # no datetime, so years past 9999 and before 1 still give an instant.
    year -= month <= 2
    era = (year if year >= 0 else year - 399) // 400
    yoe = year - era * 400
    doy = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def _zone_seconds(zone):
    if not zone or zone in ("Z", "z"):
        return 0
    sign = -1 if zone[0] == "-" else 1
    digits = zone[1:].replace(":", "")
    hours, minutes = int(digits[:2]), int(digits[2:4] or 0)
    return sign * (hours * 3600 + minutes * 60)


def _instant(parts):
    """Nanoseconds since the epoch from the named parts a pattern matched (absent ones default)."""
    year = int(parts.get("year") or 1970)
    month = int(parts.get("month") or 1)
    day = int(parts.get("day") or 1)
    if not (1 <= month <= 12 and 1 <= day <= 31):
        return None
    hour = int(parts.get("hour") or 0)
    if parts.get("ampm"):
        hour = hour % 12 + (12 if parts["ampm"].lower().startswith("p") else 0)
    minute, second = int(parts.get("minute") or 0), int(parts.get("second") or 0)
    if hour > 24 or minute > 59 or second > 60:
        return None
    fraction = (parts.get("fraction") or "").ljust(9, "0")[:9]
    seconds = _days_from_civil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second
    return (seconds - _zone_seconds(parts.get("zone"))) * 1_000_000_000 + int(fraction or 0)


def _epoch_reader(unit):
    def read(value):
        if isinstance(value, bool):
            return None
        if isinstance(value, int):
            return value * unit
        try:
            number = Decimal(value if isinstance(value, str) else repr(value))
        except InvalidOperation:
            return None
        if not number.is_finite():
            return None
        return int(number * unit)

    return read


def _regex_reader(pattern):
    def read(value):
        if not isinstance(value, str):
            return None
        found = pattern.fullmatch(value.strip())
        if found is None:
            return None
        parts = found.groupdict()
        if parts.get("monthname"):
            parts["month"] = _MONTHS.index(parts["monthname"][:3].lower()) + 1
        if parts.get("yearday"):
            day = int(parts["yearday"])
            month = max(m for m in range(12) if _DAYS_BEFORE_MONTH[m] < day)
            parts["month"], parts["day"] = month + 1, day - _DAYS_BEFORE_MONTH[month]
        if parts.get("year2"):
            parts["year"] = 2000 + int(parts["year2"])
        return _instant(parts)

    return read


def _letters(letter, count):
    """A Java date pattern letter run as a regex group, or None when it names nothing an instant needs."""
    if letter in "yu":
        return r"(?P<year2>\d{2})" if count == 2 else r"(?P<year>\d{4})"
    if letter == "M":
        if count >= 3:
            return r"(?P<monthname>[A-Za-z]{3,9}\.?)"
        return r"(?P<month>\d{2})" if count == 2 else r"(?P<month>\d{1,2})"
    if letter in "dHhkms":
        name = {"d": "day", "H": "hour", "h": "hour", "k": "hour", "m": "minute", "s": "second"}[letter]
        return rf"(?P<{name}>\d{{2}})" if count == 2 else rf"(?P<{name}>\d{{1,2}})"
    if letter in "Sn":
        return rf"(?P<fraction>\d{{1,{count if letter == 'S' else 9}}})"
    if letter == "D":
        return r"(?P<yearday>\d{1,3})"
    if letter == "a":
        return r"(?P<ampm>[AaPp][Mm])"
    if letter in "XxZO":
        return r"(?P<zone>Z|z|[+-]\d{2}(?::?\d{2})?|GMT[+-]\d{1,2}(?::?\d{2})?)"
    if letter in "Ee":
        return r"[A-Za-z]+\.?"
    if letter == "V":
        return r"(?P<zone>Z|UTC|[+-]\d{2}:?\d{2})"
    return None


def pattern_reader(pattern):
    """A reader for a Java-style pattern (`yyyy-MM-dd HH:mm:ss`, `dd/MMM/yyyy:HH:mm:ss Z`), or None
    when the pattern uses letters no reader here knows."""
    out, i, optional = [], 0, 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "'":
            end = pattern.find("'", i + 1)
            end = len(pattern) if end < 0 else end
            out.append(re.escape(pattern[i + 1 : end]) if end > i + 1 else "'")
            i = end + 1
            continue
        if ch == "[":
            out.append("(?:")
            optional += 1
        elif ch == "]" and optional:
            out.append(")?")
            optional -= 1
        elif ch.isalpha():
            run = len(pattern) - i - len(pattern[i:].lstrip(ch))
            group = _letters(ch, run)
            if group is None:
                return None
            out.append(group)
            i += run
            continue
        else:
            out.append(re.escape(ch))
        i += 1
    out.append(")?" * optional)
    text = "".join(out)
    # The same letter twice (`yyyy ... yyyy`) would name one group twice: not a pattern to read.
    try:
        return _regex_reader(re.compile(text))
    except re.error:
        return None


def _named_reader(name):
    bare = name[len("strict_") :] if name.startswith("strict_") else name
    if bare in _EPOCH_UNITS:
        return _epoch_reader(_EPOCH_UNITS[bare])
    if bare.startswith("basic_"):
        return _regex_reader(_BASIC_ISO)
    if "_" in bare or bare in ("date", "year", "time"):
        return _regex_reader(_ISO)
    return None


def readers(fmt, nanos=False):
    """The readers of a field's `format`, in its order; a name or pattern no reader knows is skipped."""
    found = []
    for part in (fmt or (NANOS_DEFAULT_FORMAT if nanos else DEFAULT_FORMAT)).split("||"):
        part = part.strip()
        reader = _named_reader(part) or pattern_reader(part)
        if reader is not None:
            found.append(reader)
    return found or [_regex_reader(_ISO)]


def instant_ns(value, field_readers):
    """Nanoseconds since the epoch of one value, by the first reader that reads it; ValueError when none does."""
    if isinstance(value, bool):
        raise ValueError(value)
    # A JSON number in a field with a pattern format is read as its digits (the engine does so too).
    text = value if isinstance(value, str) else str(value) if isinstance(value, int) else None
    for read in field_readers:
        got = read(value)
        if got is None and text is not None and text is not value:
            got = read(text)
        if got is not None:
            return got
    raise ValueError(f"{value!r} fits none of the field's date formats")
