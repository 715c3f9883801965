/* realize/run.c — rdx_realize_run: a tensor graph's whole schedule compiled
 * by the code generator and run through the runtime on a device, in one
 * arena laid out by the schedule's memory plan. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rdx/realize.h>

#include "realize/realize_internal.h"
#include "util/error.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Value of a size expression (a CONST or an expression of the schedule's variables). */
static rdx_status eval_size(const rdx_uop *e, const rdx_schedule *s, const int64_t *vals,
                            int64_t *out)
{
    if (rdx_uop_const_int(e, out))
        return RDX_OK;
    rdx_value *vv = calloc(s->nvars + 1, sizeof *vv), r;
    if (!vv)
        return rdx_fail(RDX_ERR_NOMEM, "realize: out of memory");
    for (size_t k = 0; k < s->nvars; k++)
        vv[k].i = vals[k];
    rdx_status st = rdx_ir_eval(e, s->vars, vv, s->nvars, &r);
    free(vv);
    if (!st)
        *out = r.i;
    return st;
}

/* The state of one realization (freed in one place). */
struct rz_run {
    rdx_ir_ctx *ctx;
    rdx_device *dev;
    const rdx_realize_options *opt;
    rdx_schedule *s;
    int64_t *vals;     /* s->vars[k] = vals[k] */
    uint64_t *bytes;   /* per schedule buffer */
    uint64_t *offsets; /* per schedule buffer, in the arena */
    rdx_queue *q;
    rdx_buffer *arena;
    rdx_realize_result *res;
    /* what rz_prepare leaves for rz_execute */
    const rdx_interp *inputs;
    const rdx_uop **sr; /* the scheduled roots */
    long *map;          /* root i is sr[map[i]] (-1: a side effect) */
    size_t n;
    rdx_codegen_kernel **ck; /* per schedule kernel (NULL: an empty one) */
    int64_t **kv;            /* its DEFINE_VAR values */
    size_t *nkv;
};

/* Bind every schedule variable to the value named in the options. */
static rdx_status bind_vars(rz_run *r)
{
    const rdx_realize_options *o = r->opt;
    for (size_t k = 0; k < r->s->nvars; k++) {
        const rdx_uop *v = r->s->vars[k];
        size_t j;
        for (j = 0; j < o->nvars && (!o->var_names || !o->var_names[j] || !o->var_values ||
                                     strcmp(o->var_names[j], v->arg.str));
             j++)
            ;
        if (j == o->nvars)
            return rdx_fail(RDX_ERR_INVALID,
                            "realize: variable '%s' needs a value (rdx_realize_options.var_names)",
                            v->arg.str);
        if (o->var_values[j] < v->vmin || o->var_values[j] > v->vmax)
            return rdx_fail(RDX_ERR_INVALID,
                            "realize: variable '%s' = %lld is outside [%lld, %lld]", v->arg.str,
                            (long long)o->var_values[j], (long long)v->vmin, (long long)v->vmax);
        r->vals[k] = o->var_values[j];
    }
    return RDX_OK;
}

/* Upload every input's bound data (unbound inputs stay zero). */
static rdx_status upload_inputs(rz_run *r, const rdx_interp *inputs)
{
    for (size_t b = 0; b < r->s->nbuffers; b++) {
        const rdx_sched_buffer *sb = &r->s->buffers[b];
        if (sb->kind != RDX_SBUF_INPUT || (!inputs && sb->tensor->op != RDX_OP_BINARY))
            continue;
        size_t have = 0;
        const void *data = NULL;
        if (sb->tensor->op == RDX_OP_BINARY) /* raw bytes in the graph */
            data = sb->tensor->arg.str, have = sb->tensor->arg.len;
        else
            data = rdx_interp_bound(inputs, sb->tensor, &have);
        if (!data)
            continue;
        if (have != r->bytes[b])
            return rdx_fail(RDX_ERR_INVALID,
                            "realize: input slot %lld has %zu bytes of data, its shape needs %llu",
                            (long long)sb->tensor->arg.i, have, (unsigned long long)r->bytes[b]);
        if (have) {
            rdx_status st = rdx_buffer_upload(r->arena, r->offsets[b], data, have);
            if (st)
                return rdx_fail_context(st, "realize: uploading input slot %lld",
                                        (long long)sb->tensor->arg.i);
        }
    }
    return RDX_OK;
}

