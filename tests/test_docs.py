"""Every code block of README.md and docs/*.md works as written.

Blocks are fenced (an indented code block is refused: it could not say what
it is). By the fence's language:
- python: run as a script (`python -I block.py`) from an empty directory;
- sh, bash: run by `bash -euo pipefail` from an empty directory;
- text: a listing, not code; each line `argext.NAME(PARAMETERS)` in it must be
  the signature of that function as it is (names, kinds, defaults);
- any other language, and a block that must not run here, carries a marker on
  the line before its fence, `<!-- docs-test: WHAT -->`, where WHAT is one of
    skip: REASON          not run here, and why;
    args ARG ...: REASON  run (python, sh) with these arguments, and why;
    by PATH::NAME         run by that test or fixture (`def NAME` in PATH);
    by PATH               each of its lines is run by that script (they are in it);
    file PATH             it is that file of the repository, verbatim (which is tested).
"""

import ast
import importlib
import inspect
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^(?:<!-- docs-test: (?P<marker>.+?) -->\n)?```(?P<language>[\w+-]*)[^\n]*\n"
                   r"(?P<body>.*?)^```[ \t]*$", re.M | re.S)
RUN = {"python": [sys.executable, "-I"], "sh": ["bash", "-euo", "pipefail"],
       "bash": ["bash", "-euo", "pipefail"]}


def blocks():
    found = []
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        for m in FENCE.finditer(text):
            line = text.count("\n", 0, m.start("language")) + 1
            found.append(pytest.param(m["language"], m["marker"], m["body"],
                                      id=f"{doc.relative_to(ROOT)}:{line}:{m['language'] or 'plain'}"))
    return found


def test_no_indented_code_blocks():
    """A line indented 4 spaces after a blank line, outside a list and a fence, is a
    code block without a language: write it fenced."""
    for doc in DOCS:
        fenced, previous, paragraph_start = False, "", ""
        for number, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1):
            if line.startswith("```"):
                fenced = not fenced
            if not fenced and line.startswith("    ") and line.strip() and previous == "" \
                    and not re.match(r"(\s*[-*] |\s*\d+\. |  \S)", paragraph_start):
                pytest.fail(f"{doc.name}:{number}: an indented code block; fence it with a language")
            if previous == "" and line.strip():
                paragraph_start = line
            previous = line.strip()


def resolve(dotted):
    module, _, name = dotted.rpartition(".")
    return getattr(importlib.import_module(module), name)


def check_signature(dotted, parameters):
    """`dotted(parameters)` is the function's signature: the same parameters,
    kinds and defaults."""
    written = ast.parse(f"def f({parameters}): pass").body[0].args
    params = [(a.arg, inspect.Parameter.POSITIONAL_OR_KEYWORD) for a in written.args]
    params += [(a.arg, inspect.Parameter.KEYWORD_ONLY) for a in written.kwonlyargs]
    defaults = [None] * (len(written.args) - len(written.defaults)) + written.defaults
    defaults += written.kw_defaults
    want = [(n, k, inspect.Parameter.empty if d is None else ast.literal_eval(d))
            for (n, k), d in zip(params, defaults)]
    got = [(p.name, p.kind, p.default) for p in inspect.signature(resolve(dotted)).parameters.values()]
    assert got == want, f"{dotted}: documented {want}, is {got}"


def check_listing(body):
    """Lines of `argext.NAME(PARAMETERS)` or `argext.NAME` items (comma-separated):
    each signature is the function's, each name exists; other lines are prose."""
    for line in body.splitlines():
        line = re.sub(r"\s{2,}\(.*\)$", "", line.strip())  # a note after the listing: "   (Dask, below)"
        for item in re.split(r",\s+(?=argext\.)", line):
            if m := re.fullmatch(r"(argext(?:\.\w+)+)\(([^()]*)\)", item):
                check_signature(m[1], m[2])
            elif re.fullmatch(r"argext(?:\.\w+)+", item):
                resolve(item)


@pytest.mark.parametrize("language, marker, body", blocks())
def test_block(language, marker, body, tmp_path):
    if marker:
        kind, _, rest = marker.partition(" ")
        if kind == "skip:":
            assert rest.strip(), "a skipped block says why"
            pytest.skip(f"marked in the document: {rest}")
        if kind == "by":
            path, _, name = rest.partition("::")
            text = (ROOT / path).read_text(encoding="utf-8")
            if name:
                assert re.search(rf"^\s*def {re.escape(name)}\(", text, re.M), f"no {name} in {path}"
            else:
                missing = [line for line in body.splitlines()
                           if line.strip() and not line.startswith("#") and line.strip() not in text]
                assert not missing, f"{path} does not run {missing}"
            return
        if kind == "file":
            assert (ROOT / rest).read_text(encoding="utf-8") == body, f"the block is not {rest} as it is"
            return
        assert kind == "args", f"unknown marker {marker!r}"
        args, _, reason = rest.partition(":")
        assert reason.strip(), "arguments given to a block say why"
        args = shlex.split(args)
    else:
        args = []
    if language == "text":
        check_listing(body)
        return
    assert language in RUN, f"a {language or 'plain'} block needs a docs-test marker"
    script = tmp_path / ("block.py" if language == "python" else "block.sh")
    script.write_text(body, encoding="utf-8")
    work = tmp_path / "cwd"
    work.mkdir()
    p = subprocess.run([*RUN[language], script, *args], cwd=work, capture_output=True,
                       text=True, timeout=300)
    assert p.returncode == 0, f"exit {p.returncode}\n{p.stdout[-3000:]}\n{p.stderr[-3000:]}"
