"""Frozen records: the attribute encodings, the print path's types and the analysis results.

They are not dataclasses because dataclasses are slow to load and to apply: importing `dataclasses` pulls in
`inspect` (about 12 ms), and each `@dataclass(frozen=True)` compiles its methods (about 1 ms a class; the 18
encodings took 20 ms, the 23 result classes `convert` needs as many), while `ttlayout -l ATTR -t TYPE` has a
50 ms start-up budget and `info`, `lookup` and `convert` 100 ms in all. `frozen` gives the same frozen,
comparable, hashable, printable objects; `replace` is `dataclasses.replace`. Every frozen result record is one,
the audit's `Finding` and `ModuleAudit` included (measured: a 20-field class is built in about 1.5 ms, against
about 20 ms as a frozen dataclass). The audit's mutable state (a module, its SSA table, the allocator's buffers)
is plain slotted classes: only the language server (lsp/) uses `dataclasses`.

Type checkers see `frozen` as a `typing.dataclass_transform` (frozen fields, an `__init__` per class), declared
behind `TYPE_CHECKING` so that importing this module loads no `typing`."""
from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:      # what type checkers see: `frozen` makes dataclasses; typing is never imported at run time
    import sys
    from typing import Any, TypeVar

    if sys.version_info >= (3, 11):
        from typing import dataclass_transform
    else:
        from typing_extensions import dataclass_transform

    _Class = TypeVar("_Class", bound=type)
    _Record = TypeVar("_Record")

    @dataclass_transform(frozen_default=True)
    def frozen(cls: _Class) -> _Class: ...

    @dataclass_transform(frozen_default=True)
    def frozen_slots(cls: _Class) -> _Class: ...

    def replace(record: _Record, **changes: Any) -> _Record: ...
else:
    def frozen(cls):
        """A frozen record, like `@dataclass(frozen=True)` but built without generating code: fields are the class's
        annotated names (inherited ones first), defaults their class values.

        >>> @frozen
        ... class Point:
        ...     x: int
        ...     y: int = 0
        >>> Point(1), Point(1) == Point(1, 0), replace(Point(1), y=2)
        (Point(x=1, y=0), True, Point(x=1, y=2))
        """
        names: list[str] = []
        for klass in reversed(cls.__mro__):
            for name in klass.__dict__.get("__annotations__", {}):
                if name not in names:
                    names.append(name)
        cls._fields = tuple(names)
        cls._defaults = {n: cls.__dict__[n] for n in names if n in cls.__dict__} | {
            n: v for k in cls.__mro__[1:] for n, v in getattr(k, "_defaults", {}).items() if n not in cls.__dict__}
        cls.__init__ = _record_init
        cls.__eq__ = _record_eq
        cls.__hash__ = _record_hash
        cls.__repr__ = _record_repr
        cls.__setattr__ = cls.__delattr__ = _record_frozen
        return cls

    def frozen_slots(cls):
        """`frozen`, with `__slots__`: for records kept by the hundred thousand (a huge function's rows and
        locations), about 200 bytes each instead of a dict's 1 KB. The class is rebuilt with its fields as slots
        (defaults move to `_defaults`); its `__init__` and `replace` are generated for its fields (one slot store
        per field, no dict of arguments: a row is built in about 1 us, where the generic path took 5)."""
        own = [n for n in cls.__dict__.get("__annotations__", {})]
        space = {k: v for k, v in cls.__dict__.items() if k not in own and k not in ("__dict__", "__weakref__")}
        space["__slots__"] = tuple(own)
        new = frozen(type(cls)(cls.__name__, cls.__bases__, space))
        new._defaults = {n: v for k in cls.__mro__[1:] for n, v in getattr(k, "_defaults", {}).items()
                         if n not in own} | {n: cls.__dict__[n] for n in own if n in cls.__dict__}
        new.__init__ = _slotted_init
        if new.__bases__ == (object,):
            new.__init__, new._replace = _generated(new, own)
        return new

    def replace(record, **changes):
        """A copy of a frozen record with some fields changed (dataclasses.replace for these records)."""
        fast = getattr(type(record), "_replace", None)
        if fast is not None:
            return fast(record, changes)
        return type(record)(**{n: changes.get(n, getattr(record, n)) for n in type(record)._fields})