/* Optimize one kernel (raw, heuristics or BEAM) into the back end's form; opts into rk. */
static rdx_status optimize(rz_run *r, const rdx_sched_kernel *kn, rdx_realize_kernel *rk,
                           const rdx_uop **out)
{
    const rdx_realize_options *o = r->opt;
    const rdx_uop *typed, *opt;
    rdx_status st = rdx_cg_axis_types(r->ctx, kn->sink, &typed);
    if (!st && o->beam) {
        int on_device = o->beam_on_device || !r->res->report->emulated;
        rdx_cg_timer fn = NULL;
        rdx_realize_beam_timer *t = NULL;
        char devkey[64];
        snprintf(devkey, sizeof devkey, "%s-%s", on_device ? "dev" : "emu",
                 rdx_device_get_info(r->dev)->target);
        rdx_beam_opts bo = { .width = o->beam,
                             .max_steps = o->beam_steps,
                             .progress = o->beam_progress,
                             .cache_path = o->beam_cache,
                             .device = devkey,
                             .budget = o->beam_budget > 0 ? o->beam_budget : 0,
                             .no_budget = o->beam_budget < 0,
                             .time_limit = o->beam_time };
        double cost;
        st = rdx_realize_beam_timer_create(r->ctx, on_device ? r->dev : NULL,
                                           on_device ? r->q : NULL, r->s->vars, r->vals,
                                           r->s->nvars, o->timeout_ms, &fn, &t);
        if (!st) /* emulated BEAM: the candidates for the device's target */
            st = rdx_realize_beam_timer_set_target(t, rdx_device_get_info(r->dev)->target);
        if (!st)
            st = rdx_cg_beam(r->ctx, typed, fn, t, &bo, rk->opts, RDX_REALIZE_MAX_OPTS, &rk->nopts,
                             &cost);
        rdx_realize_beam_timer_free(t);
    } else if (!st && !o->raw) {
        st = rdx_cg_heuristic(typed, rk->opts, RDX_REALIZE_MAX_OPTS, &rk->nopts);
    }
    if (!st)
        st = rdx_cg_apply_opts(r->ctx, typed, rk->opts, rk->nopts, &opt);
    if (!st)
        st = rdx_cg_expand(r->ctx, opt, out);
    return st;
}

/* The wave emulator's estimate for kernel kn on a host copy of its buffers. */
static rdx_status profile(rz_run *r, const rdx_sched_kernel *kn, const rdx_codegen_kernel *ck,
                          const int64_t *kv, size_t nkv, rdx_realize_kernel *rk)
{
    void **host = calloc(kn->nparams + 1, sizeof *host);
    size_t *sizes = calloc(kn->nparams + 1, sizeof *sizes);
    rdx_status st = host && sizes ? RDX_OK : rdx_fail(RDX_ERR_NOMEM, "realize: out of memory");
    for (uint32_t p = 0; p < kn->nparams && !st; p++) {
        uint32_t b = kn->params[p];
        sizes[p] = r->bytes[b];
        if (!(host[p] = calloc(1, sizes[p] + 64)))
            st = rdx_fail(RDX_ERR_NOMEM, "realize: out of memory");
        else if (sizes[p])
            st = rdx_buffer_download(r->arena, r->offsets[b], host[p], sizes[p]);
    }
    rdx_realize_emu_stats es;
    rz_prof pr = { r->opt, (size_t)(rk - r->res->report->kernels), kn->name };
    if (!st)
        st = rz_emu_launch(ck, host, sizes, kn->nparams, kv, nkv, 0, &es,
                           r->opt->profile_hook ? &pr : NULL);
    if (!st) {
        rk->est_cycles = es.cycles;
        rk->wave_insts = es.wave_insts;
        rk->est_kernel_cycles = es.kernel_cycles;
    }
    for (uint32_t p = 0; host && p < kn->nparams; p++)
        free(host[p]);
    free(host);
    free(sizes);
    return st;
}

