"""The layouts a command works on, declared as roles and resolved by one function for every command.

A command declares the layouts it takes as `Role`s (bank: a distributed "register" layout from `-r` and a shared
one from `-s`; info: one layout of any kind from `-l`). `pick` fills each role, in this order of precedence:

1. its option: an attribute, a Gluon constructor, CuTe text (with `-t` giving the shape, read as the role's kind,
   its thread mode in warps of the target's lanes: `warp_lanes`), or `#name` / `name` of the `-i` file;
2. the encoding written in `-t` (`tensor<64x64xf16, #blocked>`, `!ttg.memdesc<...>`): the first role of its kind
   (it must agree with the option where one gave that role too);
3. `-i FILE` with `--alias-names a,b`: one alias per role, in order (they must agree with the `-t` encoding);
4. `-i FILE` alone: the file's layouts of each kind that a role still lacks, in file order, where the file has
   just as many as the command has roles of that kind;
5. a role's default (swizzle's reader: the writer).

Then the tensor type, the element bit width (for the commands with `--bitwidth`) and the linear layouts follow.
"""
from __future__ import annotations

from .. import inputs
from ..errors import TTLayoutError, UnsupportedError, abbreviate
from ..records import frozen
from .options import BITWIDTH, INPUT, MAX_ELEMENTS, SECTION, Opt

TYPE_CHECKING = False
if TYPE_CHECKING:      # annotations only
    from . import Context


@frozen
class LayoutRequest:
    """The options `options` gives every command that takes layouts (its `Request` adds one field per role, named
    by the role's `param`, and its own options)."""
    tensor_type: str | None = None
    input_file: str | None = None
    alias_names: tuple[str, ...] = ()
    section: str | None = None
    max_elements: int = inputs.DEFAULT_MAX_ELEMENTS


@frozen
class BitsRequest(LayoutRequest):
    """`LayoutRequest` for a command with `--bitwidth` (`options(..., bits=True)`)."""
    bitwidth: int | None = None


@frozen
class Role:
    """One layout a command takes. `name`: what messages call it ('the register layout'); `kind`: 'distributed',
    'shared' or None (any layout); `decls`: its options, the first one named in messages, `legacy` spellings
    accepted but not shown; `param`: its parameter of `run`; `word`: its word in `--alias-names reg,shared` and in
    'missing -r REG_ATTR'; `default`: the `param` of the role it falls back to; `wrong_kind`: what to say when it
    is given a layout of the other kind; `padded`: it takes `#ttg.padded_shared` too (its linear component, with
    the padding in `Picked.paddings`); `memory`: it takes every layout the print command shows, tensor memory
    (row, col, block inputs) and padded or partitioned shared memory (offset, block[, partition] inputs, the
    padding in `Picked.paddings`) included."""
    name: str
    kind: str | None
    decls: tuple
    param: str
    word: str
    help: str
    legacy: tuple = ()
    default: str | None = None
    wrong_kind: str = ""
    padded: bool = False
    memory: bool = False

    @property
    def flag(self) -> str:
        return self.decls[0]

    def option(self) -> Opt:
        return Opt(self.decls + self.legacy, self.param, metavar="ATTR", help=self.help, legacy=self.legacy)


@frozen
class Picked:
    """What `pick` resolved: one attribute and one linear layout per role, the tensor, the element bit width
    (None for commands without --bitwidth), the targets the `-i` file's modules name, its aliases (None
    without -i), whether each role was given (False: it took its default) and, per role, the padding of a
    `#ttg.padded_shared` (None for every other layout)."""
    attrs: tuple
    layouts: tuple
    tensor: inputs.Tensor
    bits: int | None
    targets: tuple[str, ...]
    paddings: tuple = ()
    table: object = None
    given: tuple = ()
    headers: tuple = ()      # with --triton naming an older release: each attribute as that release writes it

    def header(self, k: int) -> str:
        """Attribute `k` as the release modelled writes it (3.9: its own text)."""
        return self.headers[k] if self.headers else str(self.attrs[k])

    @property
    def width(self) -> int:
        """`bits` for a command with --bitwidth (a `BitsRequest`), which always has one."""
        assert self.bits is not None, "pick was given no BitsRequest"
        return self.bits


