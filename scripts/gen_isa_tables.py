#!/usr/bin/env python3
"""gen_isa_tables.py — generate rdx's RDNA instruction tables.

Reads AMD's ISA data (isa/data/rdna3.json, rdna4.json; see isa/data/README.md), the target list
(isa/targets/targets.txt) and per-target exclusions (isa/targets/<t>.exclude),
and writes:

  include/rdx/isa_ops.h   the global op enum (union of all families' mnemonics)
  isa/gen/isa_tables.h    internal field ids
  isa/gen/isa_tables.c    targets, layouts, op rows, operand slots, decode maps

Usage: scripts/gen_isa_tables.py [--isa-dir DIR] [--out-dir DIR]
  --out-dir writes the three files under DIR (same relative paths) instead of
  the source tree; the staleness test uses it.  Python 3 standard library only.
"""
import argparse
import json
import os
import re
import sys

FAMILIES = ["rdna3", "rdna4"]
ENCS = ["SOP1", "SOP2", "SOPC", "SOPK", "SOPP", "SMEM", "VOP1", "VOP2", "VOPC", "VOP3",
        "VOP3SD", "VOP3P", "VOPD", "DS", "FLAT", "GLOBAL", "SCRATCH", "MUBUF", "MTBUF", "MIMG",
        "EXP", "VINTERP", "LDSDIR", "VBUFFER", "VFLAT", "VGLOBAL", "VSCRATCH", "VIMAGE",
        "VSAMPLE", "VEXPORT", "VDSDIR"]
FORMS = ["AUTO", "NATIVE", "E32", "E64", "DPP16", "DPP8", "E64_DPP16", "E64_DPP8"]
ROLES = ["VDST", "SDST", "SRC0", "SRC1", "SRC2", "SIMM16", "SDATA", "SBASE", "SOFFSET", "ADDR",
         "DATA0", "DATA1", "SADDR", "VADDR", "VDATA", "SRSRC", "SSAMP", "VCC", "K", "VDSTY",
         "SRCY0", "VSRCY1", "KY", "TARGET", "VSRC0", "VSRC1", "VSRC2", "VSRC3", "ATTR",
         "OFFSET"]
MODS = ["CLAMP", "OMOD", "NEG", "ABS", "NEG_HI", "OP_SEL", "OP_SEL_HI", "DPP_CTRL", "ROW_MASK",
        "BANK_MASK", "BOUND_CTRL", "FI", "DPP8", "OFFSET", "OFFSET0", "OFFSET1", "GLC", "SLC",
        "DLC", "GDS", "NV", "TH", "SCOPE", "IDXEN", "OFFEN", "TFE", "LWE", "FORMAT", "DMASK",
        "DIM", "UNORM", "R128", "A16", "D16", "DONE", "ROW_EN", "WAIT_EXP", "WAIT_VDST",
        "WAIT_VA_VDST", "WAIT_VM_VSRC"]
# JSON field name -> modifier (plain one-to-one fields only).
FIELD_MOD = {"clmp": "CLAMP", "omod": "OMOD", "neg": "NEG", "abs": "ABS", "neg_hi": "NEG_HI",
             "opsel": "OP_SEL", "dpp": "DPP_CTRL", "row_mask": "ROW_MASK",
             "bank_mask": "BANK_MASK", "bc": "BOUND_CTRL", "fi": "FI", "offset": "OFFSET",
             "ioffset": "OFFSET", "offset0": "OFFSET0", "offset1": "OFFSET1", "glc": "GLC",
             "slc": "SLC", "dlc": "DLC", "gds": "GDS", "nv": "NV", "th": "TH", "scope": "SCOPE",
             "idxen": "IDXEN", "offen": "OFFEN", "tfe": "TFE", "lwe": "LWE", "format": "FORMAT",
             "dmask": "DMASK", "dim": "DIM", "unrm": "UNORM", "r128": "R128", "a16": "A16",
             "d16": "D16", "done": "DONE", "row": "ROW_EN", "waitexp": "WAIT_EXP",
             "wait_vdst": "WAIT_VDST", "wait_va_vdst": "WAIT_VA_VDST",
             "wait_vm_vsrc": "WAIT_VM_VSRC"}
# Fields whose value is signed (two's complement in the field).
SIGNED_FIELDS = {("FLAT", "offset"), ("GLOBAL", "offset"), ("SCRATCH", "offset"),
                 ("SMEM", "offset"), ("SMEM", "ioffset"), ("VFLAT", "ioffset"),
                 ("VGLOBAL", "ioffset"), ("VSCRATCH", "ioffset"), ("VBUFFER", "ioffset")}

# Operand kinds (rdx_isa_opnd_kind bit numbers).
K_SGPR, K_VGPR, K_TTMP, K_SPECIAL, K_INT, K_FLOAT, K_LIT, K_IMM, K_BRANCH, K_OFF = \
    [1 << i for i in range(1, 11)]
KS = K_SGPR | K_TTMP | K_SPECIAL
KC = K_INT | K_FLOAT
KSRC = KS | K_VGPR | KC | K_LIT
KSSRC = KS | KC | K_LIT

# How a slot is encoded (enum isa_how in isa/isa_internal.h).
HOWS = ["SRC", "SREG", "VGPR", "SBASE", "SRSRC", "SRSRC9", "IMM", "SIMM", "BRANCH", "IMPLICIT",
        "K", "SMEM_OFF", "VDSTY", "SADDR", "FLAT_VADDR", "BUF_VADDR", "MIMG_VADDR", "EXP_SRC",
        "ATTR", "VIMG_VADDR"]