/* Optimize and compile kernel k of the schedule into r->ck[k] (and its variables' values). */
static rdx_status compile_kernel(rz_run *r, size_t k)
{
    const rdx_sched_kernel *kn = &r->s->kernels[k];
    rdx_realize_kernel *rk = &r->res->report->kernels[k];
    const rdx_realize_options *o = r->opt;
    snprintf(rk->name, sizeof rk->name, "%s", kn->name);
    rk->nparams = kn->nparams;
    /* every output empty (a zero-size tensor): nothing to compute, the kernel is a no-op
       (its grid would have a dimension of 0) */
    int empty = kn->nouts > 0;
    for (uint32_t p = 0; p < kn->nouts && empty; p++)
        empty = r->bytes[kn->params[p]] == 0;
    if (empty)
        return RDX_OK;
    double t0 = now_ms();
    const rdx_uop *ko = NULL;
    rdx_codegen_kernel *ck = NULL;
    rdx_status st = RDX_OK;
    rdx_codegen_options co;
    memset(&co, 0, sizeof co);
    co.name = kn->name;
    co.target = rdx_device_get_info(r->dev)->target; /* the device's own target */
    co.keep_stages = o->keep_stages | (o->keep_isa ? 1u << RDX_CG_STAGE_ASM : 0);
    if (kn->program) /* a CALL of a PROGRAM: its code as it is */
        st = rdx_codegen_program_kernel(r->ctx, kn->program, kn->name, &ck);
    else if (!(st = optimize(r, kn, rk, &ko)))
        st = rdx_codegen_compile(r->ctx, ko, &co, &ck);
    rk->compile_ms = now_ms() - t0;
    r->ck[k] = ck;
    if (!st && !(r->kv[k] = calloc(ck->nargs + 1, sizeof *r->kv[k])))
        st = rdx_fail(RDX_ERR_NOMEM, "realize: out of memory");
    if (!st)
        st = rz_kernel_vars(ck, r->s->vars, r->vals, r->s->nvars, r->kv[k], &r->nkv[k]);
    if (!st) {
        rk->num_sgprs = ck->num_sgprs;
        rk->num_vgprs = ck->num_vgprs;
        rk->lds_bytes = ck->lds_size;
        rk->code_bytes = ck->code_size;
        for (int t = 0; t < RDX_CG_STAGE_COUNT && !st; t++)
            if (ck->stage_text[t] && !(rk->stage_text[t] = strdup(ck->stage_text[t])))
                st = rdx_fail(RDX_ERR_NOMEM, "realize: out of memory");
        rk->isa = rk->stage_text[RDX_CG_STAGE_ASM];
    }
    return st ? rdx_fail_context(st, "realize: kernel %zu (%s)", k, kn->name) : RDX_OK;
}

/* (Profile,) load and run compiled kernel k of the schedule. */
static rdx_status run_kernel(rz_run *r, size_t k)
{
    const rdx_sched_kernel *kn = &r->s->kernels[k];
    rdx_realize_kernel *rk = &r->res->report->kernels[k];
    const rdx_realize_options *o = r->opt;
    const rdx_codegen_kernel *ck = r->ck[k];
    if (!ck) /* an empty kernel */
        return RDX_OK;
    rdx_buffer **kb = calloc(kn->nparams + 1, sizeof *kb);
    uint64_t *koff = calloc(kn->nparams + 1, sizeof *koff);
    rdx_status st = kb && koff ? RDX_OK : rdx_fail(RDX_ERR_NOMEM, "realize: out of memory");
    for (uint32_t p = 0; p < kn->nparams && !st; p++) {
        kb[p] = r->arena;
        koff[p] = r->offsets[kn->params[p]];
    }
    /* the profile first: it must see the buffers as the dispatch will */
    if (!st && o->profile && r->res->report->emulated)
        st = profile(r, kn, ck, r->kv[k], r->nkv[k], rk);
    if (!st)
        st = rz_dispatch(r->dev, r->q, ck, ck->symbol, kb, koff, kn->nparams, r->kv[k], r->nkv[k],
                         o->timeout_ms, &rk->gpu_ns, rk->global, rk->block);
    free(kb);
    free(koff);
    if (st)
        return rdx_fail_context(st, "realize: kernel %zu (%s)", k, kn->name);
    if (o->log) {
        fprintf(o->log, "kernel %zu %-20s %10.3f us", k, rk->name, (double)rk->gpu_ns / 1e3);
        if (rk->est_cycles)
            fprintf(o->log, " %12llu est. cycles %10llu kernel cycles %10llu wave-insts",
                    (unsigned long long)rk->est_cycles, (unsigned long long)rk->est_kernel_cycles,
                    (unsigned long long)rk->wave_insts);
        fprintf(o->log, "\n");
    }
    return RDX_OK;
}

