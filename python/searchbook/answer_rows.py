"""The grid's rows rebuilt in Python from the engine's answer a bundle keeps, by the rules the
kernel and JupyterLab build them with (contracts/answer-rows.ts), so the kernel need not send
every row a second time beside the answer. Numbers keep every digit the engine wrote."""

_MISSING = object()


def _is_index(key):
    """A key a JavaScript object lists before all others (an array index), in ascending order."""
    return key.isascii() and key.isdigit() and (key == "0" or key[0] != "0") and int(key) < 4294967295


def _js_keys(obj):
    """The object's keys in the order JavaScript walks them: array indexes first, ascending.
    It decides which of two fields writing the same dotted column wins, as it does in the kernel."""
    # The smallest key compares at C speed: from ":" up, no key starts with a digit ("0" to "9" sort below ":").
    if not obj or min(obj) >= ":" or not any(k[:1].isdigit() for k in obj):
        return obj
    indexes = sorted((k for k in obj if _is_index(k)), key=int)
    return indexes + [k for k in obj if not _is_index(k)] if indexes else obj


def _value_at(value, path, start=0):
    """The value at a path (_MISSING where there is none); through an array, each element's value."""
    current = value
    for i in range(start, len(path)):
        key = path[i]
        if type(current) is list:
            if type(key) is int:
                current = current[key] if 0 <= key < len(current) else _MISSING
            else:
                return [_or_none(_value_at(element, path, i)) for element in current]
        elif type(current) is dict:
            current = current.get(str(key), _MISSING)
        else:
            return _MISSING
        if current is _MISSING:
            return _MISSING
    return current


def _or_none(value):
    return None if value is _MISSING else value


def flatten_document(doc, prefix="", into=None):
    """Objects flatten to dotted paths; arrays stay whole. The rows of tables."""
    into = {} if into is None else into
    for key in _js_keys(doc):
        value = doc[key]
        path = f"{prefix}.{key}" if prefix else key
        if type(value) is dict and value:
            flatten_document(value, path, into)
        else:
            into[path] = value
    return into


def table_rows(answer):
    """One table row per element of an array answer."""
    return [flatten_document(v) if type(v) is dict else {"value": v} for v in (answer if type(answer) is list else [answer])]


def documents_of(answer, at):
    found = _value_at(answer, at)
    return found if type(found) is list else [found] if type(found) is dict else []


def _element_parts(layout):
    """How each document's leading columns and its fields are read from its element."""
    meta = [(name, path[0] if len(path) == 1 else None, path) for name, path in layout.get("meta", {}).items()]
    source = layout.get("source", [])
    return meta, source, (source[0] if len(source) == 1 else None)


def _meta_row(element, meta):
    is_dict = type(element) is dict
    # Most paths are one key of an object (`_id`, `_source`): read without walking them.
    return {name: element.get(key) if key is not None and is_dict else _or_none(_value_at(element, path)) for name, key, path in meta}


def _source_of(element, source, source_key):
    found = element.get(source_key) if source_key is not None and type(element) is dict else _value_at(element, source)
    return {} if found is _MISSING or found is None else found


def document_rows(answer, layout, columns, limit=None):
    """One row per document of the answer: the leading columns from its element, then its fields."""
    documents = documents_of(answer, layout["at"])
    if limit is not None:
        documents = documents[:limit]
    build = row_builder(columns).build
    meta, source, source_key = _element_parts(layout)
    return [build(_meta_row(element, meta), _source_of(element, source, source_key)) for element in documents]


def document_columns(answer, layout, columns, names):
    """The values of each column in `names`, one per document: `[row.get(name) for row in
    document_rows(...)]` for each name, read from the documents column by column. A row is built
    only for a document whose fields could write one column twice (a key holding a dot, a field
    that is not an object); the others' plain fields are read straight from their source."""
    documents = documents_of(answer, layout["at"])
    builder = row_builder(columns)
    meta, source_path, source_key = _element_parts(layout)
    meta_names = {name for name, _, _ in meta}
    sources, extras, deleted = [], [], set()
    no_extra = {}
    separable, settle = builder.others_if_separable, builder.settle
    # What `separable` says depends on a source's keys alone, and the hits of one index share a
    # handful of key lists: said once for each.
    separable_by_keys = {}
    for element in documents:
        if source_key is not None and type(element) is dict:
            source = element.get(source_key)
            source = {} if source is None else source
        else:
            source = _source_of(element, source_path, source_key)
        if type(source) is dict:
            keys = tuple(source)
            others = separable_by_keys.get(keys, _UNSAID)
            if others is _UNSAID:
                others = separable_by_keys[keys] = separable(source)
        else:
            others = separable(source)
        if others is None:
            row = builder.build(_meta_row(element, meta), source)
            sources.append(row)
            extras.append(row)
            continue
        sources.append(source)
        if not others:
            extras.append(no_extra)
            continue
        extra = {}
        for key in others:
            if settle(extra, key, source[key]):
                extra[(_DROPPED, key)] = True
                deleted.add(key)
        extras.append(extra)
    meta_values = {}
    for name, key, path in meta:
        if name in names:
            meta_values[name] = [
                element.get(key) if key is not None and type(element) is dict else _or_none(_value_at(element, path))
                for element in documents
            ]
    found = {}
    for name in names:
        if name in deleted or (name in meta_values and "." in name):
            found[name] = _mixed_column(name, sources, extras, meta_values.get(name))
        elif name in meta_values:
            # A built row holds every leading column; a source holds one only as a field of its own.
            found[name] = [source[name] if name in source else value for source, value in zip(sources, meta_values[name])]
        elif "." in name:
            found[name] = [extra.get(name) for extra in extras]
        else:
            found[name] = [source.get(name) for source in sources]
    return found


