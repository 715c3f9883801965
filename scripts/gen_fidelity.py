#!/usr/bin/env python3
"""scripts/gen_fidelity.py -- the emulator's fidelity table (emu/core/fidelity.def).

Which RDNA3 ops have semantics backed by a hardware-derived test, and which
test that is.  Two sources:

  * tinygrad's hardware-validated instruction tests (test/amd/hw/*.py in a
    tinygrad checkout, written for and validated on a gfx1100; docs/emu.md):
    with --tinygrad DIR, every test function's instructions (calls such as
    v_add_f32_e32(...) and enum names such as VOPDOp.V_DUAL_MUL_F32) are
    extracted into tests/data/fidelity/tinygrad_hw.txt (committed: "op<TAB>
    file::Class::test", sorted), skipping the RDNA3.5-only tests
    (@skip_unless_gfx(11, 5)) and the CDNA/RDNA4 files;
  * rdx's own silicon tests (tests/emu/check_silicon.c, facts learned from
    those hardware-validated tests): the op names inside each START_TEST; and
    the tests of tests/emu/check_fp8.c whose names end in _hw (RDNA4's FP8/BF8
    conversions checked against values measured on gfx950, whose FP8/BF8 are
    the same OCP formats), listed as "check_fp8.c::NAME (gfx950)".

A third, hand-written source, tests/data/fidelity/not_emulated.txt, names the ops the
emulator does not execute and why (patterns over the op names, per family); they become
RDX_NOT_EMULATED(OP, FAMILIES, "reason") rows (FAMILIES: bit 0 RDNA3/3.5, bit 1 RDNA4).

Without --tinygrad the committed data file is read, so the table can be
regenerated -- and checked (--check: exit 1 when emu/core/fidelity.def is not
what this script writes) -- without a tinygrad checkout.  Op names are the
ones rdx knows (include/rdx/isa_ops.h); encoding suffixes are dropped.

usage: scripts/gen_fidelity.py [--tinygrad DIR] [--check]   (`make fidelity`)
"""
import fnmatch
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "tests", "data", "fidelity", "tinygrad_hw.txt")
OUT = os.path.join(ROOT, "emu", "core", "fidelity.def")
SILICON = os.path.join(ROOT, "tests", "emu", "check_silicon.c")
FP8_HW = os.path.join(ROOT, "tests", "emu", "check_fp8.c")
GAPS = os.path.join(ROOT, "tests", "data", "fidelity", "not_emulated.txt")
OPS_H = os.path.join(ROOT, "include", "rdx", "isa_ops.h")
SUFFIXES = ("_e64_dpp", "_e32", "_e64", "_dpp", "_sdwa")


def rdx_ops():
    with open(OPS_H) as f:
        return {m.lower() for m in re.findall(r"\bRDX_ISA_OP_([A-Z0-9_]+)\b", f.read())} - {
            "none", "count"}


def canon(name, ops):
    name = name.lower()
    for s in SUFFIXES:
        if name.endswith(s) and name[: -len(s)] in ops:
            return name[: -len(s)]
    return name if name in ops else None


def ops_in(text, ops):
    found = set()
    for m in re.finditer(r"\b([a-z][a-z0-9_]*)\s*\(", text):
        c = canon(m.group(1), ops)
        if c:
            found.add(c)
    for m in re.finditer(r"\b[A-Za-z0-9]*Op\.([A-Z][A-Z0-9_]*)\b", text):
        c = canon(m.group(1), ops)
        if c:
            found.add(c)
    return found


def extract_tinygrad(tg, ops):
    hw = os.path.join(tg, "test", "amd", "hw")
    if not os.path.isdir(hw):
        sys.exit("gen_fidelity: %s has no test/amd/hw" % tg)
    rows = set()
    for fn in sorted(os.listdir(hw)):
        if not fn.startswith("test_") or not fn.endswith(".py") or "cdna" in fn or "rdna4" in fn:
            continue
        with open(os.path.join(hw, fn)) as f:
            lines = f.read().split("\n")
        cls, cls_skip, i = None, False, 0
        pending = []  # decorators seen before the next def/class
        while i < len(lines):
            ln = lines[i]
            s = ln.strip()
            if s.startswith("@"):
                pending.append(s)
                i += 1
                continue
            m = re.match(r"class\s+(\w+)", ln)
            if m:
                cls, cls_skip, pending = m.group(1), any("skip_unless_gfx(11, 5" in d or
                                                         "skip_unless_gfx(12" in d
                                                         for d in pending), []
                i += 1
                continue
            m = re.match(r"(\s+)def\s+(test\w*)\s*\(", ln)
            if m:
                skip = cls_skip or any("skip_unless_gfx(11, 5" in d or "skip_unless_gfx(12" in d
                                       for d in pending)
                pending = []
                ind, name, body = len(m.group(1)), m.group(2), []
                i += 1
                while i < len(lines):
                    l2 = lines[i]
                    if l2.strip() and (len(l2) - len(l2.lstrip())) <= ind:
                        break
                    body.append(l2)
                    i += 1
                if not skip:
                    for op in ops_in("\n".join(body), ops):
                        rows.add("%s\t%s::%s::%s" % (op, fn, cls, name))
                continue
            if s and not s.startswith("#"):
                pending = []
            i += 1
    # the prologue/epilogue every test runs in (stores of the registers, s_endpgm)
    with open(os.path.join(hw, "helpers.py")) as f:
        for op in ops_in(f.read(), ops):
            rows.add("%s\thelpers.py::run_program (every test)" % op)
    os.makedirs(os.path.dirname(DATA), exist_ok=True)
    with open(DATA, "w") as f:
        f.write("# op<TAB>test: tinygrad test/amd/hw (hardware-validated on gfx1100); "
                "written by scripts/gen_fidelity.py --tinygrad DIR\n")
        for r in sorted(rows):
            f.write(r + "\n")


