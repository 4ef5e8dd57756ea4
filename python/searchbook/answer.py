"""A searchbook answer as a Python value, read from the MIME bundle the searchbook kernel showed:
the engine's JSON, the grid's rows and columns, and each aggregation table, as DataFrames when
pandas or polars is installed."""
import base64
import gc
import gzip
import json
from contextlib import contextmanager

HITS_MIME = "application/vnd.searchbook.hits+json"
TABLE_MIME = "application/vnd.searchbook.table+json"
JSON_MIME = "application/vnd.searchbook.json+json"
ROWS_MIME = "application/vnd.searchbook.rows+json"
ANSWER_MIMES = (HITS_MIME, TABLE_MIME, JSON_MIME)
# A search answer's bytes sent before its output, as soon as the kernel has them (never shown).
ANSWER_BYTES_MIME = "application/vnd.searchbook.answer-bytes"
# The notebook keeps the engine's JSON text with every `"` and `'` swapped (so it needs few escapes).
# Swapped back as UTF-8 bytes, which json reads directly: str.translate is slow past ASCII.
_UNSWAP = bytes.maketrans(b"\"'", b"'\"")
# `answerFormat`: answers over COMPRESSED_ANSWER_BYTES are kept as that swapped text gzip-compressed
# and base64-encoded, so a notebook of large answers is a fifth as big; smaller ones stay plain.
ANSWER_FORMAT = "json, quotes swapped"
COMPRESSED_ANSWER_FORMAT = "json, quotes swapped, gzip, base64"
COMPRESSED_ANSWER_BYTES = 64 * 1024
# gzip's level, as the kernel's: the fastest (about 1.6 ms for 1,000 hits), where 6 would give a text
# a quarter smaller for nearly three times the time of every shown answer.
_GZIP_LEVEL = 1


class RowsLeftOut(UserWarning):
    """An answer whose `.rows` (and DataFrames) hold fewer rows than the engine sent."""


def is_answer(bundle):
    return any(mime in bundle for mime in ANSWER_MIMES)


class Table:
    """Rows under named columns, with the engine's type (and a date field's format) of each
    column where it says one, and what the engine says of the table as a whole (`notes`)."""

    def __init__(self, name, columns, rows, types=None, formats=None, notes=None):
        self.name = name
        self.columns = list(columns)
        self.rows = rows
        self.types = dict(types or {})
        self.formats = dict(formats or {})
        self.notes = list(notes or [])

    def to_pandas(self):
        """The rows as a pandas DataFrame, typed by the engine; `notes` are in its `.attrs["notes"]`."""
        from searchbook.frames import to_pandas

        with acyclic_build():
            values = self._column_values()
            return to_pandas(self.columns, self.rows if values is None else None, self.types, self.formats, self.notes, values)

    def to_polars(self):
        from searchbook.frames import to_polars

        with acyclic_build():
            values = self._column_values()
            return to_polars(self.columns, self.rows if values is None else None, self.types, self.formats, values)

    def _column_values(self):
        """Each column's values read straight from the answer, or None to read them from `rows`."""
        return None

    def __len__(self):
        return len(self.rows)

    def __repr__(self):
        return f"<searchbook table {self.name!r}: {len(self.rows)} rows × {len(self.columns)} columns>"


class AggregationTable(Table):
    """An aggregation or facet table; its columns are typed from the answer when first asked."""

    def __init__(self, payload, answer):
        rows = payload["rows"]
        names = payload.get("columns") or list(dict.fromkeys(k for row in rows for k in row))
        notes = list(payload.get("notes") or [])
        notes += [f"Not shown here (read it in .json): {path}" for path in payload.get("notShown") or []]
        if payload.get("omittedRows"):
            notes.append(f"{payload['omittedRows']:,} more rows were left out (the row cap)")
        super().__init__(payload["name"], names, rows, notes=notes)
        self._answer = answer
        self._typed = False

    def _type(self):
        if not self._typed:
            from searchbook.aggregation_types import table_types

            self.types, self.formats, self.rows = table_types(self.name, self.columns, self.rows, self._answer.json)
            self._typed = True

    def to_pandas(self):
        self._type()
        return super().to_pandas()

    def to_polars(self):
        self._type()
        return super().to_polars()


