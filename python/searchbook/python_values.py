"""Python values named in a searchbook cell (`${name}`), sent to the searchbook kernel as
`%set name = <JSON>` before the cell: the kernel puts them into the request as JSON values,
exactly as it does for its own variables, and nothing is pasted into the cell's text."""
import json
import re

# As the console reads references: `${name}`; `${env:NAME}` is the environment's, not Python's.
REFERENCE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")


class NotJson(TypeError):
    pass


class SecretFromPython(ValueError):
    pass


def referenced(code, namespace):
    """The names the cell references that the Python namespace holds, in order, once each."""
    return [name for name in dict.fromkeys(REFERENCE.findall(code)) if name in namespace and not name.startswith("_")]


# `%connect` options whose value is a secret, by the words their names are made of.
SECRET_OPTION = re.compile(r"(?:^|\s)([\w-]*(?:password|key|secret|token|credential)[\w-]*)=\S*\$\{([A-Za-z_][A-Za-z0-9_]*)\}", re.I)


def check_connect_values(code, names):
    """Refuses a secret of a `%connect` line taken from a Python variable: sent with `%set`, it would
    be one of the searchbook kernel's variables, listed by `%vars`."""
    for line in code.splitlines():
        if not line.lstrip().startswith("%connect"):
            continue
        for option, name in SECRET_OPTION.findall(line):
            if name in names:
                raise SecretFromPython(
                    f"{option}=${{{name}}} would send the Python variable {name} as a searchbook variable, which %vars lists. "
                    f"Put it in the environment instead, `os.environ['SEARCHBOOK_SECRET'] = {name}`, and write "
                    f"{option}=${{env:SEARCHBOOK_SECRET}} (or leave {option}= out to be asked for it): nothing was sent."
                )


def _plain(value):
    # numpy and pandas values (np.int64, arrays, Series), dates, sets: their JSON counterparts.
    for method in ("tolist", "item"):
        convert = getattr(value, method, None)
        if callable(convert):
            return convert()
    isoformat = getattr(value, "isoformat", None)
    if callable(isoformat):
        return isoformat()
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=repr)
    raise TypeError(type(value).__name__)


def set_line(name, value):
    """`%set name = <JSON>` for a Python value; NotJson says what to pass instead."""
    try:
        text = json.dumps(value, default=_plain, allow_nan=False, ensure_ascii=False)
    except (TypeError, ValueError) as err:
        raise NotJson(
            f"The Python value {name} ({type(value).__name__}) cannot be sent to searchbook as JSON ({err}). "
            f"Give ${{{name}}} a str, number, bool, None, list or dict (NaN and infinities have no JSON form): nothing was sent."
        ) from None
    # A `$` only ever stands inside a JSON string: escaped, no text of the value reads as a `${...}` reference.
    return f"%set {name} = {text.replace('$', chr(92) + 'u0024')}"
