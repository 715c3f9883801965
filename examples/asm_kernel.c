/*
 * examples/asm_kernel.c — a tensor program that calls one kernel written by hand in
 * gfx1100 machine instructions.  The kernel is a PROGRAM of INS nodes (written here in the
 * UOp text form: each INS one instruction as llvm-mc spells it), called with
 * rdx_tensor_call_program between kernels the code generator makes:
 *
 *   h    = relu(x) * 0.5                 (generated kernel)
 *   y    = axpb(h)   y[i] = 2 h[i] + 1   (the hand-written kernel, in place into y)
 *   loss = sum(y * y)                    (generated kernel)
 *
 * The whole schedule is realized on the default device (a real AMD GPU, else the emulated
 * gfx1100).  The interpreter cannot run machine code, so the results are checked against
 * the interpreter's run of the equivalent tensor program (2 h + 1 written with tensor ops).
 * Built by `make examples`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdx/rdx.h>

enum { N = 1000 };

/* The kernel: 8 workgroups of 128 work-items over 1024 slots, i < 1000 guarded.  The ABI
   (rdx_codegen_program_kernel): s[0:1] the kernarg pointer (buffer k at byte 8k), s15 the
   workgroup id x, v0 the work-item id. */
static const char *const axpb_text =
    "%c8 = CONST dtype=index value=8\n"
    "%c128 = CONST dtype=index value=128\n"
    "%cn = CONST dtype=index value=1000\n"
    "%sh = STACK %cn\n"
    "%x = PARAM %sh slot=0 dtype=float32 addr=global\n"
    "%y = PARAM %sh slot=1 dtype=float32 addr=global\n"
    "%g = SPECIAL %c8 str=\"gidx0\"\n"
    "%l = SPECIAL %c128 str=\"lidx0\"\n"
    "%sig = SINK %x, %y, %g, %l\n"
    "%i0 = INS asm=\"s_load_b128 s[4:7], s[0:1], null\"\n" /* both buffer pointers */
    "%i1 = INS asm=\"v_and_b32_e32 v0, 0x3ff, v0\"\n"
    "%i2 = INS asm=\"s_lshl_b32 s8, s15, 7\"\n"              /* group * 128 */
    "%i3 = INS asm=\"v_add_nc_u32_e32 v1, s8, v0\"\n"        /* i */
    "%i4 = INS asm=\"v_cmp_gt_u32_e32 vcc_lo, 0x3e8, v1\"\n" /* i < 1000 */
    "%i5 = INS asm=\"s_and_saveexec_b32 s9, vcc_lo\"\n"
    "%i6 = INS asm=\"s_cbranch_execz bb1\"\n"
    "%i7 = INS asm=\"v_lshlrev_b32_e32 v1, 2, v1\"\n"
    "%i8 = INS asm=\"s_waitcnt lgkmcnt(0)\"\n"
    "%i9 = INS asm=\"global_load_b32 v2, v1, s[4:5]\"\n"
    "%i10 = INS asm=\"s_waitcnt vmcnt(0)\"\n"
    "%i11 = INS asm=\"v_fma_f32 v2, v2, 2.0, 1.0\"\n"
    "%i12 = INS asm=\"global_store_b32 v1, v2, s[6:7]\"\n"
    "%b1 = INS label=1\n"
    "%i13 = INS asm=\"s_endpgm\"\n"
    "%lin = LINEAR %i0, %i1, %i2, %i3, %i4, %i5, %i6, %i7, %i8, %i9, %i10, %i11, %i12, %b1, "
    "%i13\n"
    "%prog = PROGRAM %sig, %lin\n"
    "return %prog\n";

