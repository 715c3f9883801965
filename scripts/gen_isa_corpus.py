#!/usr/bin/env python3
"""gen_isa_corpus.py — build the llvm-mc oracle corpus for rdx's encoder/decoder.

For each target the script builds candidate encodings of every instruction in
the family's ISA JSON (../shared/isa/<family>.json): the opcode with operand
fields set to SGPRs, VGPRs, TTMPs, special registers, inline integer and float
constants, literals, register ranges, each modifier field, DPP16 and DPP8
words and the VOP3 promotions.  llvm-mc disassembles all candidates in one
batch; the text it prints is assembled again by llvm-mc in one batch, and a
line is kept only when LLVM's assembler reproduces the candidate's bytes
exactly.  So every corpus line is (LLVM's canonical text, LLVM's bytes).

Writes tests/data/isa/<target>.txt:  "<hex bytes>\\t<llvm text>" per line,
and tests/data/isa/<target>.ops: the op names (mnemonic without _e32/_e64/
_dpp) llvm-mc accepted for the target, one per line.

With --excludes it also writes isa/targets/gfx1100.exclude: rdna3.json ops that
LLVM accepts for gfx1150 (RDNA3.5) but not for gfx1100.

Usage: scripts/gen_isa_corpus.py [--llvm-mc PATH] [--excludes]
Python 3 standard library only; needs LLVM's llvm-mc (19 or later).
"""
import argparse
import importlib.util
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_spec = importlib.util.spec_from_file_location(
    "gen_isa_tables", os.path.join(ROOT, "scripts", "gen_isa_tables.py"))
GEN = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(GEN)  # shares the JSON corrections with the table generator
TARGETS = [("gfx1100", "rdna3"), ("gfx1201", "rdna4")]

# Candidate values per field kind.
SRC_VALUES = [258, 3, 8, 106, 108, 124, 125, 126, 128, 129, 192, 193, 208, 240, 242, 248, 255,
              235, 253, 511]
SSRC_VALUES = [3, 8, 106, 108, 124, 125, 126, 128, 193, 240, 242, 255, 235, 253]
SGPR_VALUES = [2, 8, 106, 108, 124, 125, 126]
VGPR_VALUES = [0, 5, 255]
LITERAL = 0x12345678


def fmap(enc):
    return {f["name"]: f for f in enc["fields"]}


def put(w, f, v):
    width = f["hi"] - f["lo"] + 1
    mask = ((1 << width) - 1) << f["lo"]
    return (w & ~mask) | ((v << f["lo"]) & mask)


def defaults(e):
    """A default field assignment: distinct small registers, modifiers off."""
    d = {}
    vg = 1
    for f in e["fields"]:
        k = f["kind"]
        if k == "fixed":
            d[f["name"]] = f["value"]
        elif k == "src":
            d[f["name"]] = 256 + vg
            vg += 1
        elif k == "ssrc":
            d[f["name"]] = 8
        elif k == "sgpr":
            d[f["name"]] = 8 if f["name"] != "saddr" else 124
        elif k == "vgpr":
            d[f["name"]] = vg
            vg += 1
        elif k == "vdsty":
            d[f["name"]] = 3
        elif k in ("sbase", "srsrc"):
            d[f["name"]] = 2
        elif f["name"] in ("row_mask", "bank_mask"):
            d[f["name"]] = 0xF
        elif f["name"] == "dmask":
            d[f["name"]] = 1
        else:
            d[f["name"]] = 0
    return d


