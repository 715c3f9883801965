/* tests/codegen_front/runner.c — schedule a tensor graph, evaluate the
 * kernels on the host (keval.c) and compare with the reference interpreter. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/codegen_front/cgf_test.h"

rdx_graph *cgf_graph(void)
{
    rdx_graph *g = NULL;
    ck_assert_int_eq(rdx_graph_create(&g, NULL), RDX_OK);
    return g;
}

uint64_t cgf_rand(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

const rdx_tensor *cgf_random(rdx_graph *g, rdx_dtype dt, uint32_t nd, const int64_t *dims,
                             uint64_t *seed)
{
    int64_t n = 1;
    for (uint32_t k = 0; k < nd; k++)
        n *= dims[k];
    unsigned is = rdx_dtype_itemsize(dt);
    uint8_t *p = calloc((size_t)n + 1, is);
    for (int64_t i = 0; i < n; i++) {
        uint64_t r = cgf_rand(seed);
        double f = ((double)(r >> 11) / 9007199254740992.0) * 4.0 - 2.0;
        int64_t v = (int64_t)(r % 19) - 9;
        switch (dt.scalar) {
        case RDX_BOOL:
            p[i] = r & 1;
            break;
        case RDX_INT8:
        case RDX_UINT8:
            p[i] = (uint8_t)v;
            break;
        case RDX_INT16:
        case RDX_UINT16:
            ((int16_t *)p)[i] = (int16_t)v;
            break;
        case RDX_INT32:
        case RDX_UINT32:
            ((int32_t *)p)[i] = (int32_t)v;
            break;
        case RDX_INT64:
        case RDX_UINT64:
            ((int64_t *)p)[i] = v * 1000000007ll;
            break;
        case RDX_FLOAT16:
            ((uint16_t *)p)[i] = rdx_f64_to_f16(f);
            break;
        case RDX_BFLOAT16:
            ((uint16_t *)p)[i] = rdx_f64_to_bf16(f);
            break;
        case RDX_FLOAT32:
            ((float *)p)[i] = (float)f;
            break;
        default:
            ((double *)p)[i] = f;
            break;
        }
    }
    const rdx_tensor *t = rdx_tensor_from_data(g, dt, nd, dims, p);
    free(p);
    return t;
}

static int64_t eval_numel(const rdx_uop *e, const cgf_run *r)
{
    int64_t v;
    if (rdx_uop_const_int(e, &v))
        return v;
    rdx_value vals[16], out;
    for (size_t k = 0; k < r->nvars; k++)
        vals[k].i = r->varvals[k];
    ck_assert_int_eq(rdx_ir_eval(e, r->vars, vals, r->nvars, &out), RDX_OK);
    return out.i;
}

static double tol_for(rdx_dtype d, const cgf_run *r)
{
    if (r->tol > 0)
        return r->tol;
    switch (d.scalar) {
    case RDX_FLOAT16:
        return 4e-3;
    case RDX_BFLOAT16:
        return 3e-2;
    case RDX_FLOAT32:
        return 2e-5;
    case RDX_FLOAT64:
        return 1e-12;
    default:
        return 0;
    }
}

static const rdx_uop *transform(rdx_ir_ctx *ctx, const rdx_uop *k, const cgf_run *run)
{
    const rdx_uop *o = k;
    rdx_status st = RDX_OK;
    if (run->mode == CGF_HEURISTIC)
        st = rdx_cg_optimize(ctx, k, NULL, 0, &o);
    else if (run->mode == CGF_OPTS)
        st = rdx_cg_optimize(ctx, k, run->opts, run->nopts, &o);
    ck_assert_msg(st == RDX_OK, "optimize failed: %s", rdx_error_message());
    ck_assert_msg(rdx_ir_verify(ctx, o) == RDX_OK, "optimized kernel does not verify: %s",
                  rdx_error_message());
    if (getenv("CGF_PRINT")) {
        char *t = NULL;
        if (!rdx_ir_print(&o, 1, 0, &t))
            fprintf(stderr, "%s\n", t);
        free(t);
    }
    return o;
}

void cgf_check(rdx_graph *g, const rdx_tensor *const *roots, size_t n, cgf_run *run)
{
    for (size_t i = 0; i < n; i++)
        ck_assert_msg(roots[i] != NULL, "build failed: %s", rdx_graph_error(g));
    rdx_ir_ctx *ctx = rdx_graph_ir(g);
    rdx_interp *ip = rdx_graph_interp(g);
    for (size_t k = 0; k < run->nvars; k++)
        ck_assert_int_eq(rdx_interp_bind_var(ip, run->vars[k], run->varvals[k]), RDX_OK);
    rdx_array *exp = calloc(n, sizeof *exp);
    ck_assert_msg(rdx_interp_realize(ip, roots, n, exp) == RDX_OK, "interp: %s",
                  rdx_error_message());
    rdx_schedule *s = NULL;
    rdx_status st = rdx_cg_schedule(ctx, roots, n, &s);
    ck_assert_msg(st == RDX_OK, "schedule failed: %s", rdx_error_message());
    int64_t varvals_s[16];
    for (size_t v = 0; v < s->nvars; v++) {
        size_t k;
        for (k = 0; k < run->nvars && run->vars[k] != s->vars[v]; k++)
            ;
        ck_assert_msg(k < run->nvars, "variable %s unbound", s->vars[v]->arg.str);
        varvals_s[v] = run->varvals[k];
    }
    void **mem = calloc(s->nbuffers, sizeof *mem);
    size_t *bytes = calloc(s->nbuffers, sizeof *bytes);
    for (size_t b = 0; b < s->nbuffers; b++) {
        const rdx_sched_buffer *sb = &s->buffers[b];
        bytes[b] = (size_t)eval_numel(sb->numel, run) * rdx_dtype_itemsize(sb->dtype);
        mem[b] = calloc(bytes[b] + 1, 1);
        /* temporaries start as garbage: a kernel reading before writing is caught */
        if (sb->kind != RDX_SBUF_INPUT)
            memset(mem[b], 0xA5, bytes[b]);
        if (sb->kind == RDX_SBUF_INPUT) {
            size_t nb = 0;
            const void *d = rdx_interp_bound(ip, sb->tensor, &nb);
            if (d)
                memcpy(mem[b], d, nb < bytes[b] ? nb : bytes[b]);
        }
    }
    uint64_t offs[256];
    rdx_plan_stats ps;
    if (s->nbuffers <= 256 &&
        rdx_schedule_plan_memory(s, s->nvars ? varvals_s : NULL, offs, &ps) == RDX_OK) {
        run->arena = ps.arena;
        run->no_reuse = ps.no_reuse;
    }
    run->nkernels = s->nkernels;
    run->ops = 0;
    run->cycles = 0;
    for (size_t k = 0; k < s->nkernels; k++) {
        const rdx_sched_kernel *kn = &s->kernels[k];
        const rdx_uop *ko = transform(ctx, kn->sink, run);
        void *kb[64];
        size_t kbytes[64];
        for (uint32_t p = 0; p < kn->nparams; p++) {
            kb[p] = mem[kn->params[p]];
            kbytes[p] = bytes[kn->params[p]];
        }
        char err[512] = "";
        uint64_t ops = 0;
        if (run->on_emu) {
            uint64_t cyc = 0;
            st = cgf_emu_run(ctx, ko, kb, kbytes, kn->nparams, s->vars, varvals_s, s->nvars, &cyc);
            if (st)
                snprintf(err, sizeof err, "%s", rdx_error_message());
            run->cycles += cyc;
        } else {
            st = keval_run(ctx, ko, kb, kbytes, kn->nparams, s->vars, varvals_s, s->nvars, &ops,
                           err, sizeof err);
        }
        if (st) {
            char *txt = NULL;
            rdx_ir_print(&ko, 1, 0, &txt);
            fprintf(stderr, "kernel %zu:\n%s\n", k, txt ? txt : "?");
            free(txt);
        }
        ck_assert_msg(st == RDX_OK, "kernel %zu (%s): %s", k, kn->name, err);
        run->ops += ops;
    }
    for (size_t r = 0; r < n; r++) {
        const rdx_sched_buffer *sb = &s->buffers[s->outputs[r]];
        rdx_array *e = &exp[r];
        ck_assert_int_eq(e->dtype.scalar, sb->dtype.scalar);
        ck_assert_uint_eq(bytes[s->outputs[r]], (size_t)e->numel * rdx_dtype_itemsize(e->dtype));
        const uint8_t *got = mem[s->outputs[r]];
        double tol = tol_for(e->dtype, run);
        for (int64_t i = 0; i < e->numel; i++) {
            if (!rdx_dtype_is_float(e->dtype)) {
                int64_t a = rdx_array_get_int(e, i);
                rdx_array ga = *e;
                ga.data = (void *)got;
                int64_t b = rdx_array_get_int(&ga, i);
                ck_assert_msg(a == b, "output %zu element %lld: got %lld, expected %lld", r,
                              (long long)i, (long long)b, (long long)a);
            } else {
                rdx_array ga = *e;
                ga.data = (void *)got;
                double a = rdx_array_get(e, i), b = rdx_array_get(&ga, i);
                int ok = (isnan(a) && isnan(b)) || a == b ||
                         fabs(a - b) <= tol * (fabs(a) > 1 ? fabs(a) : 1);
                ck_assert_msg(ok, "output %zu element %lld: got %.9g, expected %.9g", r,
                              (long long)i, b, a);
            }
        }
    }
    for (size_t b = 0; b < s->nbuffers; b++)
        free(mem[b]);
    free(mem);
    free(bytes);
    free(exp);
    rdx_schedule_free(s);
}