def options(roles, example: str, bits: bool = False) -> tuple:
    """The options of a command that takes `roles`: one per role, then -t, -i, --alias-names, --max-elements and
    (with `bits`) --bitwidth."""
    one = len(roles) == 1
    encoding = ("the layout when -l is not given" if one else "the first layout of its kind that no option gives")
    tensor = Opt(("-t",), "tensor_type", metavar="TYPE", help=f"Tensor type, e.g. '{example}' (required)"
                 + ("; the element type gives the bit width" if bits else "") + f". An encoding written in it "
                 f"('{example[:-1]}, #blocked>', '!ttg.memdesc<...>') is {encoding}.")
    names = Opt(("--alias-names",), "alias_names", "multi", metavar=",".join(r.word.upper() for r in roles),
                help="With -i: the alias of the layout." if one else
                f"With -i: the aliases of the {' and the '.join(r.name for r in roles)} layout, in this order.")
    return (*(r.option() for r in roles), tensor, INPUT, names, SECTION, MAX_ELEMENTS, *((BITWIDTH,) if bits else ()))


def pick(ctx: Context, command: str, roles: tuple[Role, ...], given: LayoutRequest,
         example: str = "tensor<16x16xf16>", target: str | None = None) -> Picked:
    """Every role's layout, the tensor and the rest (see the module docstring); `given`: the command line (each
    role's text is its field `role.param`; a `BitsRequest` gives the element bit width too); `target`: the
    command's --target, whose lanes per warp CuTe text is read with (`warp_lanes`)."""
    texts = [getattr(given, r.param) for r in roles]
    _check_usage(roles, texts, given.input_file, given.alias_names)
    if given.section is not None and not given.input_file:
        raise TTLayoutError("--section picks a section of an -i FILE, but no -i was given")
    dump = inputs.dump(given.input_file, ctx.stdin, wanted_aliases(texts, given.alias_names, given.tensor_type),
                       given.section) if given.input_file else None
    if dump is not None and dump.note:
        ctx.note(dump.note)
    table = dump.aliases if dump else None
    cute = _cute_reading(texts, given, example, target, dump.targets if dump else ())
    attrs = [_given(text, table, role, len(roles) == 1, cute) for text, role in zip(texts, roles)]
    t = inputs.tensor(given.tensor_type, given.max_elements) if given.tensor_type is not None else None
    attrs, agree = _from_tensor(t, table, attrs, roles, command, [inputs.looks_like_cute(x) for x in texts])
    names = inputs.split_names(given.alias_names)
    if table is not None and (names or _missing(roles, attrs)):
        if names:
            picked = _by_names(table, names, roles, command, dump.scope if dump is not None else "the file")
            agree(picked)
        else:
            picked = _by_kind(table, attrs, roles)
        attrs = [a if a is not None else p for a, p in zip(attrs, picked)]
    filled = tuple(a is not None for a in attrs)
    attrs = _defaults(roles, attrs, command)
    t = t or inputs.tensor(given.tensor_type, given.max_elements, example=example)
    bits = element_bits(t, given.bitwidth) if isinstance(given, BitsRequest) else None
    attrs, headers = _as_release_builds(attrs, t.shape)
    pairs = [_linear(a, r, t.shape, given.max_elements) for a, r in zip(attrs, roles)]
    return Picked(tuple(attrs), tuple(ll for ll, _ in pairs), t, bits, dump.targets if dump else (),
                  paddings=tuple(p for _, p in pairs), table=table, given=filled, headers=headers)


def wanted_aliases(texts: list[str | None], alias_names: tuple[str, ...], tensor_type: str | None) -> list[str]:
    """The alias names a command line gives: --alias-names, layout options written as `#name`, and the aliases
    `-t` names (`tensor<64x64xf16, #blocked>`): the section of an -i file that defines them is the one read."""
    import re
    names = inputs.split_names(alias_names or ())
    names += [t for t in texts if t is not None and re.fullmatch(r"#[A-Za-z_][\w$\-]*", t.strip())]
    names += re.findall(r"#([A-Za-z_][\w$\-]*)(?![\w$.\-])", tensor_type or "")   # not #ttg.<...>
    return list(dict.fromkeys(n.lstrip("#") for n in names))


def _as_release_builds(attrs, shape) -> tuple[list, tuple]:
    """With --triton naming an older release: its refusals (`attributes.releases.check`), the layouts it builds and
    the attributes as it writes them (the headers); 3.9: the attributes and no headers."""
    from .. import attributes
    release = attributes.active_release
    if release is None:
        return attrs, ()
    from ..attributes.releases import check, modelled_attr, spelled
    for a in attrs:
        check(a, shape, release)
    return [modelled_attr(a, release) for a in attrs], tuple(spelled(a, release) for a in attrs)


