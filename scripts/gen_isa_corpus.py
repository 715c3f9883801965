#!/usr/bin/env python3
"""gen_isa_corpus.py — build the llvm-mc oracle corpus for rdx's encoder/decoder.

For each target the script builds candidate encodings of every instruction in
the family's ISA JSON (isa/data/<family>.json): the opcode with operand
fields set to SGPRs, VGPRs, TTMPs, special registers, inline integer and float
constants, literals, register ranges, each modifier field, DPP16 and DPP8
words and the VOP3 promotions.  llvm-mc disassembles all candidates in one
batch; the text it prints is assembled again by llvm-mc in one batch, and a
line is kept only when LLVM's assembler reproduces the candidate's bytes
exactly.  So every corpus line is (LLVM's canonical text, LLVM's bytes).

Writes tests/data/isa/<target>.txt:  "<hex bytes>\\t<llvm text>" per line
(gfx1100 and gfx1201: up to 24 lines per mnemonic; the other targets up to
SMALL_CAP), for every target of isa/targets/targets.txt (--targets: a subset),
and tests/data/isa/<target>.ops: the op names (mnemonic without _e32/_e64/
_dpp) llvm-mc accepted for the target, one per line.

With --excludes it also writes isa/targets/<target>.exclude: the family's ops
llvm-mc answers with "not supported on this GPU" or does not know at all (on
gfx1100 these include RDNA3.5's scalar float ops).

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


def read_targets():
    """(name, family) of every target in isa/targets/targets.txt."""
    out = []
    with open(os.path.join(ROOT, "isa", "targets", "targets.txt")) as f:
        for line in f:
            parts = line.split("#", 1)[0].split()
            if len(parts) >= 2:
                out.append((parts[0], parts[1]))
    return out


TARGETS = read_targets()

# Every target's corpus (tests/data/isa/<t>.{txt,ops}) is committed and checked
# by tests/isa/check_isa_corpus.c and tests/asm.  The first-class targets keep
# up to 24 lines per mnemonic; the others a smaller corpus (every mnemonic the
# target accepts, each form, up to SMALL_CAP lines of distinct shapes), since
# they share the family's tables with their first-class sibling.
FIRST_CLASS = ("gfx1100", "gfx1201")
SMALL_CAP = 4

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


REG_KINDS = ("src", "ssrc", "sgpr", "vgpr", "vdsty", "sbase", "srsrc")


def used_fields(ins, e, x_ops=None):
    """Register fields the instruction's operands use (others must stay 0)."""
    ops = set(ins.get("operands") or {})
    fm = fmap(e)
    used = set()
    for n in ops:
        n2 = {"vsrc0": "src0"}.get(n, n)
        if n2 == "sdst" and "sdst" not in fm:
            n2 = "vdst"
        if n2 == "data" and "vsrc" in fm:
            n2 = "vsrc"
        used.add(n2)
    if ins["encoding"] == "VOPD":
        xo = ops if x_ops is None else x_ops
        used |= {"vdstx", "srcx0"} | ({"vsrcx1"} if "vsrcy1" in xo else set())
    if ins["encoding"] in ("VOP3", "VOP3SD") and "vdst" not in used and "sdst" in ops:
        used.add("vdst")
    return used


def defaults(e, used=None):
    """A default field assignment: distinct small registers, modifiers off;
    register fields outside `used` (when given) are 0."""
    d = {}
    vg = 1
    for f in e["fields"]:
        k = f["kind"]
        if used is not None and k in REG_KINDS and f["name"] not in used:
            d[f["name"]] = 0
            continue
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
        elif f["name"] == "opsel_hi":
            d[f["name"]] = 3  # VOP3P's default op_sel_hi:[1,1,1]
        elif f["name"] == "opsel_hi2":
            d[f["name"]] = 1
        else:
            d[f["name"]] = 0
    return d


NEEDS_K = re.compile(r"^[sv]_fma[ak]k_|^v_dual_fma[ak]k_|^s_setreg_imm32_b32$")


LITERAL16 = 0x00004321  # a literal 16-bit operands keep (LLVM prints their low half)