void cgf_run_seqs(rdx_graph *g, const rdx_tensor *t, const cgf_seq *seqs, size_t n, int emu)
{
    for (size_t i = 0; i < n; i++)
        for (int e = 0; e <= emu; e++) {
            cgf_run r = { 0 };
            r.mode = CGF_OPTS;
            r.opts = seqs[i].o;
            r.nopts = seqs[i].n;
            r.on_emu = e;
            cgf_check(g, &t, 1, &r);
            ck_assert_uint_eq(r.nkernels, 1);
        }
}

const rdx_uop *cgf_kernel_of(rdx_graph *g, const rdx_tensor *t)
{
    rdx_schedule *s = NULL;
    const rdx_uop *k;
    ck_assert_int_eq(rdx_cg_schedule(rdx_graph_ir(g), &t, 1, &s), RDX_OK);
    ck_assert_uint_eq(s->nkernels, 1);
    ck_assert_int_eq(rdx_cg_axis_types(rdx_graph_ir(g), s->kernels[0].sink, &k), RDX_OK);
    rdx_schedule_free(s);
    return k;
}

void cgf_check1(rdx_graph *g, const rdx_tensor *t)
{
    cgf_run r = { 0 };
    cgf_check(g, &t, 1, &r);
    cgf_run h = { 0 };
    h.mode = CGF_HEURISTIC;
    h.tol = 0;
    cgf_check(g, &t, 1, &h);
}

