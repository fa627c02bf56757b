#!/usr/bin/env python3
"""List C++ function bodies in src/ and tools/ longer than a limit (default 120 lines).

    scripts/long_functions.py [--root DIR] [--max-lines N] [--allow FILE] [--check]
    scripts/long_functions.py --selftest

ctest runs it as `long_functions` (label unit) with --check, and `long_functions_selftest`.

Prints one line per function body over the limit, longest first:
    <lines>  <path>:<first line>  <name>
With --check it exits 1 when a function over the limit is not on the allow-list, and also
when an allow-list entry is no longer over the limit (so the list can only shrink).

The allow-list (--allow) holds `path name` per line, `#` comments allowed; it names the
functions not yet split.

How it finds functions, and its limits: this is a brace matcher, not a parser.
- Comments, string literals (including raw strings R"d(...)d") and character literals are
  blanked first, so braces inside them do not count.
- A `{` opens a function body when the text before it (back to the previous `;`, `{` or `}`)
  ends in `)`, optionally followed by qualifiers (const, noexcept, override, final, mutable,
  a trailing return type `-> T`, a requires-clause, or a constructor's member-initialiser
  list), and the word
  before the `(` is not a control keyword (if, for, while, switch, catch) and the head holds
  no `=` outside its parentheses (so lambdas assigned to a variable, and braced initialisers,
  are not functions).
- Lambdas are counted as part of the function that contains them, not on their own; a lambda
  at namespace scope (`auto f = [](...) {...};`) is not counted at all.
- Functions inside a class body or a namespace are found; a function nested in a function
  (a local class's member) is counted as part of the outer one.
- Body length is counted from the line of the opening `{` to the line of the closing `}`,
  both included; blank and comment lines count (it is the length a reader scrolls).
- A `{` that is part of an expression (`v_{1}` in an initialiser list, a default argument
  `= {}`) does not end the head of the function around it.
- Macros that expand to braces, or unbalanced braces under #if, can confuse it; the tree
  has none that matter today.
"""
from __future__ import annotations

import argparse
import os
import re
import sys

EXTENSIONS = (".cpp", ".cc", ".hpp", ".h")
CONTROL = {"if", "for", "while", "switch", "catch", "return", "sizeof", "decltype",
           "alignof", "static_assert", "requires", "noexcept"}
QUALIFIERS = re.compile(
    r"^(\s*(const|noexcept(\s*\([^()]*\))?|override|final|mutable|volatile|&|&&|try)\s*)*"
    r"(\s*->\s*[\w:<>,\s*&\[\]]+)?(\s*requires\b.*)?\s*$")


def strip_code(text: str) -> str:
    """Blank out comments and literals, keeping newlines so line numbers survive."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "R" and text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'R"([^(\s]{0,16})\(', text[i:])
            if not m:
                out.append(c)
                i += 1
                continue
            end = ")" + m.group(1) + '"'
            j = text.find(end, i + m.end())
            j = n if j < 0 else j + len(end)
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c in "\"'":
            # A digit separator (1'000) is not a character literal.
            if c == "'" and i > 0 and text[i - 1].isalnum() and i + 1 < n and text[i + 1].isalnum():
                out.append(" ")
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "#" and (i == 0 or text[i - 1] == "\n"):
            # Preprocessor line (with continuations): blank it.
            j = i
            while True:
                k = text.find("\n", j)
                if k < 0:
                    k = n
                    break
                if text[k - 1] != "\\":
                    break
                j = k + 1
            out.append(re.sub(r"[^\n]", " ", text[i:k]))
            i = k
        else:
            out.append(c)
            i += 1
    return "".join(out)


def strip_parens(head: str) -> str | None:
    """Remove the trailing balanced (...) groups' contents; None when they do not balance."""
    depth = 0
    out = []
    for ch in head:
        if ch == "(":
            if depth == 0:
                out.append("(")
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth < 0:
                return None
            if depth == 0:
                out.append(")")
        elif depth == 0:
            out.append(ch)
    return "".join(out) if depth == 0 else None


def function_name(head: str) -> str | None:
    """The function's name if `head` (text before a `{`) is a function definition's head."""
    flat = " ".join(head.split())
    if not flat:
        return None
    # A constructor's member-initialiser list: cut at the ':' that follows the parameter list.
    shallow = strip_parens(flat)
    if shallow is None:
        return None
    m = re.search(r"\)\s*(const\s*)?(noexcept\s*\(\))?\s*:(?!:)", shallow)
    if m:
        # `A::A() : v_{1}, w_(2) {`: the body's brace follows a `)` or `}` of the list; a
        # brace after a member's name is that member's braced initialiser.
        if not re.search(r"[)}]\s*$", shallow[m.end():]):
            return None
        shallow = shallow[: m.start() + 1]
    if "=" in shallow.replace("==", "").replace("operator=", "operator"):
        return None
    idx = shallow.rfind(")")
    if idx < 0 or not QUALIFIERS.match(shallow[idx + 1:]):
        return None
    before = shallow[:idx]
    if not before.endswith("("):
        return None
    m = re.search(r"((?:[\w~]+::)*(?:operator\s*\S+?|~?\w+))\s*(<[^<>]*>)?\s*\($", before)
    if not m:
        return None
    name = m.group(1)
    if name.split("::")[-1] in CONTROL:
        return None
    # A lambda: `[...](...) {` or a call argument `f(x, [&](...) {`.
    if re.search(r"\]\s*(<[^<>]*>)?\s*\($", before):
        return None
    return name


