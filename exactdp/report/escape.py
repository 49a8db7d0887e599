r"""One escaping function per output format, for text that comes from case files.

A case file is written by someone else: its ``name``, ``title``, ``reference``, mechanism names,
dataset names, query and answer labels and any value quoted in an error message may hold bytes
that mean something to the program showing the output.  Every renderer passes such text through
the function for its format, and only that function:

==============  =========================  ==================================================
format          function                   what it neutralises
==============  =========================  ==================================================
terminal / CI   :func:`text`               control characters (C0, DEL, C1), bidi and other
                                           invisible format characters, line separators,
                                           GitHub ``::command::`` at the start of a value
JSON            :func:`json_dumps`         the same characters, as ``\uXXXX`` escapes
LaTeX           :func:`latex`,             the ten special characters, ``< > | "`` and ``--``
                :func:`latex_math`         ligatures, characters LaTeX cannot typeset
HTML            :func:`html`               ``& < > " '`` and the control characters
DOT             :func:`dot`                ``"`` and ``\`` (label escapes), ``&`` (Graphviz reads
                                           character entities in every label), control characters
CSV             :func:`csv_row`            quoting, control characters, spreadsheet formulas
YAML            :func:`yaml_scalar`        quoting of every string that would change type
                                           (``Yes``, ``NULL``, ``2024-01-01``, ``0x1F``) or
                                           that holds a character YAML cannot carry raw
matplotlib      :func:`mpl`                ``$`` (mathtext) and the control characters
==============  =========================  ==================================================

Control characters are shown *visibly* (``\x1b``, ``\n``, ``\u202e``), never dropped, so a
reader sees that a value held one.  Text produced by exactdp itself (exact numbers, fixed
words) needs no escaping and gets none.
"""

from __future__ import annotations

import html as _html
import json
import re
import unicodedata
from collections.abc import Iterable
from typing import Any

__all__ = [
    "is_unsafe_char",
    "visible",
    "text",
    "text_lines",
    "problem_text",
    "safe_line",
    "html_line",
    "error_text",
    "json_dumps",
    "latex",
    "latex_math",
    "html",
    "dot",
    "csv_field",
    "csv_row",
    "yaml_scalar",
    "mpl",
]

# Unicode categories that are invisible or change how the following text is shown:
# Cc (C0, DEL, C1), Cf (bidi overrides and isolates, zero-width characters, BOM, soft hyphen),
# Zl/Zp (line and paragraph separators: line breaks in some terminals), Cs (lone surrogates,
# which is what undecodable bytes become under surrogateescape).
_UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def is_unsafe_char(ch: str) -> bool:
    """Whether ``ch`` is a control or invisible formatting character, or a noncharacter (U+FFFE,
    U+FDD0, ...: XML refuses them, so an SVG holding one does not open): escaped in every format."""
    n = ord(ch)
    return unicodedata.category(ch) in _UNSAFE_CATEGORIES or (n & 0xFFFE) == 0xFFFE or 0xFDD0 <= n <= 0xFDEF


def _code(ch: str) -> str:
    n = ord(ch)
    if ch in _NAMED:
        return _NAMED[ch]
    return f"\\x{n:02x}" if n < 0x100 else f"\\u{n:04x}" if n < 0x10000 else f"\\U{n:08x}"


# what may follow a backslash in an escape written by _code: a backslash of the text before one of
# them, before an unsafe character (escaped with a backslash) or at the end is doubled
_ESCAPE_STARTS = frozenset("xuUnrt\\")


def visible(s: str) -> str:
    r"""``s`` with every unsafe character replaced by a visible escape (``\x1b``, ``\n``, ``\u202e``),
    and a backslash of the text doubled where an escape could start (``\\x1b`` is the four
    characters \ x 1 b, ``\x1b`` is ESC): two different texts never look alike."""
    if "\\" not in s and not any(is_unsafe_char(ch) for ch in s):
        return s
    out = []
    for k, ch in enumerate(s):
        if is_unsafe_char(ch):
            out.append(_code(ch))
        elif ch == "\\" and (k + 1 == len(s) or s[k + 1] in _ESCAPE_STARTS or is_unsafe_char(s[k + 1])):
            out.append("\\\\")
        else:
            out.append(ch)
    return "".join(out)