void cgf_expect_expand_error(rdx_graph *g, const rdx_uop *k, const rdx_opt *o, size_t n,
                             const char *frag)
{
    const rdx_uop *a, *b;
    ck_assert_msg(rdx_cg_apply_opts(rdx_graph_ir(g), k, o, n, &a) == RDX_OK, "%s",
                  rdx_error_message());
    ck_assert_int_eq(rdx_cg_expand(rdx_graph_ir(g), a, &b), RDX_ERR_UNSUPPORTED);
    ck_assert_msg(strstr(rdx_error_message(), frag), "message '%s' lacks '%s'", rdx_error_message(),
                  frag);
}

int cgf_count(const char *t, const char *s)
{
    int c = 0;
    for (const char *p = strstr(t, s); p; p = strstr(p + 1, s))
        c++;
    return c;
}

double cgf_toy_cost(const rdx_uop *k)
{
    const rdx_uop **order = NULL;
    size_t n = 0;
    ck_assert_int_eq(rdx_ir_toposort(k, &order, &n), RDX_OK);
    double wg = 1;
    for (size_t i = 0; i < n; i++) {
        int64_t b;
        if (order[i]->op == RDX_OP_SPECIAL && order[i]->arg.str[0] == 'l' &&
            rdx_uop_const_int(order[i]->src[0], &b))
            wg *= b > 64 ? 64 : (double)b;
    }
    free(order);
    return (double)n * 100.0 / wg;
}
