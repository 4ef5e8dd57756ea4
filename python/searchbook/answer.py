"""A searchbook answer as a Python value, read from the MIME bundle the searchbook kernel showed:
the engine's JSON, the grid's rows and columns, and each aggregation table, as DataFrames when
pandas or polars is installed."""
import json

HITS_MIME = "application/vnd.searchbook.hits+json"
TABLE_MIME = "application/vnd.searchbook.table+json"
JSON_MIME = "application/vnd.searchbook.json+json"
ROWS_MIME = "application/vnd.searchbook.rows+json"
ANSWER_MIMES = (HITS_MIME, TABLE_MIME, JSON_MIME)
# The notebook keeps the engine's JSON text with every `"` and `'` swapped (so it needs few escapes).
_UNSWAP = {ord('"'): "'", ord("'"): '"'}


def is_answer(bundle):
    return any(mime in bundle for mime in ANSWER_MIMES)


class Table:
    """Rows under named columns, with the engine's type of each column where it says one."""

    def __init__(self, name, columns, rows, types=None):
        self.name = name
        self.columns = list(columns)
        self.rows = rows
        self.types = dict(types or {})

    def to_pandas(self):
        from searchbook.frames import to_pandas

        return to_pandas(self.columns, self.rows, self.types)

    def to_polars(self):
        from searchbook.frames import to_polars

        return to_polars(self.columns, self.rows, self.types)

    def __len__(self):
        return len(self.rows)

    def __repr__(self):
        return f"<searchbook table {self.name!r}: {len(self.rows)} rows × {len(self.columns)} columns>"


class Answer(Table):
    """The last answer of a `%%searchbook` cell.

    `json`: the engine's answer (for hits, without the documents past the grid's row cap; None
    when the answer was too large to keep). `rows` / `columns`: the grid's, hits or table.
    `aggregations`: each aggregation or facet table by name. `to_pandas()` / `to_polars()`: the
    grid as a DataFrame, typed by the mapping or schema."""

    def __init__(self, bundle):
        self.bundle = bundle
        self.info = {}
        self.total = None
        self.aggregations = {}
        columns, rows, types = [], [], {}
        kept_rows = (bundle.get(ROWS_MIME) or {}).get("rows")
        if HITS_MIME in bundle:
            payload = bundle[HITS_MIME]
            columns = [c["name"] for c in payload["columns"]]
            types = {c["name"]: c.get("type", "") for c in payload["columns"]}
            rows = kept_rows if kept_rows is not None else payload.get("rows", [])
            self.total = payload.get("total")
            for table in payload.get("aggregations", []):
                names = table.get("columns") or list(dict.fromkeys(k for row in table["rows"] for k in row))
                self.aggregations[table["name"]] = Table(table["name"], names, table["rows"])
        elif TABLE_MIME in bundle:
            payload = bundle[TABLE_MIME]
            columns = payload["columns"]
            types = dict(zip(columns, payload.get("types") or []))
            rows = kept_rows if kept_rows is not None else payload.get("rows", [])
        elif JSON_MIME in bundle:
            payload = bundle[JSON_MIME]
        else:
            payload = {}
        self.info = payload.get("info", {})
        super().__init__(self.info.get("path", ""), columns, rows, types)

    @property
    def json(self):
        # Parsed when asked: a loop of searches that reads only rows never pays for it.
        if JSON_MIME in self.bundle:
            # An answer holding a long past 2^53 is kept as exact text (JupyterLab would round application/json).
            if "application/json" in self.bundle:
                return self.bundle["application/json"]
            return _answer_json(self.bundle[JSON_MIME])
        payload = self.bundle.get(HITS_MIME) or self.bundle.get(TABLE_MIME) or {}
        return _answer_json(payload)

    def __repr__(self):
        info = self.info
        said = f"{info.get('method', '')} {info.get('path', '')} → {info.get('status', '')}".strip()
        parts = [f"{len(self.rows)} rows × {len(self.columns)} columns"] if self.columns else []
        if self.aggregations:
            parts.append("aggregations " + ", ".join(self.aggregations))
        return f"<searchbook answer {said}" + (f": {'; '.join(parts)}" if parts else "") + ">"


def _answer_json(payload):
    text = payload.get("answer")
    return None if text is None else json.loads(text.translate(_UNSWAP))