def braced_initialiser(head: str) -> bool:
    """True when a `{` after `head` is part of an expression (`v_{1}`, `Foo<T>{`, a default
    argument `= {}`), not a scope, so the head goes on past its `}`."""
    flat = " ".join(head.split())
    if flat.count("(") > flat.count(")"):
        return True  # inside a parameter list: a default argument `= {}`
    if not re.search(r"[\w>]$", flat):
        return False
    if re.search(r"\b(class|struct|union|enum|namespace|extern)\b", flat):
        return False
    return not re.search(r"\b(else|do|try)$", flat)


def functions(path: str):
    """Yield (name, first_line, line_count) for each function body in a file."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = strip_code(f.read())
    line_of = []
    line = 1
    for ch in text:
        line_of.append(line)
        if ch == "\n":
            line += 1
    # (kind, name, open_index, head_start); kind 'f' for function bodies, 'o' for others
    stack = []
    last_break = 0
    for i, ch in enumerate(text):
        if ch == "{":
            inside_function = any(k == "f" for k, _, _, _ in stack)
            head = text[last_break:i]
            name = None if inside_function else function_name(head)
            stack.append(("f" if name else "o", name, i, last_break))
            last_break = i + 1
        elif ch == "}":
            last_break = i + 1
            if stack:
                kind, name, start, head_start = stack.pop()
                if kind == "f":
                    yield name, line_of[start], line_of[i] - line_of[start] + 1
                elif braced_initialiser(text[head_start:start]):
                    last_break = head_start
        elif ch == ";":
            last_break = i + 1


def scan(root: str, dirs=("src", "tools")):
    found = []
    for d in dirs:
        base = os.path.join(root, d)
        for dirpath, dirnames, filenames in os.walk(base):
            dirnames.sort()
            for fn in sorted(filenames):
                if fn.endswith(EXTENSIONS):
                    path = os.path.join(dirpath, fn)
                    rel = os.path.relpath(path, root)
                    for name, first, count in functions(path):
                        found.append((count, rel, first, name))
    return found


def read_allow(path: str | None):
    allowed = set()
    if not path:
        return allowed
    with open(path, encoding="utf-8") as f:
        for raw in f:
            line = raw.split("#", 1)[0].strip()
            if line:
                rel, name = line.split(None, 1)
                allowed.add((rel, name.strip()))
    return allowed


SELFTEST_SOURCE = r'''
// A comment with a brace { that must not count.
namespace demo {
struct Box {
  int get() const { return 1; }
};
int long_one(int x) {
  auto f = [&](int y) { return y + 1; };
  const char* s = "}}}";
  const char* r = R"q({ "a": 1 })q";
  if (x > 1) {
    x = f(x);
  }
  return x + s[0] + r[0] + '{';
}
Box::Box() : v_{1}, w_(2) {
  v_ = 3;
  w_ = 4;
  v_ = 5;
  w_ = 6;
}
int short_one() { return 2; }
int with_default(std::vector<int> v = {}, int w = int{2}) {
  return w;
}
template <class T>
auto twice(T t) -> T requires std::is_integral_v<T> {
  return t + t;
}
int Box::operator()(int a) const noexcept {
  return a;
}
}  // namespace demo
auto lambda_at_namespace = [](int y) {
  y += 1;
  y += 2;
  y += 3;
  y += 4;
  return y;
};
'''


def selftest() -> int:
    """Check the matcher on a small source: the lengths it must report, and what it must not."""
    import tempfile
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, "src"))
        with open(os.path.join(root, "src", "demo.cpp"), "w", encoding="utf-8") as f:
            f.write(SELFTEST_SOURCE)
        got = {(name, count) for count, _, _, name in scan(root)}
    want = {("get", 1), ("long_one", 9), ("Box::Box", 6), ("short_one", 1),
            ("with_default", 3), ("Box::operator()", 3), ("twice", 3)}
    if got != want:
        print(f"FAIL: selftest found {sorted(got)}, expected {sorted(want)}")
        return 1
    print("selftest ok")
    return 0


def main() -> int:
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=os.path.dirname(here))
    ap.add_argument("--max-lines", type=int, default=120)
    ap.add_argument("--allow", help="file of `path name` lines not yet split")
    ap.add_argument("--check", action="store_true", help="exit 1 on a function over the limit")
    ap.add_argument("--selftest", action="store_true", help="check the matcher itself")
    args = ap.parse_args()
    if args.selftest:
        return selftest()

    long = sorted((f for f in scan(args.root) if f[0] > args.max_lines), key=lambda f: (-f[0], f[1], f[2]))
    allowed = read_allow(args.allow)
    failed = False
    for count, rel, first, name in long:
        mark = ""
        if (rel, name) in allowed:
            mark = "  (allow-listed)"
        elif args.check:
            mark = "  FAIL: over the limit; split it into named steps"
            failed = True
        print(f"{count:5d}  {rel}:{first}  {name}{mark}")
    over = {(rel, name) for _, rel, _, name in long}
    for rel, name in sorted(allowed - over):
        print(f"FAIL: {rel} {name} is allow-listed but not over {args.max_lines} lines: "
              "remove it from the allow-list")
        failed = True
    print(f"{len(long)} function(s) over {args.max_lines} lines in src/ and tools/")
    return 1 if (args.check and failed) else 0


if __name__ == "__main__":
    sys.exit(main())