/* Download scheduled root j into res->outputs[i] (shape evaluated with the variables). */
static rdx_status download_output(rz_run *r, const rdx_uop *root, size_t j, size_t i)
{
    rdx_array *a = &r->res->outputs[i];
    size_t b = r->s->outputs[j];
    const rdx_sched_buffer *sb = &r->s->buffers[b];
    if (root->ndim > RDX_INTERP_MAX_DIMS)
        return rdx_fail(RDX_ERR_UNSUPPORTED, "realize: output %zu has %u dims (max %d)", i,
                        root->ndim, RDX_INTERP_MAX_DIMS);
    a->dtype = sb->dtype;
    a->ndim = root->ndim;
    a->numel = 1;
    for (uint32_t d = 0; d < root->ndim; d++) {
        rdx_status st = eval_size(root->shape[d], r->s, r->vals, &a->dims[d]);
        if (st)
            return rdx_fail_context(st, "realize: output %zu dim %u", i, d);
        a->numel *= a->dims[d];
    }
    size_t isz = rdx_dtype_itemsize(sb->dtype);
    if ((uint64_t)a->numel * isz != r->bytes[b])
        return rdx_fail(RDX_ERR_INVALID, "realize: output %zu: %lld elements but %llu bytes", i,
                        (long long)a->numel, (unsigned long long)r->bytes[b]);
    if (!(a->data = calloc(1, r->bytes[b] + 1)))
        return rdx_fail(RDX_ERR_NOMEM, "realize: out of memory");
    if (!r->bytes[b])
        return RDX_OK;
    rdx_status st = rdx_buffer_download(r->arena, r->offsets[b], a->data, r->bytes[b]);
    return st ? rdx_fail_context(st, "realize: downloading output %zu", i) : RDX_OK;
}

static rdx_status alloc_result(rz_run *r, size_t n)
{
    rdx_realize_result *res = r->res = calloc(1, sizeof *res);
    if (!res || !(res->outputs = calloc(n, sizeof *res->outputs)) ||
        !(res->report = calloc(1, sizeof *res->report)) ||
        !(res->report->kernels = calloc(r->s->nkernels + 1, sizeof *res->report->kernels)))
        return rdx_fail(RDX_ERR_NOMEM, "realize: out of memory");
    res->noutputs = n;
    rdx_realize_report *rep = res->report;
    const rdx_device_info *info = rdx_device_get_info(r->dev);
    if (strcmp(info->name, info->target))
        snprintf(rep->device, sizeof rep->device, "%.8s %.15s (%.63s)", info->os_name, info->target,
                 info->name);
    else
        snprintf(rep->device, sizeof rep->device, "%.8s %.15s", info->os_name, info->target);
    snprintf(rep->os, sizeof rep->os, "%.15s", info->os_name);
    rep->emulated = !strcmp(info->os_name, "emu");
    rep->nkernels = r->s->nkernels;
    rep->nbuffers = r->s->nbuffers;
    return RDX_OK;
}