def _linear(attr, role: Role, shape, max_elements: int):
    """(linear layout, padding): a role that takes `#ttg.padded_shared` gets its linear component and its padding,
    one that takes tensor memory its (row, col, block) layout; every other layout its linear layout and None."""
    from ..attributes import encodings as enc
    if role.memory and isinstance(attr, (enc.TensorMemoryEncoding, enc.TensorMemoryScalesEncoding,
                                         enc.PaddedSharedEncoding, enc.PartitionedSharedEncoding)):
        return inputs.memory_layout(attr, shape, max_elements)
    if role.padded and isinstance(attr, enc.PaddedSharedEncoding):
        from ..analysis.shared_access import shared_layout_of
        from ..errors import TooManyElements
        try:
            return shared_layout_of(attr, shape, max_elements)
        except TooManyElements as e:
            raise inputs.too_many(e) from None
    return inputs.linear_layout(attr, shape, max_elements), None


def warp_lanes(target: str | None, dump_targets=()) -> int:
    """Lanes per warp that CuTe text's thread mode is split into: the warp size of the target (--target, else the
    `ttg.target` of the -i dump, else sm90): 32 on NVIDIA and RDNA (gfx1200), 64 on CDNA (gfx942, gfx950)."""
    from .hardware import select
    return select(target, dump_targets).warp_size


@frozen
class CuteReading:
    """How CuTe text in a layout option is read: `shape()` gives -t's shape (read only once the text has parsed)
    and `lanes` the lanes per warp."""
    shape: object
    lanes: int


def _cute_reading(texts, given: LayoutRequest, example: str, target, dump_targets) -> CuteReading | None:
    """The CuTe reading of a command line with CuTe text in a layout option (None without, so that nothing of it
    is loaded)."""
    if not any(inputs.looks_like_cute(text) for text in texts if text is not None):
        return None

    def shape():
        if given.tensor_type is None:
            raise TTLayoutError(f"missing -t: CuTe layout text needs the tensor type for its shape, e.g. -t '{example}'")
        return inputs.tensor(given.tensor_type, given.max_elements).shape
    return CuteReading(shape, warp_lanes(target, dump_targets))


def element_bits(t, bitwidth: int | None) -> int:
    """The element bit width the shared-memory models use: --bitwidth, else the element type's."""
    from ..analysis.bank import check_bitwidth
    try:
        return check_bitwidth(t.element_bits if bitwidth is None else bitwidth)
    except UnsupportedError as e:
        if "--bitwidth" in str(e) or bitwidth is not None:
            raise
        raise UnsupportedError(f"{e}; give --bitwidth N") from None


# ----------------------------------------------------------------------------------------- the steps


def _check_usage(roles, texts, input_file, alias_names) -> None:
    if alias_names and input_file is None:
        raise TTLayoutError("--alias-names needs -i FILE")
    if len(roles) == 1 and texts[0] is not None and input_file is not None:
        raise TTLayoutError(f"give the layout either with {roles[0].flag} or with -i, not both")
    required = [(r, text) for r, text in zip(roles, texts) if r.default is None]
    if alias_names and all(text is not None for _, text in required):
        raise TTLayoutError(f"give the layouts either with {' and '.join(r.flag for r, _ in required)} or with "
                            "--alias-names, not both")


def _given(text: str | None, table, role: Role, only: bool, cute: CuteReading | None = None):
    """The layout an option gave (None if none), checked to be of the role's kind; `#name` / `name` of the -i
    file, or CuTe text read as the role's kind, too. A command's only layout is given either by its option or by
    -i, so it never names an alias."""
    if text is None:
        return None
    shape, lanes = (cute.shape, cute.lanes) if cute is not None else (None, inputs.DEFAULT_LANES)
    if only:
        return inputs.attribute(text, shape=shape, kind=role.kind, lanes=lanes, flag=role.flag)
    name = text[1:] if text.startswith("#") else text
    named = table is not None and name in table
    attr = table[name].attr if named else inputs.attribute(text, table, shape=shape, kind=role.kind, lanes=lanes,
                                                           flag=role.flag)
    kind = getattr(attr, "kind", None)
    if role.wrong_kind and kind in ("distributed", "shared") and kind != role.kind:
        raise TTLayoutError(f"the {role.name} layout is a {kind} layout; {role.wrong_kind}")
    return _of_kind(attr, role, name if named else None)


