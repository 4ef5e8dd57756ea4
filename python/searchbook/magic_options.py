"""The options of the `%searchbook` / `%%searchbook` line, and the help `%searchbook?` and
`%searchbook --help` show."""
from collections import namedtuple

USAGE = "%%searchbook [-q] [--save NAME | -o NAME]  (then the searchbook cell), or %searchbook [-q] [--save NAME] <one searchbook line>"

HELP = f"""Runs searchbook console cells (Elasticsearch, OpenSearch, Typesense) in a searchbook kernel
beside this Python kernel, shows its outputs, and returns the cell's last answer.

    {USAGE}

Options (before the searchbook text):
  --save NAME, -o NAME   keep the answer under the Python name NAME too
  --quiet, -q            show nothing (the value is the same); a trailing `;` does the same
  --help, -h             this text

The cell is a searchbook console cell, as in a searchbook notebook:
  %connect elasticsearch <url> auth=basic user=elastic password=${{env:ES_PASSWORD}}
  %use <connection>   %set name = <JSON>   %vars   %export <index> <file>
  GET /products/_search
  {{"size": 10, "query": {{"match": {{"name": "wireless"}}}}}}

${{name}} is the Python variable's value, sent as JSON (never pasted into the text);
${{env:NAME}} reads os.environ as it is when the cell runs. Secrets go in the environment
(password=${{env:ES_PASSWORD}}) or are asked for: a password typed into a cell is refused,
and IPython has already kept the cell's text in its history (see the README).

The value: an Answer, or None for cells whose last output is a message (%connect, %export).
  .json              the engine's answer, every number as the engine wrote it
  .rows, .columns    the grid's rows and columns;  .types  each column's engine type
  .complete          False when rows past the row cap were left out (a warning says so)
  .aggregations      each aggregation or facet table by name (.notes: what the engine adds)
  .to_pandas(), .to_polars()   DataFrames typed by the mapping or schema;
                     all=True runs the request again and reads every row it answers

Settings (%config SearchbookMagic, or c.SearchbookMagic.... in ipython_config.py):
  %config SearchbookMagic.quiet = True        every call quiet by default
  %config SearchbookMagic.max_rows = 10000    rows kept per answer (default: the kernel's, 1,000)

Errors raise searchbook.SearchbookError (ename, evalue); Interrupt stops the request in flight.
"""

Options = namedtuple("Options", "save quiet help")


class UsageError(ValueError):
    pass


def parse_options(line):
    """The options at the start of the magic's line, and the rest of it."""
    save, quiet, shown_help = None, False, False
    rest = line.strip()
    while rest.startswith("-"):
        word, _, after = rest.partition(" ")
        after = after.strip()
        if word in ("--quiet", "-q"):
            quiet = True
        elif word in ("--help", "-h"):
            shown_help = True
        elif word in ("--save", "-o") or word.startswith("--save="):
            name = word[len("--save=") :] if word.startswith("--save=") else after.split(None, 1)[0] if after else ""
            if not word.startswith("--save="):
                after = after[len(name) :].strip()
            if not name.isidentifier():
                raise UsageError(f"{word.split('=')[0]} takes a Python name to keep the answer under. Write {USAGE}")
            save = name
        else:
            raise UsageError(f"Unknown option {word}: searchbook takes --save NAME / -o NAME, --quiet / -q and --help. Write {USAGE}")
        rest = after
    return Options(save, quiet, shown_help), rest
