#!/usr/bin/env python3
"""gen_asm_aliases.py — the legacy mnemonics llvm-mc accepts, as a table for rdx's assembler.

LLVM's AMDGPU assembler still accepts the pre-RDNA3 spellings of many
instructions (global_load_dword for global_load_b32, ds_read_b32 for
ds_load_b32, s_andn2_b32 for s_and_not1_b32, v_add_u32 for v_add_nc_u32, ...).
This script proposes candidate spellings by rewriting each canonical op name
with renaming rules, asks llvm-mc (one batch per target) which candidates it
accepts, and keeps a candidate only when llvm-mc encodes it to exactly the
bytes of the canonical instruction (taken from isa-core's corpus,
tests/data/isa/<target>.txt).

Writes isa/asm/aliases.inc: ALIAS(targets, "legacy", "canonical") lines,
targets a bit mask (1 gfx1100, 2 gfx1201).  `make asm-aliases` regenerates it;
tests/asm checks the committed file is what this script writes.

Usage: scripts/gen_asm_aliases.py [--llvm-mc PATH] [--out FILE]
Python 3 standard library only; needs LLVM's llvm-mc (19).
"""
import argparse
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGETS = [("gfx1100", 1), ("gfx1201", 2)]

# canonical substring -> legacy substring (applied to op names)
RULES = [
    ("_b32", "_dword"), ("_b64", "_dwordx2"), ("_b96", "_dwordx3"), ("_b128", "_dwordx4"),
    ("_u8", "_ubyte"), ("_i8", "_sbyte"), ("_u16", "_ushort"), ("_i16", "_sshort"),
    ("_b16", "_short"), ("_b8", "_byte"),
    ("_d16_u8", "_ubyte_d16"), ("_d16_hi_u8", "_ubyte_d16_hi"), ("_d16_i8", "_sbyte_d16"),
    ("_d16_hi_i8", "_sbyte_d16_hi"), ("_d16_b16", "_short_d16"), ("_d16_hi_b16", "_short_d16_hi"),
    ("_d16_hi_b8", "_byte_d16_hi"),
    ("ds_load_", "ds_read_"), ("ds_store_", "ds_write_"), ("_2addr_stride64_", "2st64_"),
    ("_2addr_", "2_"), ("storexchg", "wrxchg"), ("cmpstore", "cmpst"),
    ("_add_u32", "_add"), ("_add_u64", "_add_x2"), ("_sub_u32", "_sub"), ("_sub_u64", "_sub_x2"),
    ("_swap_b32", "_swap"), ("_swap_b64", "_swap_x2"), ("_cmpswap_b32", "_cmpswap"),
    ("_cmpswap_b64", "_cmpswap_x2"), ("_and_b32", "_and"), ("_and_b64", "_and_x2"),
    ("_or_b32", "_or"), ("_or_b64", "_or_x2"), ("_xor_b32", "_xor"), ("_xor_b64", "_xor_x2"),
    ("_min_i32", "_smin"), ("_min_i64", "_smin_x2"), ("_max_i32", "_smax"),
    ("_max_i64", "_smax_x2"), ("_min_u32", "_umin"), ("_min_u64", "_umin_x2"),
    ("_max_u32", "_umax"), ("_max_u64", "_umax_x2"), ("_inc_u32", "_inc"), ("_inc_u64", "_inc_x2"),
    ("_dec_u32", "_dec"), ("_dec_u64", "_dec_x2"), ("_csub_u32", "_csub"),
    ("_min_f32", "_fmin"), ("_max_f32", "_fmax"), ("_min_f64", "_fmin_x2"),
    ("_max_f64", "_fmax_x2"), ("_cmpswap_f32", "_fcmpswap"), ("_cmpswap_f64", "_fcmpswap_x2"),
    ("_and_not1_", "_andn2_"), ("_or_not1_", "_orn2_"), ("_and_not0_", "_andn1_"),
    ("_or_not0_", "_orn1_"),
    ("s_ctz_i32_b32", "s_ff1_i32_b32"), ("s_ctz_i32_b64", "s_ff1_i32_b64"),
    ("s_clz_i32_u32", "s_flbit_i32_b32"), ("s_clz_i32_u64", "s_flbit_i32_b64"),
    ("s_cls_i32", "s_flbit_i32"), ("s_cls_i32_i64", "s_flbit_i32_i64"),
    ("s_add_co_u32", "s_add_u32"), ("s_add_co_ci_u32", "s_addc_u32"),
    ("s_sub_co_u32", "s_sub_u32"), ("s_sub_co_ci_u32", "s_subb_u32"),
    ("s_add_co_i32", "s_add_i32"), ("s_sub_co_i32", "s_sub_i32"), ("s_addk_co_i32", "s_addk_i32"),
    ("v_add_nc_u32", "v_add_u32"), ("v_sub_nc_u32", "v_sub_u32"),
    ("v_subrev_nc_u32", "v_subrev_u32"), ("_dx9_zero_", "_legacy_"),
    ("v_cvt_nearest_i32_f32", "v_cvt_rpi_i32_f32"), ("v_cvt_floor_i32_f32", "v_cvt_flr_i32_f32"),
    ("v_clz_i32_u32", "v_ffbh_u32"), ("v_ctz_i32_b32", "v_ffbl_b32"), ("v_cls_i32", "v_ffbh_i32"),
    ("_min_num_", "_min_"), ("_max_num_", "_max_"), ("v_add_co_ci_u32", "v_addc_co_u32"),
    ("v_sub_co_ci_u32", "v_subb_co_u32"), ("v_subrev_co_ci_u32", "v_subbrev_co_u32"),
    ("_co_ci_", "_ci_"), ("_nc_", "_"), ("s_wait_", "s_waitcnt_"),
    ("v_mad_co_", "v_mad_"), ("s_wait_alu", "s_waitcnt_depctr"), ("export", "exp"),
    ("exp", "export"), ("_pk_rtz_", "_pkrtz_"), ("_pk_norm_", "_pknorm_"),
    ("ds_param_load", "lds_param_load"), ("ds_direct_load", "lds_direct_load"),
    ("_sub_clamp_u32", "_csub_u32"), ("_sub_clamp_u32", "_csub"), ("_add_uint", "_add"),
    ("_sub_uint", "_sub"), ("_min_int", "_smin"), ("_min_uint", "_umin"), ("_max_int", "_smax"),
    ("_max_uint", "_umax"), ("_inc_uint", "_inc"), ("_dec_uint", "_dec"),
    ("s_set_inst_prefetch_distance", "s_inst_prefetch"),
]