class Answer(Table):
    """The last answer of a `%%searchbook` cell.

    `json`: the engine's answer, every number as the engine wrote it (for hits, without the
    documents past the row cap; None when the answer was too large to keep). `rows` /
    `columns`: the grid's, hits or table. `complete`: False when rows were left out (the row
    cap); `to_pandas(all=True)` then runs the request again and reads every row it answers.
    `aggregations`: each aggregation or facet table by name. `to_pandas()` / `to_polars()`:
    the grid as a DataFrame, typed by the mapping or schema."""

    def __init__(self, bundle, rerun=None, buffers=(), early=None):
        # As it came: an answer sent as its own JSON bytes is one of the message's buffers (`answerBuffer`).
        self._bundle = bundle
        self._buffers = list(buffers)
        # Its parse, when the same bytes came before it (EarlyAnswer): given to the first reader.
        self._early = _NOTHING
        self._shown = None
        self.info = {}
        self.total = None
        self.aggregations = {}
        self.omitted_rows = 0
        self._rerun = rerun
        columns, types, formats, notes = [], {}, {}, []
        # The kernel sends rows beside the answer only where they cannot be rebuilt from it;
        # otherwise they are built from the answer when first asked for (`rows`).
        rows = (bundle.get(ROWS_MIME) or {}).get("rows")
        if HITS_MIME in bundle:
            payload = bundle[HITS_MIME]
            columns = [c["name"] for c in payload["columns"]]
            types = {c["name"]: c.get("type", "") for c in payload["columns"]}
            formats = {c["name"]: c["format"] for c in payload["columns"] if c.get("format")}
            self.total = payload.get("total")
            for table in payload.get("aggregations", []):
                self.aggregations[table["name"]] = AggregationTable(table, self)
        elif TABLE_MIME in bundle:
            payload = bundle[TABLE_MIME]
            columns = payload["columns"]
            types = dict(zip(columns, payload.get("types") or []))
            notes = payload.get("notes") or []
        elif JSON_MIME in bundle:
            payload = bundle[JSON_MIME]
        else:
            payload = {}
        self.omitted_rows = payload.get("omittedRows") or 0
        self.info = payload.get("info", {})
        self._payload = payload
        at = payload.get("answerBuffer")
        if early is not None and at is not None and HITS_MIME in bundle:
            self._early = early.take(self._buffers[at])
        if rows is None:
            rows = _kept_rows(payload)
        super().__init__(self.info.get("path", ""), columns, rows, types, formats, notes)

    @property
    def rows(self):
        """The grid's rows (dicts by column name), rebuilt from the answer when first asked for."""
        if self._rows is None:
            with acyclic_build():
                self._rows = self._rebuilt_rows()
        return self._rows

    @rows.setter
    def rows(self, rows):
        self._rows = rows

    def _column_values(self):
        # Rows already built are read as they are; else the hits' columns are read from the
        # documents without making a row of each.
        if self._rows is not None or HITS_MIME not in self._bundle:
            return None
        payload = self._payload
        layout = payload.get("documents")
        if not layout or not _holds_answer(payload):
            return None
        # Parsed for the columns alone unless `.json` was read already: the parsed answer is then
        # freed before the cycle collector runs again, which would otherwise walk its objects
        # (tens of thousands for 1,000 hits) once more for every DataFrame made in a loop.
        answer = self.__dict__["_json"] if "_json" in self.__dict__ else self._parsed_once()
        if answer is None:
            return None
        from searchbook.answer_rows import document_columns

        return document_columns(answer, layout, payload["columns"], set(self.columns))

    def _rebuilt_rows(self):
        from searchbook.answer_rows import document_rows, table_rows

        payload = self._payload
        answer = self.json if _holds_answer(payload) else None
        if answer is None:
            return []
        if HITS_MIME in self._bundle:
            layout = payload.get("documents")
            return document_rows(answer, layout, payload["columns"]) if layout else []
        return table_rows(answer)

    @property
    def bundle(self):
        """The MIME bundle as a notebook keeps it (the answer as the swapped string of `answer`)."""
        if self._shown is None:
            self._shown = shown_bundle(self._bundle, self._buffers)
        return self._shown

    @property
    def complete(self):
        """True when `.rows` holds every row of the answer the engine sent."""
        return not self.omitted_rows

    @property
    def json(self):
        # Parsed when first asked, or while the kernel read it (EarlyAnswer).
        if JSON_MIME in self._bundle:
            # An answer holding a long past 2^53 is kept as exact text (JupyterLab would round application/json).
            if "application/json" in self._bundle:
                return self._bundle["application/json"]
            return _answer_json(self._bundle[JSON_MIME])
        if "_json" not in self.__dict__:
            self._json = self._parsed_once()
        return self._json

    def _parsed_once(self):
        """The answer parsed: the parse made while the kernel read it, once, else parsed now."""
        if self._early is not _NOTHING:
            parsed, self._early = self._early, _NOTHING
            return parsed
        payload = self._bundle.get(HITS_MIME) or self._bundle.get(TABLE_MIME) or {}
        return _answer_json(payload, self._buffers)

    def left_out_message(self):
        sent = len(self.rows) + self.omitted_rows
        return (
            f"searchbook kept {len(self.rows):,} of the {sent:,} rows of this answer (the row cap): .rows, .json and "
            f"the DataFrames hold the first {len(self.rows):,}. answer.to_pandas(all=True) (or to_polars(all=True)) runs the "
            f"request again and reads them all; `%config SearchbookMagic.max_rows = {sent}` raises the cap for the next cells; "
            f"%export writes a whole index to a file."
        )

    def every_row(self):
        """This answer's request run again with every row kept (the same rows unless the index changed since)."""
        if self.complete:
            return self
        if self._rerun is None:
            raise ValueError("This answer was not made by a %searchbook magic in this kernel: run its request again instead.")
        return self._rerun(self)

    def to_pandas(self, all=False):
        """The grid as a pandas DataFrame; `all=True` reads every row even past the row cap."""
        return self.every_row().to_pandas() if all else super().to_pandas()

    def to_polars(self, all=False):
        return self.every_row().to_polars() if all else super().to_polars()

    def __repr__(self):
        info = self.info
        said = f"{info.get('method', '')} {info.get('path', '')} → {info.get('status', '')}".strip()
        parts = [f"{len(self.rows)} rows × {len(self.columns)} columns"] if self.columns else []
        if self.omitted_rows:
            parts.append(f"{self.omitted_rows:,} more rows left out (the row cap)")
        if self.aggregations:
            parts.append("aggregations " + ", ".join(self.aggregations))
        return f"<searchbook answer {said}" + (f": {'; '.join(parts)}" if parts else "") + ">"


