#!/bin/bash
# igwire_proto.sh: tests/integ/igwire.py writes the control protocol's
# message numbers by hand; each must be the one of enum ig_msg_type in
# src/wire/proto.h (IG_MSG_<NAME>), and igwire's magic and default
# version those of IG_PROTO_MAGIC and IG_PROTO_VERSION; and the loopback
# tests' Python (tests/integ/*.sh) names the message types, no bare
# number of a type in msg(N, ...), hdr(V, N, ...) or typ == N (a number
# that is no type, e.g. 99, is a test of an unknown type).  Fails naming
# every difference.
#   bash tests/lint/igwire_proto.sh [proto.h] [igwire.py] [integ dir]
set -u
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
PROTO=${1:-$SRC/src/wire/proto.h}
IGWIRE=${2:-$SRC/tests/integ/igwire.py}
INTEG=${3:-$SRC/tests/integ}

exec python3 - "$PROTO" "$IGWIRE" "$INTEG" <<'PY'
import ast, glob, os, re, sys

proto_path, igwire_path, integ = sys.argv[1:4]
fails = []


def enum_values(text):
    """enum ig_msg_type's members: IG_MSG_X = N, or one more than the last."""
    text = re.sub(r"/\*.*?\*/|//[^\n]*", "", text, flags=re.S)
    m = re.search(r"enum\s+ig_msg_type\s*\{(.*?)\}", text, re.S)
    if not m:
        return None
    vals, nxt = {}, 0
    for item in filter(None, (s.strip() for s in m.group(1).split(","))):
        name, _, val = (p.strip() for p in item.partition("="))
        if val:
            nxt = int(val, 0)
        vals[name] = nxt
        nxt += 1
    return vals


def py_constants(tree):
    """Module-level NAME = int (or NAME, ... = int, ...): name -> value."""
    out = {}
    for node in tree.body:
        if not isinstance(node, ast.Assign) or len(node.targets) != 1:
            continue
        t, v = node.targets[0], node.value
        names = t.elts if isinstance(t, ast.Tuple) else [t]
        vals = v.elts if isinstance(v, ast.Tuple) else [v]
        if len(names) != len(vals):
            continue
        for n, c in zip(names, vals):
            if (isinstance(n, ast.Name) and n.id.isupper() and
                    isinstance(c, ast.Constant) and type(c.value) is int):
                out[n.id] = c.value
    return out


proto = open(proto_path).read()
enum = enum_values(proto)
if not enum:
    sys.exit("FAIL: no enum ig_msg_type in %s" % proto_path)
src = open(igwire_path).read()
consts = py_constants(ast.parse(src))
if not consts:
    fails.append("no message numbers (NAME = N) in %s" % igwire_path)
for name, val in sorted(consts.items(), key=lambda kv: kv[1]):
    want = enum.get("IG_MSG_" + name)
    if want is None:
        fails.append("%s = %d: proto.h's enum ig_msg_type has no IG_MSG_%s"
                     % (name, val, name))
    elif want != val:
        fails.append("%s = %d, but proto.h has IG_MSG_%s = %d"
                     % (name, val, name, want))

magic = re.search(r'#define\s+IG_PROTO_MAGIC\s+"([^"]*)"', proto)
version = re.search(r"#define\s+IG_PROTO_VERSION\s+(\d+)", proto)
if not magic or 'b"%s"' % magic.group(1) not in src:
    fails.append("igwire.py does not frame with proto.h's IG_PROTO_MAGIC %s"
                 % (magic.group(1) if magic else "(not found)"))
default = re.search(r"def msg\([^)]*ver=(\d+)", src)
if not version or not default or default.group(1) != version.group(1):
    fails.append("igwire.py's msg() default version %s, proto.h's "
                 "IG_PROTO_VERSION %s"
                 % (default.group(1) if default else "(not found)",
                    version.group(1) if version else "(not found)"))
bare = re.compile(r"\bmsg\(\s*(\d+)|\bhdr\(\s*\d+\s*,\s*(\d+)|"
                  r"\btyp\s*[!=]=\s*(\d+)")
types = {v: k for k, v in enum.items() if k != "IG_MSG_TYPE_MAX"}
for path in sorted(glob.glob(os.path.join(integ, "*.sh"))):
    for no, line in enumerate(open(path), 1):
        for m in bare.finditer(line):
            n = int(next(g for g in m.groups() if g))
            if n in types:
                fails.append("%s:%d: the bare number %d, not %s: %s"
                             % (os.path.basename(path), no, n,
                                types[n][len("IG_MSG_"):], line.strip()))
for f in fails:
    print("FAIL: igwire_proto: " + f)
if fails:
    sys.exit(1)
print("igwire_proto: %d message numbers of igwire.py match proto.h (%s)"
      % (len(consts), ", ".join("%s=%d" % kv for kv in sorted(
          consts.items(), key=lambda kv: kv[1]))))
PY