def fail(msg):
    sys.stderr.write("gen_isa_tables: %s\n" % msg)
    sys.exit(1)


def fmt_of(f):
    if f is None:
        return "ANY"
    if f == "FMT_NUM_M64":
        return "LANEMASK"
    if "PK2_BF16" in f:
        return "PK_F16"
    if "PK2_F16" in f:
        return "PK_F16"
    if "PK2_" in f and "16" in f:
        return "PK_I16"
    if "BF16" in f:
        return "BF16"
    if "F16" in f and "NUM" in f:
        return "F16"
    if "F32" in f and "NUM" in f:
        return "F32"
    if "F64" in f and "NUM" in f:
        return "F64"
    if f.startswith("FMT_NUM"):
        return "B"
    return "ANY"


def base_name(name):
    return re.sub(r"_(e32|e64)$", "", name)


def enum_name(name):
    return "RDX_ISA_OP_" + re.sub(r"[^A-Za-z0-9]", "_", name).upper()


class Slot:
    def __init__(self, role, fld, how, kinds, bits=32, fmt="ANY"):
        self.role, self.fld, self.how, self.kinds, self.bits, self.fmt = \
            role, fld, how, kinds, bits, fmt

    def key(self):
        return (self.role, self.fld, self.how, self.kinds, self.bits, self.fmt)


def jop(ops, *names):
    for n in names:
        if n in ops:
            return ops[n]
    return None


def restrict(kinds, o):
    """Narrow a field's kinds by the JSON operand type where that is reliable."""
    if o is None:
        return kinds
    t = o.get("type")
    if t == "OPR_SRC_VGPR":
        return kinds & K_VGPR
    if t == "OPR_SRC_VGPR_OR_INLINE":
        return kinds & (K_VGPR | KC | K_SPECIAL)
    if t == "OPR_SREG_M0_INL":
        return kinds & (KS | KC)
    if t in ("OPR_SREG_M0", "OPR_SREG", "OPR_SDST", "OPR_EXEC", "OPR_SDST_NULL"):
        return kinds & KS
    if t == "OPR_SSRC_LANESEL":
        return kinds & (KS | KC)
    if t == "OPR_SSRC":
        return kinds & KSSRC
    return kinds


def bits_of(o, default=32):
    if o is None:
        return default
    if o.get("fmt") == "FMT_NUM_M64":
        return 32  # lane mask, wave32
    return int(o.get("bits", default))


def mk(role, fld, how, kinds, o=None, bits=None):
    return Slot(role, fld, how, restrict(kinds, o),
                bits if bits is not None else bits_of(o), fmt_of(o and o.get("fmt")))


def vop_slots(fam, enc, form, name, ops):
    """Operand slots of a VALU op (E32 or E64 rows), in LLVM's printed order."""
    s = []
    b = base_name(name)
    src0 = jop(ops, "src0", "vsrc0")
    if form == "E32":
        if enc == "VOPC":
            if not b.startswith("v_cmpx_"):
                s.append(Slot("VCC", "", "IMPLICIT", K_SPECIAL, 32, "LANEMASK"))
            s.append(mk("SRC0", "src0", "SRC", KSRC, src0))
            s.append(mk("SRC1", "vsrc1", "VGPR", K_VGPR, jop(ops, "vsrc1", "src1")))
            return s
        if enc == "VOP1":
            if "vdst" in ops:
                o = ops["vdst"]
                if o.get("type") in ("OPR_SREG", "OPR_SDST"):
                    s.append(mk("VDST", "vdst", "SREG", KS, o))
                else:
                    s.append(mk("VDST", "vdst", "VGPR", K_VGPR, o))
            if src0 is not None:
                s.append(mk("SRC0", "src0", "SRC", KSRC, src0))
            return s
        # VOP2
        s.append(mk("VDST", "vdst", "VGPR", K_VGPR, ops.get("vdst")))
        carry = b in ("v_add_co_ci_u32", "v_sub_co_ci_u32", "v_subrev_co_ci_u32")
        if carry:
            s.append(Slot("VCC", "", "IMPLICIT", K_SPECIAL, 32, "LANEMASK"))
        s.append(mk("SRC0", "src0", "SRC", KSRC, src0))
        s1 = mk("SRC1", "vsrc1", "VGPR", K_VGPR, jop(ops, "vsrc1", "src1"))
        if re.match(r"v_fmamk_", b):
            s.append(Slot("K", "", "K", K_LIT, 32, fmt_of(src0 and src0.get("fmt"))))
            s.append(s1)
        elif re.match(r"v_fmaak_", b):
            s.append(s1)
            s.append(Slot("K", "", "K", K_LIT, 32, fmt_of(src0 and src0.get("fmt"))))
        else:
            s.append(s1)
        if carry or b == "v_cndmask_b32":
            s.append(Slot("VCC", "", "IMPLICIT", K_SPECIAL, 32, "LANEMASK"))
        return s
    # E64: VOP3 / VOP3SD / VOP3P
    if b.startswith("v_cmpx_"):
        pass  # vdst field holds exec_lo, not printed
    elif b.startswith("v_cmp_") or b.startswith("v_cmp_class") or \
            (enc == "VOP3" and "sdst" in ops and "vdst" not in ops):
        s.append(mk("SDST", "vdst", "SREG", KS, ops.get("sdst"), bits_of(ops.get("sdst"), 32)))
    elif enc == "VOP3" and ops.get("vdst", {}).get("type") in ("OPR_SREG", "OPR_SDST"):
        s.append(mk("SDST", "vdst", "SREG", KS, ops.get("vdst")))
    elif "vdst" in ops:
        s.append(mk("VDST", "vdst", "VGPR", K_VGPR, ops["vdst"]))
    if enc == "VOP3SD":
        s.append(mk("SDST", "sdst", "SREG", KS, ops.get("sdst"), bits_of(ops.get("sdst"), 32)))
    kinds = KSRC
    if enc == "VINTERP":
        kinds = K_VGPR
    if src0 is not None:
        s.append(mk("SRC0", "src0", "SRC", kinds, src0))
    for r in ("src1", "src2"):
        o = ops.get(r)
        if o is not None:
            s.append(mk(r.upper(), r, "SRC", kinds, o))
    return s