static int check(const char *name, const rdx_array *want, const rdx_array *got, double rtol)
{
    int64_t first, bad = rdx_realize_compare(want, got, rtol, &first);
    if (bad) {
        printf("%-5s MISMATCH: %lld of %lld elements differ (first: element %lld = %.9g, "
               "expected %.9g)\n",
               name, (long long)bad, (long long)got->numel, (long long)first,
               rdx_array_get(got, first), rdx_array_get(want, first));
        return 1;
    }
    printf("%-5s matches the interpreter's equivalent tensor program (%lld elements)\n", name,
           (long long)got->numel);
    return 0;
}

int main(void)
{
    rdx_graph *g = NULL;
    rdx_device *dev = NULL;
    rdx_realize_report *rep = NULL;
    const rdx_uop **roots = NULL;
    size_t nroots = 0;
    int rc = 1;
    /* the hand-written kernel is gfx1100 code: an emulated GPU is made a gfx1100 (a card of
       another target refuses the code object, saying so) */
    rdx_device_options dopts = { .kind = RDX_DEVICE_AUTO, .emu_arch = "gfx1100" };
    if (rdx_graph_create(&g, NULL) || rdx_device_open(&dopts, &dev)) {
        fprintf(stderr, "asm_kernel: %s\n", rdx_error_message());
        goto out;
    }
    if (rdx_ir_parse(rdx_graph_ir(g), "axpb", axpb_text, strlen(axpb_text), &roots, &nroots)) {
        fprintf(stderr, "asm_kernel: the kernel's text: %s\n", rdx_error_message());
        goto out;
    }
    const rdx_dtype f32 = rdx_dtype_of(RDX_FLOAT32);
    float xv[N];
    for (int i = 0; i < N; i++)
        xv[i] = (float)((i * 37) % 101) / 10.0f - 5.0f;
    const rdx_tensor *x = rdx_tensor_from_data(g, f32, 1, (int64_t[]){ N }, xv);
    const rdx_tensor *h = rdx_tensor_mul(g, rdx_tensor_relu(g, x), rdx_tensor_const(g, f32, 0.5));
    const rdx_tensor *ybuf = rdx_tensor_empty(g, f32, 1, (int64_t[]){ N });
    const rdx_tensor *args[2] = { h, ybuf };
    const rdx_tensor *y = rdx_tensor_call_program(g, roots[0], args, 2, 1);
    const rdx_tensor *loss = rdx_tensor_sum(g, rdx_tensor_mul(g, y, y), 0, NULL, 0);
    /* the same math with tensor ops, for the interpreter */
    const rdx_tensor *yref = rdx_tensor_add(g, rdx_tensor_mul(g, h, rdx_tensor_const(g, f32, 2)),
                                            rdx_tensor_const(g, f32, 1));
    const rdx_tensor *lref = rdx_tensor_sum(g, rdx_tensor_mul(g, yref, yref), 0, NULL, 0);
    if (rdx_graph_status(g)) {
        fprintf(stderr, "asm_kernel: building the program: %s\n", rdx_graph_error(g));
        goto out;
    }
    char *lin = NULL;
    if (!rdx_ir_print(&roots[0]->src[1], 1, 0, &lin)) {
        printf("-- the hand-written kernel (a LINEAR of INS):\n%s", lin);
        free(lin);
    }
    const rdx_tensor *outs[2] = { y, loss }, *refs[2] = { yref, lref };
    rdx_array got[2], want[2];
    if (rdx_tensor_realize_on(g, dev, outs, 2, NULL, got, &rep)) {
        fprintf(stderr, "asm_kernel: realize: %s\n", rdx_error_message());
        goto out;
    }
    rdx_realize_report_print(rep, stdout);
    if (rdx_graph_realize(g, refs, 2, want)) {
        fprintf(stderr, "asm_kernel: interpreter: %s\n", rdx_error_message());
        goto out;
    }
    printf("loss = %.6f\n", (double)((const float *)got[1].data)[0]);
    rc = check("y", &want[0], &got[0], 0) | check("loss", &want[1], &got[1], 1e-5);
out:
    free(roots);
    rdx_realize_report_free(rep);
    rdx_device_close(dev);
    rdx_graph_destroy(g);
    return rc;
}