def text(s: object) -> str:
    r"""A value from a case file, safe to print on a terminal or in a CI log.

    Every control character (ESC, CR, LF, DEL, C1), bidi override and invisible format character
    becomes a visible escape, so the value stays on its line and cannot move the cursor, set the
    terminal title, write the clipboard (OSC 52), hide text or forge a ✓ or summary line.  A
    value starting with ``::`` (a GitHub Actions workflow command when it starts a line) has its
    first colon written ``\x3a``.
    """
    return _defused(visible(str(s)))


def _defused(out: str) -> str:
    """``out`` with the first colon of a leading ``::`` (a GitHub Actions workflow command when it
    starts a line) written ``\\x3a``."""
    stripped = out.lstrip(" ")
    if stripped.startswith("::"):
        k = len(out) - len(stripped)
        out = out[:k] + "\\x3a" + out[k + 1 :]
    return out


def safe_line(s: str) -> str:
    r"""A line already made of escaped pieces (:func:`text`), made safe once more: a control or
    invisible character that reached it unescaped becomes its escape, but a backslash is left as
    it is (doubling it again would print the four characters ``\x1b`` of a case file as ``\\\\x1b``)."""
    if any(is_unsafe_char(ch) for ch in s):
        s = "".join(_code(ch) if is_unsafe_char(ch) else ch for ch in s)
    return _defused(s)


def text_lines(s: str) -> list[str]:
    """A multi-line message of exactdp's own, one safe line per line (see :func:`text`)."""
    return [text(line) for line in s.split("\n")]


def problem_text(p: Any) -> list[str]:
    """One located problem of a case file (a :class:`~exactdp.errors.CaseProblem`), its fields
    escaped one by one: the message may quote the file's content."""
    where = text(p.file or "<case>")
    if p.line is not None:
        where += f":{p.line}" + (f":{p.column}" if p.column is not None else "")
    head = f"{where}: {text(p.path)}: {text(p.message)}" if p.path else f"{where}: {text(p.message)}"
    return [head] + ([f"    hint: {text(p.hint)}"] if p.hint else [])


def error_text(e: BaseException) -> list[str]:
    """The lines of an error message, safe for a terminal: a :class:`CaseError` problem by
    problem, any other message as one escaped line."""
    problems = getattr(e, "problems", None)
    if problems is None:
        return [text(str(e))]
    out: list[str] = []
    for p in problems:
        out.extend(problem_text(p))
    if getattr(e, "truncated", False):
        out.append("(more problems were found; fix these first)")
    return out


class JsonText(str):
    """Text that is a JSON document: a character outside ASCII in it lies inside a string, so a
    terminal that cannot show it may write the JSON escape ``\\uXXXX`` instead, which is exact
    (:func:`json_for`)."""


def json_for(doc: str, encoding: str) -> str:
    r"""A JSON document with each character ``encoding`` cannot write as its JSON escape
    (``\uXXXX``, a surrogate pair beyond U+FFFF): the same JSON value, nothing lost."""
    try:
        doc.encode(encoding)  # (the usual case: one pass in C)
        return doc
    except (UnicodeEncodeError, LookupError):
        pass
    out = []
    for ch in doc:
        try:
            ch.encode(encoding)
            out.append(ch)
        except (UnicodeEncodeError, LookupError):
            out.append("".join(f"\\u{u:04x}" for u in _utf16(ch)))
    return "".join(out)


def json_dumps(obj: Any) -> str:
    r"""JSON text, indented, keys in the given order, non-ASCII kept readable, but DEL, C1
    controls, bidi and invisible format characters written as ``\uXXXX`` (``json`` leaves
    them raw; they are valid JSON either way)."""
    s = json.dumps(obj, indent=2, ensure_ascii=False)
    if not any(is_unsafe_char(ch) and ch != "\n" for ch in s):
        return JsonText(s)
    # json escapes C0 itself, so a raw unsafe character here is inside a string
    return JsonText(
        "".join(ch if ch == "\n" or not is_unsafe_char(ch) else "".join(f"\\u{u:04x}" for u in _utf16(ch)) for ch in s)
    )