def encode(e, vals, op_fields, extra=b"", k=False, literal=LITERAL):
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
    if "nsa" in fm and vals.get("nsa"):
        extra = extra + bytes([0x0A, 0x0B, 0x0C, 0x0D])  # NSA addresses v10, v11, v12, v13
    return b + extra + (literal.to_bytes(4, "little") if lit or k else b"")


def candidates(fam):
    encs = fam["encodings"]
    out = []  # (bytes, json name)
    for ins in fam["instructions"]:
        en = ins["encoding"]
        e = encs[en]
        fm = fmap(e)
        if en == "VOPD" or "op" not in fm:
            opf = {}
        else:
            opf = {"op": ins["opcode"]}
        needk = bool(NEEDS_K.match(ins["name"]))
        names = ins["name"]
        full = defaults(e)
        base = defaults(e, used_fields(ins, e))
        if "bvh" in names:  # BVH ops: dmask 0xf, r128 (and unorm on RDNA3) are fixed
            for x in (full, base):
                for n, v in (("dmask", 0xF), ("r128", 1), ("unrm", 1)):
                    if n in fm:
                        x[n] = v
        variants = [dict(full), dict(base)]
        # all sources scalar / all sources constant (permlane, 64-bit shifts, ...)
        for sv, ssv in ((3, 3), (8, 8), (129, 129)):
            x = dict(base)
            for f in e["fields"]:
                if f["name"] in base and base[f["name"]] and f["kind"] in ("src", "ssrc") \
                        and f["name"] != "src0":
                    x[f["name"]] = sv if f["kind"] == "src" else ssv
            variants.append(x)
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
                # pair with itself as X when the opcode fits opx, and with v_dual_mov_b32 (8)
                if ins["opcode"] < 16:
                    out.append((encode(e, x, {"opx": ins["opcode"], "opy": ins["opcode"]}, k=needk),
                                names))
                y = dict(x)
                y["vsrcx1"] = 0
                out.append((encode(e, y, {"opx": 8, "opy": ins["opcode"]}, k=needk), names))
                y = dict(x)
                y["vsrcy1"] = 0
                y["vsrcx1"] = y.get("vsrcx1") or 4
                out.append((encode(e, y, {"opx": ins["opcode"] & 15, "opy": 8}, k=needk), names))
            else:
                b = encode(e, x, opf, k=needk)
                out.append((b, names))
                if b.endswith(LITERAL.to_bytes(4, "little")):
                    out.append((encode(e, x, opf, k=needk, literal=LITERAL16), names))
        # DPP16 / DPP8 / literal variants of VALU encodings
        for kind in ("DPP16", "DPP8"):
            ve = encs.get(en + "_" + kind)
            if ve is None:
                continue
            vf = fmap(ve)
            dvals = defaults(ve, used_fields(ins, ve) | {"vsrc0", "row_mask", "bank_mask"})
            dvals["vsrc0"] = 7
            # promoted ops whose src2 is a scalar carry/mask (v_cndmask_b32, v_*_co_ci_u32)
            # reject a VGPR src2: a few candidates with s8 / vcc_lo there
            for s2 in ((8, 106) if dvals.get("src2") else ()):
                y = dict(dvals, src2=s2)
                if kind == "DPP16":
                    y.update(dpp=0x111, src0_neg=1, src1_abs=1, neg=1, abs=2)
                else:
                    y["src0"] = 233
                    for i in range(8):
                        y["lane_sel_%d" % i] = 7 - i
                out.append((encode(dict(ve, _lit=True), y, opf), names))
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
    # Each candidate is followed by a separator instruction in its own bracket
    # (s_nop 0x1234), so the outputs between two separators belong to one
    # candidate whatever LLVM made of its bytes.
    sep = bytes([0x34, 0x12, 0x80, 0xBF])
    lines = []
    for b in uniq:
        lines.append("[" + ",".join("0x%02x" % x for x in b) + "]")
        lines.append("[" + ",".join("0x%02x" % x for x in sep) + "]")
    out, err = run_mc(mc, cpu, "\n".join(lines) + "\n", True)
    segs = [[]]
    for t, ob in parse_out(out):
        if ob == sep:
            segs.append([])
        else:
            segs[-1].append((t, ob))
    if len(segs) != len(uniq) + 1:
        sys.exit("gen_isa_corpus: llvm-mc output does not line up (%d segments for %d "
                 "candidates)" % (len(segs) - 1, len(uniq)))
    texts = []
    seen_out = set()
    for b, seg in zip(uniq, segs):
        # LLVM prints the canonical encoding (unused fields cleared); keep that
        # (LLVM marks operands it decoded but considers invalid with a /*...*/ comment)
        if len(seg) == 1 and len(seg[0][1]) == len(b) and seg[0][1] not in seen_out and \
                "/*" not in seg[0][0]:
            seen_out.add(seg[0][1])
            texts.append((seg[0][1], seg[0][0]))
    # reassemble: LLVM's text must assemble to LLVM's bytes
    src = "\n".join(t for b, t in texts) + "\n"
    out, err = run_mc(mc, cpu, src, False)
    by_text = {}
    for t2, b2 in parse_out(out):
        by_text.setdefault(t2, b2)
    keep = [(b, t) for b, t in texts if by_text.get(t) == b]
    return keep