def slots_for(fam, enc, name, ops, layout):
    """Operand slots for non-VALU classes, in LLVM's printed order."""
    s = []
    fields = layout
    if enc in ("SOP1", "SOP2", "SOPC"):
        if "sdst" in ops:
            s.append(mk("SDST", "sdst", "SREG", KS, ops["sdst"]))
        for r in ("ssrc0", "ssrc1"):
            if r in ops:
                role = "SRC0" if r == "ssrc0" else "SRC1"
                if ops[r].get("type") in ("OPR_SENDMSG_RTN",):
                    s.append(Slot(role, r, "IMM", K_IMM, 8, "ANY"))
                else:
                    s.append(Slot(role, r, "SRC", KSSRC, bits_of(ops[r]),
                                  fmt_of(ops[r].get("fmt"))))
        if re.match(r"s_fmamk_", name):  # sdst, src0, K, src1
            s.insert(2, Slot("K", "", "K", K_LIT, 32, "F32"))
        elif re.match(r"s_fmaak_", name):  # sdst, src0, src1, K
            s.append(Slot("K", "", "K", K_LIT, 32, "F32"))
        return s
    if enc == "SOPK":
        o = ops.get("simm16")
        if name == "s_setreg_imm32_b32":
            s.append(Slot("SIMM16", "simm16", "IMM", K_IMM, 16, "ANY"))
            s.append(Slot("K", "", "K", K_LIT, 32, "B"))
            return s
        imm = None
        if o is not None:
            t = o.get("type")
            if t == "OPR_LABEL":
                imm = Slot("SIMM16", "simm16", "BRANCH", K_BRANCH, 16, "ANY")
            elif re.match(r"s_(cmpk_.*_i32|movk_i32|cmovk_i32|mulk_i32|addk_i32)$", name):
                imm = Slot("SIMM16", "simm16", "SIMM", K_IMM, 16, "ANY")
            else:
                imm = Slot("SIMM16", "simm16", "IMM", K_IMM, 16, "ANY")
        sd = mk("SDST", "sdst", "SREG", KS, ops["sdst"]) if "sdst" in ops else None
        if name.startswith("s_setreg"):
            s += [x for x in (imm, sd) if x]
        else:
            s += [x for x in (sd, imm) if x]
        return s
    if enc == "SOPP":
        o = ops.get("simm16")
        if o is not None:
            if o.get("type") == "OPR_LABEL":
                s.append(Slot("SIMM16", "simm16", "BRANCH", K_BRANCH, 16, "ANY"))
            else:
                s.append(Slot("SIMM16", "simm16", "IMM", K_IMM, 16, "ANY"))
        return s
    if enc == "SMEM" and re.match(r"s_(buffer_)?prefetch_", name):
        # LLVM: [sbase,] offset, soffset, count
        if "sbase" in ops:
            s.append(mk("SBASE", "sbase", "SBASE", K_SGPR | K_TTMP, ops["sbase"]))
        s.append(Slot("OFFSET", "ioffset", "SIMM", K_IMM, 24, "ANY"))
        s.append(Slot("SOFFSET", "soffset", "SREG", KS, 32, "ANY"))
        s.append(Slot("SDATA", "sdata", "IMM", K_IMM, 5, "ANY"))
        return s
    if enc == "SMEM":
        if "sdata" in ops:
            o = ops["sdata"]
            if o.get("type") == "OPR_SIMM8":
                s.append(Slot("SDATA", "sdata", "IMM", K_IMM, 8, "ANY"))
            else:
                s.append(mk("SDATA", "sdata", "SREG", KS, o))
        if "sbase" in ops:
            o = ops["sbase"]
            s.append(mk("SBASE", "sbase", "SBASE", K_SGPR | K_TTMP, o))
        if "soffset" in ops:
            s.append(Slot("SOFFSET", "soffset", "SMEM_OFF", KS | K_IMM, 32, "ANY"))
        return s
    if enc == "DS":
        for r, role in (("vdst", "VDST"), ("addr", "ADDR"), ("data0", "DATA0"),
                        ("data1", "DATA1")):
            if r in ops:
                s.append(mk(role, r, "VGPR", K_VGPR, ops[r]))
        return s
    if enc in ("FLAT", "GLOBAL", "SCRATCH", "VFLAT", "VGLOBAL", "VSCRATCH"):
        v4 = enc.startswith("V")
        if not ops:
            return s  # global_inv, global_wb, ...
        if "vdst" in ops:
            s.append(mk("VDST", "vdst", "VGPR", K_VGPR, ops["vdst"]))
        a = jop(ops, "addr", "vaddr")
        if a is not None:
            how = "FLAT_VADDR" if enc in ("SCRATCH", "VSCRATCH") else "VGPR"
            k = K_VGPR | (K_OFF if how == "FLAT_VADDR" else 0)
            s.append(mk("ADDR", "vaddr" if v4 else "addr", how, k, None, bits_of(a)))
        d = jop(ops, "data", "vsrc", "vdata")
        if d is not None:
            s.append(mk("DATA0", "vsrc" if v4 else "data", "VGPR", K_VGPR, d))
        if enc not in ("FLAT", "VFLAT") or "saddr" in ops:
            if enc not in ("FLAT", "VFLAT"):
                s.append(Slot("SADDR", "saddr", "SADDR", KS | K_OFF,
                              64 if enc in ("GLOBAL", "VGLOBAL") else 32, "ANY"))
        return s
    if enc in ("MUBUF", "MTBUF", "VBUFFER"):
        if not ops:
            return s  # buffer_gl0_inv, buffer_gl1_inv, buffer_inv...
        if "vdata" in ops:
            s.append(mk("VDATA", "vdata", "VGPR", K_VGPR, ops["vdata"]))
        s.append(Slot("VADDR", "vaddr", "BUF_VADDR", K_VGPR | K_OFF, 32, "ANY"))
        if enc == "VBUFFER":
            s.append(Slot("SRSRC", "rsrc", "SRSRC9", K_SGPR | K_TTMP, 128, "ANY"))
            s.append(mk("SOFFSET", "soffset", "SREG", KS, ops.get("soffset")))
        else:
            s.append(Slot("SRSRC", "srsrc", "SRSRC", K_SGPR | K_TTMP, 128, "ANY"))
            s.append(mk("SOFFSET", "soffset", "SRC", KS | KC, ops.get("soffset")))
        return s
    if enc == "MIMG":
        if "vdata" in ops:
            s.append(mk("VDATA", "vdata", "VGPR", K_VGPR, ops["vdata"]))
        s.append(Slot("VADDR", "vaddr", "MIMG_VADDR", K_VGPR, bits_of(ops.get("vaddr")), "ANY"))
        s.append(Slot("SRSRC", "srsrc", "SRSRC", K_SGPR | K_TTMP,
                      bits_of(ops.get("srsrc"), 256), "ANY"))
        if "ssamp" in ops:
            s.append(Slot("SSAMP", "ssamp", "SRSRC", K_SGPR | K_TTMP, 128, "ANY"))
        return s
    if enc in ("VIMAGE", "VSAMPLE"):
        if "vdata" in ops:
            s.append(mk("VDATA", "vdata", "VGPR", K_VGPR, ops["vdata"]))
        s.append(Slot("VADDR", "vaddr0", "VIMG_VADDR", K_VGPR, 32, "ANY"))
        s.append(Slot("SRSRC", "rsrc", "SRSRC9", K_SGPR | K_TTMP,
                      bits_of(ops.get("rsrc"), 256), "ANY"))
        if "samp" in ops:
            s.append(Slot("SSAMP", "samp", "SRSRC9", K_SGPR | K_TTMP, 128, "ANY"))
        return s
    if enc in ("EXP", "VEXPORT"):
        s.append(Slot("TARGET", "target", "IMM", K_IMM, 6, "ANY"))
        for i in range(4):
            s.append(Slot("VSRC%d" % i, "vsrc%d" % i, "EXP_SRC", K_VGPR | K_OFF, 32, "ANY"))
        return s
    if enc in ("LDSDIR", "VDSDIR"):
        s.append(mk("VDST", "vdst", "VGPR", K_VGPR, ops.get("vdst")))
        if "attr" in ops:
            s.append(Slot("ATTR", "attr", "ATTR", K_IMM, 8, "ANY"))
        return s
    if enc == "VOPD":
        x = [mk("VDST", "vdstx", "VGPR", K_VGPR, ops.get("vdsty"))]
        x.append(mk("SRC0", "srcx0", "SRC", KSRC, ops.get("srcy0")))
        y = [mk("VDSTY", "vdsty", "VDSTY", K_VGPR, ops.get("vdsty"))]
        y.append(mk("SRCY0", "srcy0", "SRC", KSRC, ops.get("srcy0")))
        if "vsrcy1" in ops:
            x1 = mk("SRC1", "vsrcx1", "VGPR", K_VGPR, ops["vsrcy1"])
            y1 = mk("VSRCY1", "vsrcy1", "VGPR", K_VGPR, ops["vsrcy1"])
            if name == "v_dual_fmamk_f32":
                x += [Slot("K", "", "K", K_LIT, 32, "F32"), x1]
                y += [Slot("KY", "", "K", K_LIT, 32, "F32"), y1]
            elif name == "v_dual_fmaak_f32":
                x += [x1, Slot("K", "", "K", K_LIT, 32, "F32")]
                y += [y1, Slot("KY", "", "K", K_LIT, 32, "F32")]
            else:
                x.append(x1)
                y.append(y1)
        return x + y  # the X half is x[0:len(x)]; VOPD rows record that count
    fail("no operand rule for encoding %s (%s)" % (enc, name))


