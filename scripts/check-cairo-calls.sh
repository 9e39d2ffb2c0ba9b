#!/bin/sh
# Every cairo and fontconfig call of the server is made under render/lock.h's lock, and
# checked for it (issue 20 item 2). This fails (exit 1, naming the file and function) when
#
#   - a file of render/ calls a cairo_* or Fc* function that render/cairo_checked.h does
#     not wrap in its lock assertion;
#   - a file of render/ calls one without including render/cairo_checked.h as its last
#     include (a header included after it could declare what it wraps);
#   - a file of the server's other folders (base/ engine/ codec/ db/ game/ http/ deliver/
#     api/ cmd/) calls cairo or fontconfig at all: the server draws only through
#     render_board().
#
# Calls are found in the code with comments and strings removed. Run by `make check-layers`
# (part of `make test`).
set -eu
cd "$(dirname "$0")/.."
exec python3 - <<'PYTHON'
import glob, re, sys

def code_of(path):
    text = open(path, encoding="utf-8").read()
    # comments and string or character literals, in one pass so "/*" in a string is a string
    pattern = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
    return pattern.sub(lambda m: " " if m.group(0)[0] in "/" else '""', text)

call = re.compile(r'\b(cairo_[a-z0-9_]+|Fc[A-Z][A-Za-z0-9]*)\s*\(')
wrapped = set(re.findall(r'^#define\s+(cairo_[a-z0-9_]+|Fc[A-Z][A-Za-z0-9]*)\(\.\.\.\)',
                         open("render/cairo_checked.h").read(), re.M))
problems = []
for path in sorted(glob.glob("render/*.c")):
    code = code_of(path)
    calls = sorted(set(call.findall(code)))
    if not calls:
        continue
    # (the includes from the text itself: the code has its strings blanked)
    includes = re.findall(r'^[ \t]*#[ \t]*include[ \t]*([<"][^>"]*[>"])', open(path).read(), re.M)
    if not includes or includes[-1] != '"render/cairo_checked.h"':
        problems.append('%s: calls cairo (%s) but does not include "render/cairo_checked.h" last' % (path, calls[0]))
    for name in calls:
        if name not in wrapped:
            problems.append("%s: calls %s, which render/cairo_checked.h does not check" % (path, name))
for folder in ("base", "engine", "codec", "db", "game", "http", "deliver", "api", "cmd"):
    for path in sorted(glob.glob(folder + "/**/*.[ch]", recursive=True)):
        for name in sorted(set(call.findall(code_of(path)))):
            problems.append("%s: calls %s outside render/ (draw through render_board())" % (path, name))
for problem in problems:
    print("check-cairo-calls: " + problem)
sys.exit(1 if problems else 0)
PYTHON