/* Sizes, the memory plan, the queue and the arena, and every kernel compiled. */
static rdx_status prepare(rz_run *r)
{
    rdx_schedule *s = r->s;
    rdx_status st = bind_vars(r);
    for (size_t b = 0; b < s->nbuffers && !st; b++) {
        int64_t ne = 0;
        st = eval_size(s->buffers[b].numel, s, r->vals, &ne);
        if (!st && ne < 0)
            st = rdx_fail(RDX_ERR_INVALID, "realize: buffer %zu has %lld elements", b,
                          (long long)ne);
        if (st)
            return rdx_fail_context(st, "realize: size of buffer %zu", b);
        r->bytes[b] = (uint64_t)ne * rdx_dtype_itemsize(s->buffers[b].dtype);
    }
    if (!st)
        st = alloc_result(r, r->n);
    if (st)
        return st;
    rdx_realize_report *rep = r->res->report;
    st = rdx_schedule_plan_memory(s, r->vals, r->offsets, &rep->memory);
    if (!st)
        st = rdx_queue_create(r->dev, RDX_QUEUE_COMPUTE, &r->q);
    /* 256 spare bytes: kernels may read whole vectors past a buffer's end */
    if (!st)
        st = rdx_buffer_alloc(r->dev, rep->memory.arena + 256, RDX_MEM_DEVICE, &r->arena);
    for (size_t k = 0; k < s->nkernels && !st; k++) {
        st = compile_kernel(r, k);
        if (!st)
            rep->compile_ms += rep->kernels[k].compile_ms;
    }
    return st;
}

rdx_status rz_execute(rz_run *r)
{
    rdx_schedule *s = r->s;
    rdx_realize_report *rep = r->res->report;
    rdx_status st = upload_inputs(r, r->inputs);
    for (size_t k = 0; k < s->nkernels && !st; k++) {
        st = run_kernel(r, k);
        if (!st) {
            rep->total_ns += rep->kernels[k].gpu_ns;
            rep->total_cycles += rep->kernels[k].est_cycles;
            rep->total_kernel_cycles += rep->kernels[k].est_kernel_cycles;
            rep->total_wave_insts += rep->kernels[k].wave_insts;
        }
    }
    for (size_t i = 0; i < r->n && !st; i++) {
        if (r->map[i] < 0) /* a side effect (a SINK of STOREs): void, as in the interpreter */
            r->res->outputs[i].dtype = rdx_dtype_of(RDX_VOID);
        else
            st = download_output(r, r->sr[r->map[i]], (size_t)r->map[i], i);
    }
    return st;
}

rdx_status rz_finish(rz_run *r, rdx_status st, rdx_realize_result **out)
{
    *out = NULL;
    if (!r)
        return st;
    /* the queue first: destroying it waits for work still using the arena */
    rdx_status qst = rdx_queue_destroy(r->q);
    if (!st && qst)
        st = qst;
    rdx_buffer_free(r->arena);
    for (size_t k = 0; r->s && r->ck && r->kv && k < r->s->nkernels; k++) {
        rdx_codegen_kernel_free(r->ck[k]);
        free(r->kv[k]);
    }
    free(r->ck);
    free(r->kv);
    free(r->nkv);
    rdx_schedule_free(r->s);
    free(r->sr);
    free(r->map);
    free(r->vals);
    free(r->bytes);
    free(r->offsets);
    if (st)
        rdx_realize_result_free(r->res);
    else
        *out = r->res;
    free(r);
    return st;
}