# Operands LLVM prints for entries the JSON lists without any.
SUPPLEMENT = {
    "s_endpgm": {"simm16": {"fmt": "FMT_NUM_B16", "bits": 16, "type": "OPR_SIMM16"}},
    "s_subvector_loop_begin": {"sdst": {"fmt": "FMT_NUM_B32", "bits": 32, "type": "OPR_SDST"},
                               "simm16": {"fmt": "FMT_NUM_B16", "bits": 16,
                                          "type": "OPR_SIMM16"}},
    "s_barrier_init": {"ssrc0": {"fmt": "FMT_NUM_B32", "bits": 32, "type": "OPR_SSRC"}},
    "s_barrier_join": {"ssrc0": {"fmt": "FMT_NUM_B32", "bits": 32, "type": "OPR_SSRC"}},
    "s_get_barrier_state": {"sdst": {"fmt": "FMT_NUM_B32", "bits": 32, "type": "OPR_SDST"},
                            "ssrc0": {"fmt": "FMT_NUM_B32", "bits": 32, "type": "OPR_SSRC"}},
    "s_waitcnt": {"simm16": {"fmt": "FMT_NUM_B16", "bits": 16, "type": "OPR_WAITCNT"}},
    "s_subvector_loop_end": {"sdst": {"fmt": "FMT_NUM_B32", "bits": 32, "type": "OPR_SDST"},
                             "simm16": {"fmt": "FMT_NUM_B16", "bits": 16, "type": "OPR_SIMM16"}},
}