def encode(e, vals, op_fields, extra=b""):
    w = 0
    fm = fmap(e)
    for n, v in vals.items():
        if n in fm:
            w = put(w, fm[n], v)
    for n, v in op_fields.items():
        w = put(w, fm[n], v)
    b = w.to_bytes(e["bits"] // 8, "little")
    lit = any(fm[n]["kind"] in ("src", "ssrc") and v == 255 for n, v in vals.items()
              if n in fm and not e.get("_lit"))
    return b + extra + (LITERAL.to_bytes(4, "little") if lit else b"")


def candidates(fam):
    encs = fam["encodings"]
    out = []  # (bytes, json name)
    for ins in fam["instructions"]:
        en = ins["encoding"]
        e = encs[en]
        fm = fmap(e)
        if en == "VOPD":
            opf = {}
        else:
            opf = {"op": ins["opcode"]}
        names = ins["name"]
        base = defaults(e)
        variants = [dict(base)]
        zero = {f["name"]: (f["value"] if f["kind"] == "fixed" else 0) for f in e["fields"]}
        variants.append(zero)
        if "saddr" in fm:
            z2 = dict(zero)
            z2["saddr"] = 124
            variants.append(z2)
            b2 = dict(base)
            b2["saddr"] = 8
            variants.append(b2)
            b3 = dict(base)
            b3["sve"] = 1
            variants.append(b3)
        for f in e["fields"]:
            k, n = f["kind"], f["name"]
            width = f["hi"] - f["lo"] + 1
            vals = []
            if k == "src":
                vals = SRC_VALUES
            elif k == "ssrc":
                vals = SSRC_VALUES
            elif k == "sgpr":
                vals = SGPR_VALUES
            elif k == "vgpr":
                vals = VGPR_VALUES
            elif k in ("sbase", "srsrc"):
                vals = [0, 1, 3, 27]
            elif k == "bits" and n not in ("literal",):
                vals = sorted({1, (1 << width) - 1, 1 << (width - 1)} |
                              ({4, 0x10, 0x7ff} if width >= 12 else set()))
            for v in vals:
                if v >= (1 << width) and k != "src":
                    continue
                x = dict(base)
                x[n] = v
                variants.append(x)
        for x in variants:
            if en == "VOPD":
                # pair with itself as X when the opcode fits opx, else with v_dual_mov_b32 (8)
                opx = ins["opcode"] if ins["opcode"] < 16 else 8
                opfields = {"opx": opx, "opy": ins["opcode"]}
                out.append((encode(e, x, opfields), names))
                opfields = {"opx": 8, "opy": ins["opcode"]}
                out.append((encode(e, x, opfields), names))
            else:
                out.append((encode(e, x, opf), names))
        # DPP16 / DPP8 / literal variants of VALU encodings
        for kind in ("DPP16", "DPP8"):
            ve = encs.get(en + "_" + kind)
            if ve is None:
                continue
            vf = fmap(ve)
            dvals = defaults(ve)
            dvals["vsrc0"] = 7
            if kind == "DPP16":
                dvals["src0"] = 250
                for ctrl in (0x1B, 0xE4, 0x111, 0x101, 0x121, 0x141, 0x140, 0x150, 0x15F,
                             0x160):
                    for extra in ({}, {"bc": 1}, {"fi": 1}, {"row_mask": 0x3},
                                  {"src0_neg": 1, "src1_abs": 1}, {"src0_abs": 1},
                                  {"src1_neg": 1}):
                        y = dict(dvals)
                        y["dpp"] = ctrl
                        y.update(extra)
                        out.append((encode(dict(ve, _lit=True), y, opf), names))
                for n2 in ("neg", "abs", "clmp", "opsel", "omod", "neg_hi", "opsel_hi"):
                    if n2 in vf:
                        y = dict(dvals)
                        y["dpp"] = 0x111
                        y[n2] = 1
                        out.append((encode(dict(ve, _lit=True), y, opf), names))
            else:
                for src0 in (233, 234):
                    for sel in (0xFAC688, 0x000000, 0x2D21B):
                        y = dict(dvals)
                        y["src0"] = src0
                        for i in range(8):
                            y["lane_sel_%d" % i] = (sel >> (3 * i)) & 7
                        out.append((encode(dict(ve, _lit=True), y, opf), names))
    return out


def run_mc(mc, cpu, text, disassemble):
    args = [mc, "-triple=amdgcn-amd-amdhsa", "-mcpu=" + cpu, "-show-encoding"]
    if disassemble:
        args.append("--disassemble")
    p = subprocess.run(args, input=text, capture_output=True, text=True)
    return p.stdout, p.stderr


ENC_RE = re.compile(r"^\s*(.*?)\s*; encoding: \[([^\]]*)\]")


def parse_out(stdout):
    res = []
    for line in stdout.splitlines():
        m = ENC_RE.match(line)
        if m:
            bs = bytes(int(x, 16) for x in m.group(2).split(",") if x)
            res.append((re.sub(r"\s+", " ", m.group(1)).strip(), bs))
    return res


def bad_lines(stderr, word):
    return set(int(m.group(1)) for m in re.finditer(r":(\d+):\d+: %s" % word, stderr))


def oracle(mc, cpu, cands):
    """Return [(bytes, text)] that llvm-mc disassembles and reassembles identically."""
    uniq = []
    seen = set()
    for b, n in cands:
        if b not in seen:
            seen.add(b)
            uniq.append(b)
    lines = ["[" + ",".join("0x%02x" % x for x in b) + "]" for b in uniq]
    out, err = run_mc(mc, cpu, "\n".join(lines) + "\n", True)
    bad = bad_lines(err, "(warning|error)")
    outs = parse_out(out)
    j = 0
    texts = []
    seen_out = set()
    for i, b in enumerate(uniq):
        if i + 1 in bad:
            continue
        tot = 0
        first = None
        parts = 0
        while tot < len(b) and j < len(outs):
            if first is None:
                first = outs[j]
            tot += len(outs[j][1])
            parts += 1
            j += 1
        # LLVM prints the canonical encoding (unused fields cleared); keep that
        if first is not None and parts == 1 and len(first[1]) == len(b) and \
                first[1] not in seen_out:
            seen_out.add(first[1])
            texts.append((first[1], first[0]))
    # reassemble
    src = "\n".join(t for b, t in texts) + "\n"
    out, err = run_mc(mc, cpu, src, False)
    bad = bad_lines(err, "error")
    outs = parse_out(out)
    j = 0
    keep = []
    for i, (b, t) in enumerate(texts):
        if i + 1 in bad:
            continue
        if j >= len(outs):
            break
        t2, b2 = outs[j]
        j += 1
        if b2 == b:
            keep.append((b, t))
    return keep


def mnemonic_op(text):
    m = text.split()[0]
    return re.sub(r"(_e32|_e64_dpp|_e64|_dpp)$", "", m)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--llvm-mc", default="/usr/lib/llvm-19/bin/llvm-mc")
    ap.add_argument("--isa-dir", default=os.path.join(ROOT, "..", "shared", "isa"))
    ap.add_argument("--excludes", action="store_true")
    args = ap.parse_args()
    outdir = os.path.join(ROOT, "tests", "data", "isa")
    os.makedirs(outdir, exist_ok=True)
    fams = {}
    for cpu, famname in TARGETS:
        with open(os.path.join(args.isa_dir, famname + ".json")) as f:
            fams[famname] = GEN.add_missing_vopc_e64(json.load(f))
    for cpu, famname in TARGETS:
        cands = candidates(fams[famname])
        keep = oracle(args.llvm_mc, cpu, cands)
        keep.sort(key=lambda bt: (mnemonic_op(bt[1]), len(bt[0]), bt[0]))
        with open(os.path.join(outdir, cpu + ".txt"), "w") as f:
            f.write("# llvm-mc oracle corpus for %s: hex bytes, a tab, LLVM's text "
                    "(scripts/gen_isa_corpus.py)\n" % cpu)
            for b, t in keep:
                f.write("%s\t%s\n" % (b.hex(), t))
        ops = sorted({mnemonic_op(t) for b, t in keep})
        with open(os.path.join(outdir, cpu + ".ops"), "w") as f:
            f.write("# ops llvm-mc accepts for %s (scripts/gen_isa_corpus.py)\n" % cpu)
            for o in ops:
                f.write(o + "\n")
        print("%s: %d lines, %d ops" % (cpu, len(keep), len(ops)))
    if args.excludes:
        fam = fams["rdna3"]
        cands = candidates(fam)
        a = {mnemonic_op(t) for b, t in oracle(args.llvm_mc, "gfx1100", cands)}
        b = {mnemonic_op(t) for b, t in oracle(args.llvm_mc, "gfx1150", cands)}
        excl = sorted(b - a)
        with open(os.path.join(ROOT, "isa", "targets", "gfx1100.exclude"), "w") as f:
            f.write("# rdna3.json ops llvm-mc accepts for gfx1150 but not for gfx1100\n"
                    "# (written by scripts/gen_isa_corpus.py --excludes)\n")
            for n in excl:
                f.write(n + "\n")
        print("gfx1100.exclude: %d ops" % len(excl))


if __name__ == "__main__":
    main()