_NOTHING = object()


class EarlyAnswer:
    """A search answer's bytes as the kernel sent them before reading them itself, parsed while
    it reads them; `take` gives that parse to the answer whose output carries the same bytes."""

    __slots__ = ("bytes", "value")

    def __init__(self):
        self.bytes, self.value = None, _NOTHING

    def read(self, payload, buffers):
        self.bytes, self.value = None, _NOTHING
        try:
            raw = _buffer_bytes(buffers[payload["answerBuffer"]])
            with acyclic_build():
                value = json.loads(raw)
        except (IndexError, KeyError, TypeError, ValueError):
            # Not JSON after all (or not sent whole): the answer's output is read as it comes.
            return
        self.bytes, self.value = raw, value

    def take(self, buffer):
        """The parse of these bytes if they are the ones that came early (once), else _NOTHING."""
        raw, value = self.bytes, self.value
        self.bytes, self.value = None, _NOTHING
        if raw is None or not (raw is (sent := _buffer_bytes(buffer)) or raw == sent):
            return _NOTHING
        return value


@contextmanager
def acyclic_build():
    """Python's cycle collector paused while an answer's values are built: parsed JSON and the
    lists of its columns hold no reference cycles, yet each thousand new objects would make the
    collector walk the young ones again (a third of the time 1,000 hits take to become a
    DataFrame). It runs again after, as it was; what is freed meanwhile is freed as always."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def swapped_answer_bytes(payload):
    """The answer a payload keeps, as its swapped JSON text in UTF-8, whatever its `answerFormat`
    (plain, or gzip-compressed and base64-encoded); None when the payload keeps none. Every
    reader of a payload's `answer` goes through here."""
    text = payload.get("answer")
    if text is None:
        return None
    if payload.get("answerFormat") == COMPRESSED_ANSWER_FORMAT:
        try:
            return gzip.decompress(base64.b64decode(text, validate=True))
        except (ValueError, OSError, EOFError) as error:
            raise ValueError(
                f"This answer is marked '{COMPRESSED_ANSWER_FORMAT}' but does not read as that: the notebook's "
                "output was changed by hand or cut. Run the cell again to get it back."
            ) from error
    return text.encode("utf-8", "surrogatepass")