def add_missing_vopc_e64(data):
    """The JSON omits the VOP3 (e64) forms of the VOPC v_cmp_* compares; LLVM
    has them at VOP3 opcode = VOPC opcode.  Add them (sdst, src0, src1)."""
    have = {i["name"] for i in data["instructions"]}
    extra = []
    for i in data["instructions"]:
        if i["encoding"] != "VOPC" or not i["name"].startswith("v_cmp_"):
            continue
        n = base_name(i["name"]) + "_e64"
        if n in have:
            continue
        ops = dict(i.get("operands", {}))
        o = {"sdst": {"fmt": "FMT_NUM_M64", "bits": 64, "type": "OPR_SREG"}}
        if "src0" in ops:
            o["src0"] = ops["src0"]
        if "vsrc1" in ops or "src1" in ops:
            s1 = dict(ops.get("vsrc1") or ops.get("src1"))
            s1["type"] = "OPR_SRC"
            o["src1"] = s1
        extra.append({"name": n, "encoding": "VOP3", "opcode": i["opcode"], "operands": o})
    data["instructions"] = data["instructions"] + extra
    return data


def load_family(isa_dir, fam, targets_dir=None):
    """The family's JSON plus isa/targets/<fam>.extra.json (instructions llvm-mc
    has that the JSON lacks) plus the VOPC e64 compares."""
    with open(os.path.join(isa_dir, fam + ".json")) as f:
        data = json.load(f)
    if targets_dir is None:
        targets_dir = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                   "isa", "targets")
    xp = os.path.join(targets_dir, fam + ".extra.json")
    if os.path.exists(xp):
        with open(xp) as f:
            data["instructions"] = data["instructions"] + json.load(f)["instructions"]
    return add_missing_vopc_e64(data)