def silicon_tests(ops):
    out = {}
    for path, suffix, note in ((SILICON, "", ""), (FP8_HW, "_hw", " (gfx950)")):
        with open(path) as f:
            text = f.read()
        for m in re.finditer(r"START_TEST\((\w+)\)(.*?)END_TEST", text, re.S):
            if not m.group(1).endswith(suffix):
                continue
            for op in ops_in(m.group(2).replace('"', " ").replace("\\n", " "), ops) | {
                    canon(w, ops) for w in re.findall(r"\b([vs]_[a-z0-9_]+)\b", m.group(2))} - {None}:
                if suffix and "fp8" not in op and "bf8" not in op:
                    continue  # only the FP8/BF8 ops those gfx950 values back
                out.setdefault(op, []).append(os.path.basename(path) + "::" + m.group(1) + note)
    return out


def render(ops):
    tg = {}
    with open(DATA) as f:
        for ln in f:
            if ln.startswith("#") or not ln.strip():
                continue
            op, test = ln.rstrip("\n").split("\t")
            tg.setdefault(op, []).append(test)
    si = silicon_tests(ops)
    out = ["/* emu/core/fidelity.def -- generated by scripts/gen_fidelity.py (`make fidelity`)",
           " * from tests/data/fidelity/tinygrad_hw.txt, tests/emu/check_silicon.c and the _hw",
           " * tests of tests/emu/check_fp8.c; do not",
           " * edit.  RDX_FIDELITY(OP, tinygrad tests, rdx silicon tests, \"evidence\"): the ops",
           " * whose semantics a hardware-derived test exercises (docs/emu.md, Fidelity). */"]
    for op in sorted(set(tg) | set(si)):
        a, b = sorted(tg.get(op, [])), sorted(si.get(op, []))
        parts = []
        if a:
            parts.append("tinygrad %s%s" % (a[0], " (+%d more)" % (len(a) - 1) if len(a) > 1 else ""))
        if b:
            parts.append("rdx %s%s" % (b[0], " (+%d more)" % (len(b) - 1) if len(b) > 1 else ""))
        out.append('RDX_FIDELITY(%s, %d, %d, "%s")' % (op.upper(), len(a), len(b), "; ".join(parts)))
    out += not_emulated(ops)
    return "\n".join(out) + "\n"


def not_emulated(ops):
    fam_bits = {"rdna3": 1, "rdna4": 2, "all": 3}
    rows = {}  # op -> [families, reason] (the first matching line's reason per family)
    with open(GAPS) as f:
        for n, ln in enumerate(f, 1):
            if ln.startswith("#") or not ln.strip():
                continue
            parts = ln.rstrip("\n").split("\t")
            if len(parts) != 3 or parts[1] not in fam_bits:
                sys.exit("gen_fidelity: %s:%d: want PATTERN<TAB>rdna3|rdna4|all<TAB>REASON" % (GAPS, n))
            pat, fam, why = parts[0], fam_bits[parts[1]], parts[2].replace('"', "'")
            hit = sorted(op for op in ops if fnmatch.fnmatchcase(op, pat))
            if not hit:
                sys.exit("gen_fidelity: %s:%d: %s matches no op" % (GAPS, n, pat))
            for op in hit:
                r = rows.setdefault(op, [0, {}])
                for bit in (1, 2):
                    if fam & bit and bit not in r[1]:
                        r[0] |= bit
                        r[1][bit] = why
    out = ["/* RDX_NOT_EMULATED(OP, families: 1 RDNA3/3.5, 2 RDNA4, 3 both, \"reason\"): the ops",
           " * the emulator does not execute (tests/data/fidelity/not_emulated.txt). */"]
    for op in sorted(rows):
        fam, why = rows[op]
        reasons = sorted(set(why.values()))
        if len(reasons) == 1:
            out.append('RDX_NOT_EMULATED(%s, %d, "%s")' % (op.upper(), fam, reasons[0]))
        else:  # different reasons per family: one row each
            for bit in (1, 2):
                if bit in why:
                    out.append('RDX_NOT_EMULATED(%s, %d, "%s")' % (op.upper(), bit, why[bit]))
    return out


def main():
    args = sys.argv[1:]
    ops = rdx_ops()
    if "--tinygrad" in args:
        extract_tinygrad(args[args.index("--tinygrad") + 1], ops)
    text = render(ops)
    if "--check" in args:
        cur = open(OUT).read() if os.path.exists(OUT) else ""
        if cur != text:
            sys.exit("gen_fidelity: emu/core/fidelity.def is not current; run `make fidelity`")
        return
    with open(OUT, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