rdx_status rz_prepare(rdx_ir_ctx *ctx, const rdx_interp *inputs, rdx_device *dev,
                      const rdx_uop *const *roots, size_t n, const rdx_realize_options *opt,
                      rz_run **out)
{
    static const rdx_realize_options defaults;
    *out = NULL;
    if (!dev)
        return rdx_fail(RDX_ERR_INVALID, "realize: no device (NULL)");
    if (!ctx || !roots || !n)
        return rdx_fail(RDX_ERR_INVALID, "realize: no graph (NULL context or no roots)");
    for (size_t i = 0; i < n; i++)
        if (!roots[i])
            return rdx_fail(RDX_ERR_INVALID, "realize: root %zu is NULL", i);
    if (!opt)
        opt = &defaults;
    if (opt->beam > 16)
        return rdx_fail(RDX_ERR_INVALID, "realize: BEAM width %u (expected 1..16)", opt->beam);
    rz_run *r = calloc(1, sizeof *r);
    if (!r)
        return rdx_fail(RDX_ERR_NOMEM, "realize: out of memory");
    r->ctx = ctx;
    r->dev = dev;
    r->opt = opt;
    r->inputs = inputs;
    r->n = n;
    /* side effects (SINKs of STOREs) become the scheduler's assignments */
    size_t nsr = 0;
    r->map = calloc(n, sizeof *r->map);
    rdx_status st = r->map ? rz_effects(ctx, roots, n, &r->sr, &nsr, r->map)
                           : rdx_fail(RDX_ERR_NOMEM, "realize: out of memory");
    if (!st && !nsr) /* nothing stored: an empty schedule */
        st = (r->s = calloc(1, sizeof *r->s)) ? RDX_OK
                                              : rdx_fail(RDX_ERR_NOMEM, "realize: out of memory");
    else if (!st)
        st = rdx_cg_schedule(ctx, r->sr, nsr, &r->s);
    if (!st && (!(r->vals = calloc(r->s->nvars + 1, sizeof *r->vals)) ||
                !(r->bytes = calloc(r->s->nbuffers + 1, sizeof *r->bytes)) ||
                !(r->offsets = calloc(r->s->nbuffers + 1, sizeof *r->offsets)) ||
                !(r->ck = calloc(r->s->nkernels + 1, sizeof *r->ck)) ||
                !(r->kv = calloc(r->s->nkernels + 1, sizeof *r->kv)) ||
                !(r->nkv = calloc(r->s->nkernels + 1, sizeof *r->nkv))))
        st = rdx_fail(RDX_ERR_NOMEM, "realize: out of memory");
    if (!st)
        st = prepare(r);
    if (st) {
        rdx_realize_result *dummy;
        return rz_finish(r, st, &dummy);
    }
    *out = r;
    return RDX_OK;
}

int rz_input_slot(const rz_run *r, const rdx_uop *buf, rdx_buffer **arena, uint64_t *off,
                  uint64_t *bytes)
{
    for (size_t b = 0; b < r->s->nbuffers; b++)
        if (r->s->buffers[b].kind == RDX_SBUF_INPUT && r->s->buffers[b].tensor == buf) {
            *arena = r->arena, *off = r->offsets[b], *bytes = r->bytes[b];
            return 1;
        }
    return 0;
}

int rz_output_slot(const rz_run *r, size_t i, rdx_buffer **arena, uint64_t *off, uint64_t *bytes)
{
    if (i >= r->n || r->map[i] < 0 || (size_t)r->map[i] >= r->s->noutputs)
        return 0;
    size_t b = r->s->outputs[r->map[i]];
    *arena = r->arena, *off = r->offsets[b], *bytes = r->bytes[b];
    return 1;
}

const void *rz_output_host(const rz_run *r, size_t i)
{
    return r->res && i < r->n ? r->res->outputs[i].data : NULL;
}

rdx_queue *rz_queue(const rz_run *r)
{
    return r->q;
}

size_t rz_kernel_count(const rz_run *r)
{
    return r->s->nkernels;
}

rdx_status rdx_realize_run(rdx_ir_ctx *ctx, const rdx_interp *inputs, rdx_device *dev,
                           const rdx_uop *const *roots, size_t n, const rdx_realize_options *opt,
                           rdx_realize_result **out)
{
    if (!out)
        return rdx_fail(RDX_ERR_INVALID, "realize: no result pointer (NULL)");
    *out = NULL;
    rz_run *r;
    rdx_status st = rz_prepare(ctx, inputs, dev, roots, n, opt, &r);
    if (st)
        return st;
    return rz_finish(r, rz_execute(r), out);
}

void rdx_realize_result_free(rdx_realize_result *r)
{
    if (!r)
        return;
    for (size_t i = 0; r->outputs && i < r->noutputs; i++)
        free(r->outputs[i].data);
    free(r->outputs);
    rdx_realize_report_free(r->report);
    free(r);
}