def _utf16(ch: str) -> list[int]:
    n = ord(ch)
    if n < 0x10000:
        return [n]
    n -= 0x10000
    return [0xD800 + (n >> 10), 0xDC00 + (n & 0x3FF)]


# --- LaTeX ---------------------------------------------------------------------------------------


def _tt(ch: str) -> str:
    # the typewriter font (OT1 cmtt) has every printable ASCII character in its ASCII slot: no
    # T1/TS1 fonts needed (they are bitmap-only in a base TeX installation), no curly quotes
    return r"{\ttfamily\char" + str(ord(ch)) + "}"


_LATEX = {
    "&": r"\&",
    "%": r"\%",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "-": "-{}",  # no -- / --- ligatures: a label stays as written
    **{ch: _tt(ch) for ch in '\\^~<>|"$'},  # \$ would need TS1 fonts in current LaTeX
    # the upright quote and the grave accent by name: a slot number differs between the OT1 and
    # T1 font encodings (slot 13 of T1 is a low comma); LaTeX's kernel has both since 2020
    "'": r"{\ttfamily\textquotesingle}",
    "`": r"{\ttfamily\textasciigrave}",
    "→": r"$\rightarrow$",  # (the witnesses' query→answer, in every view of a certificate's appendix)
}


_NOT_OT1 = frozenset("\u00d7\u00f7ÐÞðþĄąĐđĘęĦħĮįĸĿŀŉŊŋŦŧŲųſ")  # (each found by compiling it with pdflatex)


def _latex_char(ch: str) -> str:
    hit = _LATEX.get(ch)
    if hit is not None:
        return hit
    if is_unsafe_char(ch):
        return r"{\ttfamily\char92 " + _code(ch)[1:] + "}"
    n = ord(ch)
    # ASCII, and the Latin letters LaTeX's utf8 input encoding typesets with the default font
    # encoding (OT1), which the documented preamble keeps: not those that need T1 or have no definition
    if n < 0x7F or 0xC0 <= n <= 0x17F and ch not in _NOT_OT1:
        return ch
    return r"\texttt{[U+" + f"{n:04X}" + "]}"


def latex(s: object) -> str:
    r"""Case-file text for LaTeX *text* mode (captions, table cells outside ``$...$``).

    The special characters become their text-mode commands, ``<``, ``>``, ``|``, ``"`` and
    hyphens stay what they are in the font encoding, control characters are shown as
    ``\x1b`` in typewriter, and a character LaTeX cannot typeset without extra packages
    (``→``, CJK, ``Þ`` and ``ę``, which need the T1 font encoding) is written ``[U+2192]``.
    Accented Latin letters (``ä``, ``ł``) are kept.
    """
    return "".join(_latex_char(ch) for ch in str(s))


def latex_math(s: object) -> str:
    r"""Case-file text for use *inside math mode* (``$...$``, ``\mathrm{...}`` places).

    Text-mode commands such as ``\textbackslash`` are invalid in math mode, so the text is
    wrapped in ``\textrm{...}`` (allowed in math mode) and escaped by :func:`latex` there.
    """
    return r"\textrm{" + latex(s) + "}"


# --- HTML, DOT, CSV ------------------------------------------------------------------------------


def html(s: object) -> str:
    """Case-file text for HTML element content or a quoted attribute value."""
    return _html.escape(visible(str(s)), quote=True)


def html_line(s: str) -> str:
    """A line of exactdp's text report (its case-file pieces already escaped by :func:`text`) for
    HTML: its own escapes are kept as they are, not doubled (:func:`safe_line`)."""
    return _html.escape(safe_line(s), quote=True)


def dot(s: object) -> str:
    r"""Case-file text for a double-quoted Graphviz DOT string (a node or edge label).

    ``\`` starts a label escape in Graphviz (``\n``, ``\N``, ``\G``) and ``"`` ends the string,
    so both are escaped; control characters are made visible first (their backslash is then
    doubled like any other, so Graphviz prints ``\x1b``).  Graphviz also decodes HTML character
    entities in plain (quoted) labels, so ``&`` is written ``&amp;``: a label written ``&lt;b&gt;``
    in a case file is drawn as those eight characters, and ``<b>`` as those three, never one
    shown as the other.
    """
    return visible(str(s)).replace("\\", "\\\\").replace('"', '\\"').replace("&", "&amp;")


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "|", "%")