SUFFIXES = ["_e64_dpp", "_e32", "_e64", "_dpp", ""]


def split_mnemonic(mn, ops):
    for suf in SUFFIXES:
        if suf and mn.endswith(suf) and mn[: -len(suf)] in ops:
            return mn[: -len(suf)], suf
    return (mn, "") if mn in ops else (None, None)


def candidates(name):
    """Every combination of the applicable renaming rules, applied in order."""
    out = set()
    applicable = [(c, l) for c, l in RULES if c in name][:10]
    for mask in range(1, 1 << len(applicable)):
        cur = name
        for i, (c, l) in enumerate(applicable):
            if mask >> i & 1 and c in cur:
                cur = cur.replace(c, l)
        out.add(cur)
    out.discard(name)
    return sorted(out)


def corpus(target):
    lines = {}
    with open(os.path.join(ROOT, "tests", "data", "isa", target + ".txt")) as f:
        for line in f:
            if line.startswith("#") or "\t" not in line:
                continue
            hexb, text = line.rstrip("\n").split("\t", 1)
            lines.setdefault(text.split()[0], (hexb, text))
    with open(os.path.join(ROOT, "tests", "data", "isa", target + ".ops")) as f:
        ops = {l.strip() for l in f if l.strip() and not l.startswith("#")}
    return lines, ops


def probe(mc, target, tests):
    """tests: [(candidate_line, expected_hex)] -> set of accepted indices."""
    src = []
    for line, _ in tests:
        src.append(line)
        src.append("s_nop 0x3f")  # marker after every candidate
    res = subprocess.run([mc, "-triple=amdgcn-amd-amdhsa", "-mcpu=" + target, "-show-encoding"],
                         input="\n".join(src) + "\n", capture_output=True, text=True)
    encs, cur = [], None
    for out in res.stdout.splitlines():
        m = re.search(r"encoding: \[([^\]]*)\]", out)
        if not m:
            continue
        hexb = "".join(b.strip()[2:] for b in m.group(1).split(","))
        if hexb == "3f0080bf":  # the marker, s_nop 0x3f
            encs.append(cur)
            cur = None
        else:
            cur = hexb
    ok = set()
    for i, (line, want) in enumerate(tests):
        if i < len(encs) and encs[i] == want:
            ok.add(i)
    return ok


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--llvm-mc", default="/usr/lib/llvm-19/bin/llvm-mc")
    ap.add_argument("--out", default=os.path.join(ROOT, "isa", "asm", "aliases.inc"))
    a = ap.parse_args()
    table = {}
    for target, bit in TARGETS:
        lines, ops = corpus(target)
        tests, meta = [], []
        for mn, (hexb, text) in sorted(lines.items()):
            base, suf = split_mnemonic(mn, ops)
            if base is None:
                continue
            for cand in candidates(base):
                if cand in ops:
                    continue
                tests.append((cand + suf + text[len(mn):], hexb))
                meta.append((cand, base))
        for i in probe(a.llvm_mc, target, tests):
            table[meta[i]] = table.get(meta[i], 0) | bit
    with open(a.out, "w") as f:
        f.write("/* Generated by scripts/gen_asm_aliases.py (llvm-mc-verified legacy mnemonics)"
                " — do not edit. */\n")
        f.write("/* ALIAS(targets: 1 gfx1100, 2 gfx1201, legacy, canonical) */\n")
        for (old, new), mask in sorted(table.items()):
            f.write('ALIAS(%d, "%s", "%s")\n' % (mask, old, new))
    print("%d aliases" % len(table), file=sys.stderr)


if __name__ == "__main__":
    main()