def copier(cls, changed: tuple[str, ...]):
    """A function `(record, *values)` -> a copy of a `frozen_slots` record of class `cls` with the fields `changed`
    set to `values`, in that order: `replace` written out for one set of fields, for a loop making 450,000 rows
    (no dict of changes, no check of names per call).

    >>> @frozen_slots
    ... class Point:
    ...     x: int
    ...     y: int = 0
    >>> copier(Point, ("y",))(Point(1), 5)
    Point(x=1, y=5)
    """
    made = _COPIERS.get((cls, changed))
    if made is None:
        unknown = [n for n in changed if n not in cls._fields]
        if unknown or cls.__bases__ != (object,) or not hasattr(cls, "_replace"):
            raise TypeError(f"{cls.__name__}: no slotted fields {unknown or list(changed)}")
        space = {"_new": object.__new__, "_cls": cls, **{f"_s_{n}": cls.__dict__[n].__set__ for n in cls._fields}}
        lines = "".join(f"    _s_{n}(new, {'v_' + n if n in changed else 'record.' + n})\n" for n in cls._fields)
        source = (f"def copy(record, {', '.join('v_' + n for n in changed)}):\n    new = _new(_cls)\n{lines}"
                  f"    return new\n")
        exec(compile(source, f"<copier {cls.__name__}>", "exec"), space)
        made = _COPIERS[(cls, changed)] = space["copy"]
    return made


_COPIERS: dict = {}


def _generated(cls, names: list) -> tuple:
    """(`__init__`, `_replace(record, changes)`) of a slotted record, written out for its fields: each field is
    one store through its slot descriptor. A field without a default after one with a default, or an unknown
    name in `changes`, fails as the generic path does."""
    defaults = cls._defaults
    seen_default = False
    params = []
    for n in names:
        if n in defaults:
            seen_default = True
            params.append(f"{n}=_d_{n}")
        elif seen_default:
            raise TypeError(f"{cls.__name__}: field '{n}' without a default follows one with a default")
        else:
            params.append(n)
    space: dict = {"_new": object.__new__, "_cls": cls, "_fields": frozenset(names), "_TypeError": TypeError}
    space.update({f"_d_{n}": defaults[n] for n in names if n in defaults})
    space.update({f"_s_{n}": cls.__dict__[n].__set__ for n in names})
    init = "".join(f"    _s_{n}(self, {n})\n" for n in names)
    copy = "".join(f"    _s_{n}(new, get('{n}', record.{n}))\n" for n in names)
    source = (f"def __init__(self, {', '.join(params)}):\n{init}"
              f"def _replace(record, changes):\n"
              f"    if not _fields.issuperset(changes):\n"
              f"        raise _TypeError(f\"{cls.__name__}: unexpected field '{{sorted(set(changes) - _fields)[0]}}'\")\n"
              f"    new = _new(_cls)\n    get = changes.get\n{copy}    return new\n")
    exec(compile(source, f"<record {cls.__name__}>", "exec"), space)
    return space["__init__"], space["_replace"]


def field_names(record) -> tuple[str, ...]:
    """The fields of a `frozen` record, in declaration order (inherited ones first).

    >>> @frozen
    ... class Point:
    ...     x: int
    ...     y: int = 0
    >>> field_names(Point(1))
    ('x', 'y')
    """
    return type(record)._fields


def _field_values(cls, args, kwargs) -> dict:
    """Every field's value for `cls(*args, **kwargs)`: the arguments by position and by name, then the defaults."""
    fields = cls._fields
    if len(args) > len(fields):
        raise TypeError(f"{cls.__name__} takes {len(fields)} fields, got {len(args)}")
    values = dict(zip(fields, args))
    for name in kwargs:
        if name not in fields or name in values:
            raise TypeError(f"{cls.__name__}: unexpected or repeated field '{name}'")
    values.update(kwargs)
    if len(values) < len(fields):                    # the defaults of the fields not given
        for name in fields:
            if name not in values:
                if name not in cls._defaults:
                    raise TypeError(f"{cls.__name__}: missing field '{name}'")
                values[name] = cls._defaults[name]
    return values


def _record_init(self, *args, **kwargs):
    self.__dict__.update(_field_values(type(self), args, kwargs))   # one update; __setattr__ is the frozen guard


def _slotted_init(self, *args, **kwargs):
    for name, value in _field_values(type(self), args, kwargs).items():
        object.__setattr__(self, name, value)


def _values(self) -> tuple:
    return tuple(getattr(self, n) for n in type(self)._fields)


def _record_eq(self, other):
    if type(other) is not type(self):
        return NotImplemented
    return _values(self) == _values(other)


def _record_hash(self):
    return hash((type(self).__name__, _values(self)))


def _record_repr(self):
    return f"{type(self).__name__}(" + ", ".join(f"{n}={getattr(self, n)!r}" for n in type(self)._fields) + ")"


def _record_frozen(self, name, value=None):
    raise AttributeError(f"cannot assign to field '{name}' of a frozen {type(self).__name__}")