def csv_field(s: object, *, from_case: bool = True) -> str:
    """One CSV cell: control characters made visible and, for case-file text
    (``from_case=True``), a leading ``'`` before ``= + - @ | %`` so a spreadsheet does not run
    the cell as a formula (OWASP "CSV injection"), and before a ``'`` of the text's own.  Exact numbers exactdp prints
    (``-1/2``) are passed with ``from_case=False`` and stay as they are."""
    v = visible(str(s))
    if from_case and v.startswith(_FORMULA_START + ("'",)):  # ('-x and -x stay two cells)
        v = "'" + v
    return v


def csv_row(cells: Iterable[tuple[object, bool] | object]) -> str:
    """One CSV record (RFC 4180: fields with ``,`` ``"`` or spaces quoted, quotes doubled).

    Each cell is either a value (case-file text) or ``(value, from_case)``."""
    out = []
    for c in cells:
        v, from_case = c if isinstance(c, tuple) else (c, True)
        f = csv_field(v, from_case=from_case)
        if any(ch in f for ch in ',"\n\r ') or f != f.strip() or not f:
            f = '"' + f.replace('"', '""') + '"'
        out.append(f)
    return ",".join(out)


# --- YAML ----------------------------------------------------------------------------------------

# Plain scalars are allowed only for strings no YAML 1.1 or 1.2 resolver reads as anything but a
# string: an identifier-like word that is not a null/bool word, or a fraction p/q.
_YAML_PLAIN = re.compile(r"[A-Za-z_][A-Za-z0-9_./-]*|-?[0-9]+/[0-9]+")
_YAML_WORDS = frozenset("null ~ true false yes no on off y n".split())
_YAML_ESC = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r", "\0": "\\0", "\x1b": "\\e"}


def _yaml_printable(ch: str) -> bool:
    # YAML 1.2 c-printable, minus the invisible format characters
    n = ord(ch)
    ok = (
        n in (0x9, 0xA, 0xD)
        or 0x20 <= n <= 0x7E
        or n == 0x85
        or 0xA0 <= n <= 0xD7FF
        or 0xE000 <= n <= 0xFFFD
        or 0x10000 <= n <= 0x10FFFF
    )
    return ok and not is_unsafe_char(ch)


def yaml_scalar(v: object) -> str:
    """A YAML scalar that reads back as exactly ``v``, with its type.

    ``None``/``bool``/``int`` are written as YAML null/bool/int; a string is plain only when
    every YAML resolver reads it back as that string, otherwise double-quoted: ``"Yes"``,
    ``"NULL"``, ``"2024-01-01"``, ``"0"``, ``"1e3"``.  In quotes every character outside YAML's
    printable set, DEL and C1 controls included, is a ``\\xNN``/``\\uNNNN`` escape.
    """
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    s = str(v)
    if _YAML_PLAIN.fullmatch(s) and s.lower() not in _YAML_WORDS:
        return s
    body = []
    for ch in s:
        if ch in _YAML_ESC:
            body.append(_YAML_ESC[ch])
        elif _yaml_printable(ch):
            body.append(ch)
        else:
            n = ord(ch)
            body.append(f"\\x{n:02x}" if n < 0x100 else f"\\u{n:04x}" if n < 0x10000 else f"\\U{n:08x}")
    return '"' + "".join(body) + '"'


# --- matplotlib ----------------------------------------------------------------------------------


def mpl(s: object) -> str:
    r"""Case-file text for a matplotlib title, label or legend entry: ``$`` is escaped (a pair
    of ``$`` would start mathtext, and a malformed formula makes drawing fail) and control
    characters are made visible.  A leading ``_`` gets a space before it: matplotlib leaves a
    label that starts with ``_`` out of the legend."""
    out = visible(str(s)).replace("$", r"\$")
    return " " + out if out.startswith("_") else out