# Marks, in a document's extra values, a field whose own column it no longer writes (an object walked).
_DROPPED = object()
_UNSAID = object()


def _mixed_column(name, sources, extras, meta_values):
    """A column read in full: written by a walked field, dropped, from the source, else the leading value."""
    values = []
    dropped = (_DROPPED, name)
    for i, (source, extra) in enumerate(zip(sources, extras)):
        if name in extra and extra is not source:
            values.append(extra[name])
        elif dropped in extra:
            values.append(None)
        elif name in source:
            values.append(source[name])
        else:
            values.append(meta_values[i] if meta_values is not None else None)
    return values


def row_builder(columns):
    """How one document fills a row, given the grid's columns (see rowBuilder in answer-rows.ts):
    mapped columns keep their whole value and the leaves of arrays of objects get one entry per
    element; other objects flatten to dotted names."""
    whole = set()
    array_leaves = {}
    mapped_leaves = {}

    def add(into, under, name):
        into.setdefault(under, []).append((name, name[len(under) + 1 :].split(".")))

    for c in columns:
        name = c["name"]
        if c.get("arrayParent") is not None:
            add(array_leaves, c["arrayParent"], name)
            continue
        if c.get("origin") in ("documents", "meta"):
            continue
        whole.add(name)
        if c.get("origin") == "mapping":
            dot = name.find(".")
            while dot > 0:
                add(mapped_leaves, name[:dot], name)
                dot = name.find(".", dot + 1)

    def entries(row, leaves, elements):
        for name, path in leaves:
            if len(path) == 1:
                # Most leaves sit right under each element: read them without walking a path.
                key = path[0]
                row[name] = [
                    element.get(key) if type(element) is dict else _or_none(_value_at(element, path)) for element in elements
                ]
            else:
                row[name] = [_or_none(_value_at(element, path)) for element in elements]

    def walk(obj, prefix, row):
        for key in _js_keys(obj):
            value = obj[key]
            path = f"{prefix}.{key}" if prefix else key
            if path in whole:
                row[path] = value
                leaves = array_leaves.get(path)
                if leaves:
                    kind = type(value)
                    if kind is list:
                        entries(row, leaves, value)
                    elif kind is dict:
                        entries(row, leaves, [value])
                continue
            kind = type(value)
            if kind is dict and value:
                walk(value, path, row)
                continue
            row[path] = value
            if kind is list:
                leaves = mapped_leaves.get(path)
                if leaves and any(type(v) is dict for v in value):
                    entries(row, leaves, value)

    def build(row, source):
        if type(source) is dict:
            walk(source, "", row)
        else:
            row["value"] = source
        return row

    # Fields kept as they are: their column is theirs alone, and no leaves hang under them.
    plain = whole - set(array_leaves)
    dotted_plain = {name for name in plain if "." in name}

    def others_if_separable(source):
        """The source's fields that are not kept as they are, when no two of its fields can write
        the same column (no top-level key holds a dot); None when they can, or it is no object."""
        if type(source) is not dict:
            return None
        others = source.keys() - plain
        for key in others:
            if "." in key:
                return None
        if dotted_plain and not dotted_plain.isdisjoint(source):
            return None
        return others

    def settle(row, key, value):
        """What a top-level field not kept as it is writes beside its own value; True when its
        own column is dropped (an object, walked into dotted columns instead)."""
        kind = type(value)
        if key in whole:
            leaves = array_leaves[key]
            if kind is list:
                entries(row, leaves, value)
            elif kind is dict:
                entries(row, leaves, [value])
        elif kind is dict and value:
            walk(value, key, row)
            return True
        elif kind is list:
            leaves = mapped_leaves.get(key)
            if leaves and any(type(v) is dict for v in value):
                entries(row, leaves, value)
        return False

    def build_at_once(row, source):
        """As build, with the fields kept as they are copied at once. Only when no top-level key
        holds a dot: then no two of them write the same column, so their order cannot matter."""
        others = others_if_separable(source)
        if others is None:
            return build(row, source)
        row.update(source)
        for key in others:
            if settle(row, key, source[key]):
                del row[key]
        return row

    return _Builder(build_at_once, others_if_separable, settle)


class _Builder:
    """A row builder's parts: `build(row, source)` fills a row; `others_if_separable` and
    `settle` let the fields be read column by column where that gives the same values."""

    __slots__ = ("build", "others_if_separable", "settle")

    def __init__(self, build, others_if_separable, settle):
        self.build = build
        self.others_if_separable = others_if_separable
        self.settle = settle