def trim_small(lines, cap=SMALL_CAP):
    """Up to `cap` lines per mnemonic, distinct shapes (the text with numbers
    hidden) first."""
    groups = {}
    for b, t in sorted(lines, key=lambda bt: (bt[1], bt[0])):
        groups.setdefault(t.split()[0], []).append((b, t))
    out = []
    for m, g in groups.items():
        shapes, picked = set(), []
        for b, t in g:
            sh = re.sub(r"0x[0-9a-fA-F]+|[0-9]+", "#", t)
            if sh not in shapes and len(picked) < cap:
                shapes.add(sh)
                picked.append((b, t))
        out.extend(picked)
    # ops that occur only as a VOPD Y half (v_dual_lshlrev_b32) need a line too
    covered = {o for _, t in out for o in line_ops(t)}
    for b, t in sorted(lines, key=lambda bt: (bt[1], bt[0])):
        if any(o not in covered for o in line_ops(t)):
            out.append((b, t))
            covered.update(line_ops(t))
    return out


def line_ops(text):
    """The ops of a corpus line: its mnemonic's, and a VOPD pair's Y op."""
    ops = [mnemonic_op(text)]
    if " :: " in text:
        ops.append(mnemonic_op(text.split(" :: ", 1)[1]))
    return ops


def trim(lines, cap=24):
    """Keep every distinct operand/modifier shape of each mnemonic (the text with
    numbers hidden), then fill up to `cap` lines per mnemonic."""
    groups = {}
    for b, t in sorted(lines, key=lambda bt: (bt[1], bt[0])):
        groups.setdefault(t.split()[0], []).append((b, t))
    out = []
    for m, g in groups.items():
        shapes = set()
        rest = []
        for b, t in g:
            sh = re.sub(r"0x[0-9a-fA-F]+|[0-9]+", "#", t)
            if sh not in shapes:
                shapes.add(sh)
                out.append((b, t))
            else:
                rest.append((b, t))
        room = cap - len(shapes)
        if room > 0 and rest:
            step = max(1, len(rest) // room)
            out.extend(rest[::step][:room])
    return out


def write_excludes(mc, cpu, fam, accepted):
    """isa/targets/<cpu>.exclude: the family's ops llvm-mc does not have for the
    target.  Every op without a corpus line is assembled bare (one batch); the
    ones llvm-mc answers with "instruction not supported on this GPU" or
    "invalid instruction" (a mnemonic it does not know) are excluded.  Ops it
    knows but rejects only for their operands stay available."""
    names = sorted({GEN.base_name(i["name"]) for i in fam["instructions"]} - accepted)
    out, err = run_mc(mc, cpu, "\n".join(n + " v0" for n in names) + "\n", False)
    why = {}
    for m in re.finditer(r":(\d+):\d+: error: (.*)", err):
        msg = m.group(2)
        if msg.startswith("instruction not supported on this GPU"):
            why[int(m.group(1))] = "not supported on this GPU"
        elif msg.startswith("invalid instruction"):
            why[int(m.group(1))] = "unknown to llvm-mc"
    excl = [(n, why[i + 1]) for i, n in enumerate(names) if i + 1 in why]
    with open(os.path.join(ROOT, "isa", "targets", cpu + ".exclude"), "w") as f:
        f.write("# ops of the family's ISA data llvm-mc does not have for %s, with its answer\n"
                "# (written by scripts/gen_isa_corpus.py --excludes)\n" % cpu)
        for n, w in excl:
            f.write("%-40s # %s\n" % (n, w))
    print("%s.exclude: %d ops" % (cpu, len(excl)))


def dpp_kind(b):
    """'e32' / 'e64' when the bytes are a DPP16/DPP8 VALU encoding, else None."""
    w0 = int.from_bytes(b[0:4], "little")
    markers = (0xFA, 0xE9, 0xEA)
    e32 = (w0 >> 25) in (0x3F, 0x3E) or (w0 >> 31) == 0
    if e32 and (w0 & 0x1FF) in markers and len(b) == 8:
        return "e32"
    if ((w0 >> 26) == 0x35 or (w0 >> 24) == 0xCC) and len(b) == 12:
        if (int.from_bytes(b[4:8], "little") & 0x1FF) in markers:
            return "e64"
    return None


def write_dpp(cpu, keep):
    """isa/targets/<cpu>.dpp: the ops (and e32/e64 form) llvm-mc accepts with DPP."""
    seen = set()
    for b, t in keep:
        k = dpp_kind(b)
        if k:
            seen.add((mnemonic_op(t), k))
    with open(os.path.join(ROOT, "isa", "targets", cpu + ".dpp"), "w") as f:
        f.write("# ops llvm-mc accepts with DPP16/DPP8 on %s, by form (e32: VOP1/VOP2/VOPC,\n"
                "# e64: VOP3/VOP3P); written by scripts/gen_isa_corpus.py\n" % cpu)
        for op, k in sorted(seen):
            f.write("%s %s\n" % (op, k))


def mnemonic_op(text):
    m = text.split()[0]
    return re.sub(r"(_e32|_e64_dpp|_e64|_dpp)$", "", m)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--llvm-mc", default="/usr/lib/llvm-19/bin/llvm-mc")
    ap.add_argument("--isa-dir", default=os.path.join(ROOT, "isa", "data"))
    ap.add_argument("--excludes", action="store_true")
    ap.add_argument("--targets", help="comma-separated subset of the targets (default: all)")
    args = ap.parse_args()
    only = set(args.targets.split(",")) if args.targets else None
    outdir = os.path.join(ROOT, "tests", "data", "isa")
    os.makedirs(outdir, exist_ok=True)
    fams = {}
    for cpu, famname in TARGETS:
        fams[famname] = GEN.load_family(args.isa_dir, famname)
    for cpu, famname in TARGETS:
        if only is not None and cpu not in only:
            continue
        cands = candidates(fams[famname])
        accepted = oracle(args.llvm_mc, cpu, cands)
        keep = trim(accepted)
        keep.sort(key=lambda bt: (mnemonic_op(bt[1]), len(bt[0]), bt[0]))
        corpus = keep if cpu in FIRST_CLASS else trim_small(keep)
        corpus.sort(key=lambda bt: (mnemonic_op(bt[1]), len(bt[0]), bt[0]))
        with open(os.path.join(outdir, cpu + ".txt"), "w") as f:
            f.write("# llvm-mc oracle corpus for %s: hex bytes, a tab, LLVM's text "
                    "(scripts/gen_isa_corpus.py)\n" % cpu)
            for b, t in corpus:
                f.write("%s\t%s\n" % (b.hex(), t))
        ops = set()
        for b, t in keep:
            ops.add(mnemonic_op(t))
            if " :: " in t:  # VOPD: the Y op too
                ops.add(mnemonic_op(t.split(" :: ", 1)[1]))
        ops = sorted(ops)
        write_dpp(cpu, keep)
        with open(os.path.join(outdir, cpu + ".ops"), "w") as f:
            f.write("# ops llvm-mc accepts for %s (scripts/gen_isa_corpus.py)\n" % cpu)
            for o in ops:
                f.write(o + "\n")
        print("%s: %d lines, %d ops" % (cpu, len(corpus), len(ops)))
        if args.excludes:
            write_excludes(args.llvm_mc, cpu, fams[famname], set(ops))


if __name__ == "__main__":
    main()