def field_map(e):
    return {f["name"]: f for f in e["fields"]}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--isa-dir", default=os.path.join(root, "isa", "data"))
    ap.add_argument("--out-dir", default=root)
    ap.add_argument("--targets-dir", default=os.path.join(root, "isa", "targets"))
    args = ap.parse_args()

    data = {fam: load_family(args.isa_dir, fam, args.targets_dir) for fam in FAMILIES}

    # ---- targets
    targets = []
    with open(os.path.join(args.targets_dir, "targets.txt")) as f:
        for ln, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            parts = line.split()
            if len(parts) != 4 or parts[1] not in FAMILIES:
                fail("targets.txt:%d: expected 'name family elf_mach features'" % ln)
            feats = parts[3].split(",")
            for ft in feats:
                if ft not in ("wave32", "wave64", "scalar_float", "dpp_src1_sgpr"):
                    fail("targets.txt:%d: unknown feature '%s'" % (ln, ft))
            excl = set()
            ep = os.path.join(args.targets_dir, parts[0] + ".exclude")
            if os.path.exists(ep):
                with open(ep) as g:
                    for l2 in g:
                        l2 = l2.split("#", 1)[0].strip()
                        if l2:
                            excl.add(l2.split()[0])
            dpp = set()
            dp = os.path.join(args.targets_dir, parts[0] + ".dpp")
            if os.path.exists(dp):
                with open(dp) as g:
                    for l2 in g:
                        l2 = l2.split("#", 1)[0].split()
                        if len(l2) == 2 and l2[1] in ("e32", "e64"):
                            dpp.add((l2[0], l2[1]))
            targets.append((parts[0], parts[1], int(parts[2], 0), feats, excl, dpp))

    # ---- fields: union of field names
    fld_names = set()
    for fam in FAMILIES:
        for e in data[fam]["encodings"].values():
            for f in e["fields"]:
                if (f["kind"] != "fixed" or f["name"] == "seg") and \
                        f["name"] not in ("literal", "op"):
                    fld_names.add(f["name"])
    fld_names = sorted(fld_names)
    fld_id = {n: i + 1 for i, n in enumerate(fld_names)}  # 0 = none

    # ---- ops and rows
    rows = {fam: [] for fam in FAMILIES}
    all_names = set()
    for fam in FAMILIES:
        seen = set()
        for ins in data[fam]["instructions"]:
            enc = ins["encoding"]
            name = ins["name"]
            b = base_name(name)
            if enc in ("VOP1", "VOP2", "VOPC"):
                form = "E32"
            elif enc in ("VOP3", "VOP3SD", "VOP3P", "VINTERP"):
                form = "E64" if enc != "VINTERP" else "NATIVE"
            else:
                form = "NATIVE"
            if enc == "FLAT" and b.startswith("global_"):
                continue  # listed under GLOBAL too
            if enc == "VFLAT" and b.startswith("global_"):
                continue
            if (b, form) in seen:
                fail("%s: duplicate %s %s" % (fam, b, form))
            seen.add((b, form))
            all_names.add(b)
            rows[fam].append(dict(name=b, enc=enc, form=form, opcode=ins["opcode"],
                                  ops=ins.get("operands") or SUPPLEMENT.get(b, {})))
    ops = sorted(all_names)
    op_index = {n: i + 1 for i, n in enumerate(ops)}

    # promoted VOP3 rows of VOP1/2/C ops: JSON lists them as VOP3 entries named _e64.
    # VOP3 rows for VOPC v_cmp* have enc VOP3 — mark their origin for operand rules.
    native_enc = {}
    for fam in FAMILIES:
        for r in rows[fam]:
            if r["form"] == "E32":
                native_enc[(fam, r["name"])] = r["enc"]

    slot_list = []
    slot_index = {}

    def intern_slots(sl):
        key = tuple(x.key() for x in sl)
        if key not in slot_index:
            slot_index[key] = len(slot_list)
            slot_list.extend(sl)
        return slot_index[key]

    out_rows = {fam: [] for fam in FAMILIES}
    for fam in FAMILIES:
        encs = data[fam]["encodings"]
        for r in rows[fam]:
            enc = r["enc"]
            if r["form"] in ("E32", "E64") :
                sl = vop_slots(fam, enc, r["form"], r["name"], r["ops"])
            elif enc == "VINTERP":
                sl = vop_slots(fam, enc, "E64", r["name"], r["ops"])
            else:
                sl = slots_for(fam, enc, r["name"], r["ops"], field_map(encs[enc]))
            nx = 0
            if enc == "VOPD":
                nx = len(sl) // 2
            for x in sl:
                if x.fld and x.fld not in fld_id:
                    fail("%s %s: unknown field %s" % (fam, r["name"], x.fld))
            flags = []
            if r["name"].startswith("v_cmpx_") and r["form"] == "E64":
                flags.append("ROW_CMPX")
            if r["form"] == "E64" and (fam, r["name"]) in native_enc:
                flags.append("ROW_PROMOTED")
            if any(x.role == "OFFSET" for x in sl):
                flags.append("ROW_OFFSET_OPND")
            if enc == "VBUFFER" and r["name"].startswith("buffer_"):
                flags.append("ROW_FMT1")
            if enc == "SOPP" and r["name"] == "s_endpgm":
                flags.append("ROW_OPTIMM")
            if enc == "DS" and "2addr" in r["name"]:
                flags.append("ROW_DS2")
            if enc in ("MIMG", "VIMAGE", "VSAMPLE") and "bvh" in r["name"]:
                flags.append("ROW_BVH")
            if enc in ("FLAT", "GLOBAL", "SCRATCH", "VFLAT", "VGLOBAL", "VSCRATCH") and \
                    "_atomic_" in r["name"] and sl and sl[0].role == "VDST":
                flags.append("ROW_ATOMIC")
                if "cmpswap" in r["name"]:
                    # returns the old value: half the (data, compare) pair
                    d = [x for x in sl if x.role == "DATA0"]
                    if d:
                        sl[0].bits = d[0].bits // 2
                        sl = list(sl)
            out_rows[fam].append(dict(r, first=intern_slots(sl), nopnd=len(sl), nx=nx,
                                      flags=flags))

    # ---- layouts
    def layout_of(e):
        fm = field_map(e)
        fixed_mask = fixed_val = 0
        flds = {}
        opf = None
        for f in e["fields"]:
            w = f["hi"] - f["lo"] + 1
            if f["kind"] == "fixed":
                fixed_mask |= ((1 << w) - 1) << f["lo"]
                fixed_val |= f["value"] << f["lo"]
                if f["name"] == "seg":
                    flds["seg"] = (f["lo"], w, "fixed")
            elif f["kind"] == "op":
                if f["name"] == "op":
                    opf = (f["lo"], w)
                else:
                    flds[f["name"]] = (f["lo"], w, f["kind"])
            elif f["name"] != "literal":
                flds[f["name"]] = (f["lo"], w, f["kind"])
        return dict(bits=e["bits"], mask=fixed_mask, val=fixed_val, flds=flds, op=opf, fm=fm)

    layouts = {}
    dpp = {}
    for fam in FAMILIES:
        encs = data[fam]["encodings"]
        for enc in ENCS:
            if enc in encs:
                layouts[(fam, enc)] = layout_of(encs[enc])
        # DPP dword layout, relative to the dword after the base encoding
        for kind in ("DPP16", "DPP8"):
            e = encs["VOP1_" + kind]
            lay = layout_of(e)
            dpp[(fam, kind)] = {n: (lo - 32, w) for n, (lo, w, k) in lay["flds"].items()
                                if lo >= 32}

    # ---- decode maps
    def first_dword_classes(fam):
        # index = w >> 23 (9 bits) -> enc with the longest fixed field in bits 31..23
        table = []
        for idx in range(512):
            w = idx << 23
            best, bestw = None, -1
            for enc in ENCS:
                lay = layouts.get((fam, enc))
                if lay is None:
                    continue
                m = lay["mask"] & 0xFF800000
                if m == 0:
                    continue
                if (w & m) == (lay["val"] & m):
                    width = bin(m).count("1")
                    if enc in ("VOP3SD", "GLOBAL", "SCRATCH"):
                        continue  # decoded through VOP3 / FLAT
                    if width > bestw:
                        best, bestw = enc, width
                    elif width == bestw:
                        fail("%s: encodings %s and %s collide" % (fam, best, enc))
            table.append(best)
        return table

    dec = {}
    for fam in FAMILIES:
        dec[(fam, "class")] = first_dword_classes(fam)
        maps = {}
        for i, r in enumerate(out_rows[fam]):
            enc = r["enc"]
            key_enc = {"VOP3SD": "VOP3", "GLOBAL": "FLAT", "SCRATCH": "FLAT"}.get(enc, enc)
            lay = layouts[(fam, key_enc)]
            opw = lay["op"][1] if lay["op"] else 5  # VOPD: opy width
            if key_enc == "VOPD":
                opw = layouts[(fam, "VOPD")]["flds"]["opy"][1]
            size = 1 << opw
            code = r["opcode"]
            if key_enc == "FLAT":
                seg = {"FLAT": 0, "GLOBAL": 2, "SCRATCH": 1}[enc]
                size = 4 << opw
                code = seg << opw | r["opcode"]
            m = maps.setdefault(key_enc, [-1] * size)
            if code >= size:
                fail("%s %s: opcode %d too wide" % (fam, r["name"], code))
            if m[code] != -1:
                fail("%s: %s and %s share opcode %d in %s" %
                     (fam, out_rows[fam][m[code]]["name"], r["name"], code, key_enc))
            m[code] = i
        dec[(fam, "maps")] = maps

    # ---- emit
    def w(path, text):
        p = os.path.join(args.out_dir, path)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w") as f:
            f.write(text)

    hdr = "/* Generated by scripts/gen_isa_tables.py from isa/data — do not edit. */\n"
    o = [hdr, "/* rdx/isa_ops.h — the global op enum (included by rdx/isa.h). */\n",
         "#ifndef RDX_ISA_OPS_H\n#define RDX_ISA_OPS_H\n\n/* clang-format off */\n",
         "typedef enum rdx_isa_op {\n    RDX_ISA_OP_NONE = 0,\n"]
    for n in ops:
        o.append("    %s,\n" % enum_name(n))
    o.append("    RDX_ISA_OP_COUNT\n} rdx_isa_op;\n/* clang-format on */\n\n#endif\n")
    w("include/rdx/isa_ops.h", "".join(o))

    h = [hdr, "/* isa/gen/isa_tables.h — generated field ids (internal). */\n",
         "#ifndef RDX_ISA_GEN_TABLES_H\n#define RDX_ISA_GEN_TABLES_H\n\n/* clang-format off */\n",
         "enum isa_fld {\n    FLD_NONE = 0,\n"]
    for n in fld_names:
        h.append("    FLD_%s,\n" % n.upper())
    h.append("    FLD_COUNT\n};\n\n#define ISA_NTARGETS %d\n#define ISA_NFAMILIES %d\n"
             "/* clang-format on */\n\n#endif\n" % (len(targets), len(FAMILIES)))
    w("isa/gen/isa_tables.h", "".join(h))

    c = [hdr, "/* isa/gen/isa_tables.c — generated instruction tables (internal). */\n",
         '#include "isa/isa_internal.h"\n\n/* clang-format off */\n']
    # op names
    c.append("const char *const isa_op_names[RDX_ISA_OP_COUNT] = {\n    NULL,\n")
    for n in ops:
        c.append('    "%s",\n' % n)
    c.append("};\n\n")
    # slots
    c.append("const rdx_isa_opnd_info isa_slot_info[%d] = {\n" % max(1, len(slot_list)))
    for x in slot_list:
        kinds = []
        for kn, kv in (("SGPR", K_SGPR), ("VGPR", K_VGPR), ("TTMP", K_TTMP),
                       ("SPECIAL", K_SPECIAL), ("INT", K_INT), ("FLOAT", K_FLOAT),
                       ("LITERAL", K_LIT), ("IMM", K_IMM), ("BRANCH", K_BRANCH), ("OFF", K_OFF)):
            if x.kinds & kv:
                kinds.append("KB(%s)" % kn)
        c.append("    { RDX_ISA_ROLE_%s, RDX_ISA_FMT_%s, %d, %s },\n" %
                 (x.role, x.fmt, x.bits, "|".join(kinds) or "0"))
    c.append("};\n\n")
    c.append("const isa_slot isa_slot_enc[%d] = {\n" % max(1, len(slot_list)))
    for x in slot_list:
        c.append("    { %s, HOW_%s },\n" % ("FLD_" + x.fld.upper() if x.fld else "FLD_NONE",
                                           x.how))
    c.append("};\n\n")
    # rows and op maps per family
    for fi, fam in enumerate(FAMILIES):
        c.append("static const isa_row rows_%s[%d] = {\n" % (fam, len(out_rows[fam])))
        for r in out_rows[fam]:
            c.append("    { %s, RDX_ISA_ENC_%s, RDX_ISA_FORM_%s, %d, %d, %d, %d, %s },\n" %
                     (enum_name(r["name"]), r["enc"], r["form"], r["opcode"], r["nopnd"],
                      r["nx"], r["first"], "|".join(r["flags"]) or "0"))
        c.append("};\n\n")
        c.append("static const rdx_isa_form_info forms_%s[%d] = {\n" % (fam, len(out_rows[fam])))
        for r in out_rows[fam]:
            c.append("    { RDX_ISA_ENC_%s, %d, %d, &isa_slot_info[%d] },\n" %
                     (r["enc"], r["opcode"], r["nopnd"], r["first"]))
        c.append("};\n\n")
        # op -> rows (NATIVE/E32, E64)
        c.append("static const int16_t oprows_%s[RDX_ISA_OP_COUNT][2] = {\n" % fam)
        idx = {}
        for i, r in enumerate(out_rows[fam]):
            slot = 1 if r["form"] == "E64" else 0
            idx.setdefault(r["name"], [-1, -1])[slot] = i
        c.append("    { -1, -1 },\n")
        for n in ops:
            a = idx.get(n, [-1, -1])
            c.append("    { %d, %d },\n" % (a[0], a[1]))
        c.append("};\n\n")
        # layouts
        c.append("static const isa_layout layouts_%s[RDX_ISA_ENC_COUNT] = {\n" % fam)
        for enc in ENCS:
            lay = layouts.get((fam, enc))
            if lay is None:
                continue
            fl = ", ".join("[FLD_%s] = { %d, %d, %d }" %
                           (n.upper(), lo, wd, 1 if (enc, n) in SIGNED_FIELDS else 0)
                           for n, (lo, wd, k) in sorted(lay["flds"].items()))
            mods = ", ".join("[RDX_ISA_MOD_%s] = FLD_%s" % (FIELD_MOD[n], n.upper())
                             for n in sorted(lay["flds"]) if n in FIELD_MOD)
            opf = lay["op"] or (0, 0)
            modmask = 0
            for n in lay["flds"]:
                if n in FIELD_MOD:
                    modmask |= 1 << MODS.index(FIELD_MOD[n])
            c.append("    [RDX_ISA_ENC_%s] = { %d, 0x%08xu, 0x%08xu, { %d, %d, 0 },\n"
                     "        { %s },\n        { %s },\n        0x%016xull },\n" %
                     (enc, lay["bits"], lay["mask"] & 0xffffffff, lay["val"] & 0xffffffff,
                      opf[0], opf[1], fl, mods, modmask))
        c.append("};\n\n")
        for kind in ("DPP16", "DPP8"):
            d = dpp[(fam, kind)]
            c.append("static const isa_field %s_%s[FLD_COUNT] = { %s };\n" %
                     (kind.lower(), fam, ", ".join("[FLD_%s] = { %d, %d, 0 }" %
                                                   (n.upper(), lo, wd)
                                                   for n, (lo, wd) in sorted(d.items()))))
        c.append("\n")
        # decode maps
        cls = dec[(fam, "class")]
        c.append("static const uint8_t dclass_%s[512] = {\n" % fam)
        for i in range(0, 512, 8):
            c.append("    " + " ".join("%s," % ("RDX_ISA_ENC_" + x if x else "ISA_ENC_NONE")
                                       for x in cls[i:i + 8]) + "\n")
        c.append("};\n\n")
        maps = dec[(fam, "maps")]
        for enc, m in sorted(maps.items()):
            c.append("static const int16_t dmap_%s_%s[%d] = {\n" % (fam, enc, len(m)))
            for i in range(0, len(m), 16):
                c.append("    " + " ".join("%d," % x for x in m[i:i + 16]) + "\n")
            c.append("};\n")
        c.append("\nstatic const isa_dmap dmaps_%s[RDX_ISA_ENC_COUNT] = {\n" % fam)
        for enc, m in sorted(maps.items()):
            c.append("    [RDX_ISA_ENC_%s] = { dmap_%s_%s, %d },\n" % (enc, fam, enc, len(m)))
        c.append("};\n\n")
    c.append("const isa_family isa_families[ISA_NFAMILIES] = {\n")
    for fam in FAMILIES:
        c.append("    { \"%s\", rows_%s, %d, oprows_%s, layouts_%s, dpp16_%s, dpp8_%s, "
                 "dclass_%s, dmaps_%s },\n" % (fam, fam, len(out_rows[fam]), fam, fam, fam,
                                              fam, fam, fam))
    c.append("};\n\n")
    c.append("const rdx_isa_form_info *const isa_form_infos[ISA_NFAMILIES] = {\n")
    for fam in FAMILIES:
        c.append("    forms_%s,\n" % fam)
    c.append("};\n\n")
    # targets and availability
    nwords = (len(ops) + 1 + 31) // 32
    for t in targets:
        name, fam, mach, feats, excl, dpp = t
        for form in ("e32", "e64"):
            bits = [0] * nwords
            for op, k in dpp:
                if k == form and op in op_index:
                    i = op_index[op]
                    bits[i // 32] |= 1 << (i % 32)
            c.append("static const uint32_t dpp_%s_%s[%d] = {\n" % (form, name, nwords))
            for i in range(0, nwords, 6):
                c.append("    " + " ".join("0x%08xu," % x for x in bits[i:i + 6]) + "\n")
            c.append("};\n")
        have = {r["name"] for r in out_rows[fam]}
        for e in excl:
            if e not in have:
                fail("%s.exclude: '%s' is not a %s op" % (name, e, fam))
        bits = [0] * nwords
        for n in have - excl:
            i = op_index[n]
            bits[i // 32] |= 1 << (i % 32)
        c.append("static const uint32_t avail_%s[%d] = {\n" % (name, nwords))
        for i in range(0, nwords, 6):
            c.append("    " + " ".join("0x%08xu," % x for x in bits[i:i + 6]) + "\n")
        c.append("};\n")
    c.append("\nconst rdx_isa_target isa_targets[ISA_NTARGETS] = {\n")
    for i, t in enumerate(targets):
        name, fam, mach, feats, excl, dpp = t
        fl = "|".join("RDX_ISA_FEATURE_" + f.upper() for f in feats) or "0"
        c.append("    { \"%s\", RDX_ISA_FAMILY_%s, 0x%x, %s, %d },\n" %
                 (name, fam.upper(), mach, fl, i))
    c.append("};\n\nconst uint32_t *const isa_target_avail[ISA_NTARGETS] = {\n")
    for t in targets:
        c.append("    avail_%s,\n" % t[0])
    c.append("};\n\nconst uint32_t *const isa_target_dpp[ISA_NTARGETS][2] = {\n")
    for t in targets:
        c.append("    { dpp_e32_%s, dpp_e64_%s },\n" % (t[0], t[0]))
    c.append("};\n/* clang-format on */\n")
    w("isa/gen/isa_tables.c", "".join(c))


if __name__ == "__main__":
    main()