def _swapped_json(text):
    return _unswapped_json(text.encode("utf-8", "surrogatepass"))


def _unswapped_json(swapped):
    with acyclic_build():
        return json.loads(swapped.translate(_UNSWAP))


def _answer_json(payload, buffers=()):
    at = payload.get("answerBuffer")
    if at is not None:
        with acyclic_build():
            return json.loads(_buffer_bytes(buffers[at]))
    swapped = swapped_answer_bytes(payload)
    return None if swapped is None else _unswapped_json(swapped)


def _holds_answer(payload):
    return "answer" in payload or "answerBuffer" in payload


def _buffer_bytes(buffer):
    # jupyter_client hands buffers as memoryviews of the frames' bytes: read without a copy.
    if isinstance(buffer, memoryview) and isinstance(buffer.obj, bytes) and buffer.nbytes == len(buffer.obj):
        return buffer.obj
    return bytes(buffer)


def shown_bundle(bundle, buffers):
    """The bundle as a notebook keeps it: an answer sent as a buffer of the message back in its
    payload as the string JupyterLab's renderer reads (`answer`), compressed past the same size
    as the kernel compresses the answers it shows itself."""
    shown = dict(bundle)
    for mime in (HITS_MIME, TABLE_MIME):
        payload = bundle.get(mime)
        if payload and "answerBuffer" in payload:
            answer, answer_format = _kept_answer(buffers[payload["answerBuffer"]])
            shown[mime] = {
                **{("answer" if key == "answerBuffer" else key): value for key, value in payload.items()},
                "answer": answer,
                "answerFormat": answer_format,
            }
    return shown


def _kept_answer(buffer):
    """An answer's own bytes as a payload keeps them: the swapped text, and its `answerFormat`."""
    swapped = _buffer_bytes(buffer).translate(_UNSWAP)
    if len(swapped) > COMPRESSED_ANSWER_BYTES:
        compressed = gzip.compress(swapped, compresslevel=_GZIP_LEVEL, mtime=0)
        return base64.b64encode(compressed).decode("ascii"), COMPRESSED_ANSWER_FORMAT
    return swapped.decode("utf-8", "surrogatepass"), ANSWER_FORMAT


def _kept_rows(payload):
    # Rows holding a number past 2^53 are kept as exact JSON text (quotes swapped), as the answer is.
    text = payload.get("exactRows")
    return payload.get("rows") if text is None else _swapped_json(text)