def _of_kind(attr, role: Role, name: str | None = None):
    return attr if role.kind is None else inputs.require_kind(attr, role.kind, role.name, name)


def _from_tensor(t, table, attrs: list, roles, command: str, cute=()):
    """The encoding written in -t as the first role of its kind: (the attributes with that role filled in where no
    option gave it, which must otherwise be the same layout (`cute[i]`: the option was CuTe text, whose layout
    must be the same); agree(picked), checking the layouts --alias-names picked for it)."""
    found = inputs.inline_layout(t, table, required=_missing(roles, attrs)) if t is not None else None
    if found is None:
        return attrs, lambda picked: None
    inline = found[1]
    kind = getattr(inline, "kind", None)
    i = next((k for k, r in enumerate(roles) if r.kind in (None, kind)), None)
    if i is None:
        raise TTLayoutError(f"the encoding in -t is a {kind} layout ({abbreviate(str(inline))}); ttlayout {command} "
                            f"takes {' and '.join(f'a {r.kind} layout as the {r.name}' for r in roles)}")
    if attrs[i] is not None:
        inputs.check_same_layout(attrs[i], inline, roles[i].flag, t.shape if i < len(cute) and cute[i] else None)

    def agree(picked):
        if picked[i] is not None:
            inputs.check_same_layout(picked[i], inline, "--alias-names")
    return [inline if k == i and a is None else a for k, a in enumerate(attrs)], agree


def _missing(roles, attrs) -> bool:
    """Whether a role that has no default is still unfilled."""
    return any(a is None and r.default is None for r, a in zip(roles, attrs))


def _by_names(table, names: list[str], roles, command: str, scope: str = "the file") -> list:
    """The layouts --alias-names names, one per role in order (roles with a default may be left out)."""
    if len(roles) == 1 and len(names) > 1:
        raise TTLayoutError(f"ttlayout {command} takes one layout, got {len(names)} alias names")
    required = sum(r.default is None for r in roles)
    if not required <= len(names) <= len(roles):
        raise TTLayoutError(f"--alias-names needs {len(roles)} names ({', '.join(r.name for r in roles)}), "
                            f"got {len(names)}")
    picked = [_of_kind(inputs.named(table, n, scope), r, n.lstrip("#")) for n, r in zip(names, roles)]
    return picked + [None] * (len(roles) - len(picked))


def _by_kind(table, attrs: list, roles) -> list:
    """The file's layouts of each kind a role still lacks, in file order, one per role of that kind: the file must
    have as many as those roles (roles with a default may go without)."""
    picked: list = [None] * len(roles)
    for kind in dict.fromkeys(r.kind for r in roles):
        mine = [k for k, r in enumerate(roles) if r.kind == kind]
        if not any(attrs[k] is None and roles[k].default is None for k in mine):
            continue
        found = [d for d in table.layouts() if kind is None or d.attr.kind == kind]
        if not sum(roles[k].default is None for k in mine) <= len(found) <= len(mine):
            raise TTLayoutError(_how_to_say_which(found, kind, [roles[k] for k in mine], roles))
        for k, d in zip(mine, found):
            picked[k] = d.attr
    return picked


def _how_to_say_which(found, kind, mine, roles) -> str:
    shown = ", ".join(d.name for d in found[:6])
    what = f"{len(found)} {kind + ' ' if kind else ''}layouts ({shown})"
    words = ",".join(r.word for r in roles)
    if len(roles) == 1:
        how = "--alias-names NAME"
    elif len(mine) == 1:
        how = f"{mine[0].flag} '#name' or --alias-names {words}"
    else:
        how = f"--alias-names {words}"
    return f"the file has {what}; say which with {how}"


def _defaults(roles, attrs: list, command: str) -> list:
    """Each unfilled role's default, or the error naming the first role nothing gave."""
    for role, attr in zip(roles, attrs):
        if attr is None and role.default is None:
            what = "ATTR (or -i FILE --alias-names NAME)" if len(roles) == 1 else f"{role.word.upper()}_ATTR"
            raise TTLayoutError(f"missing {role.flag} {what}; see 'ttlayout {command} --help'")
    params = [r.param for r in roles]
    return [a if a is not None else attrs[params.index(r.default)] for r, a in zip(roles, attrs)]
