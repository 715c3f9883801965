/*
 * isa/codeobj/meta.c — code object metadata: rdx_codeobj_kernel_meta to the
 * MessagePack map LLVM writes (keys in sorted order, as LLVM's msgpack
 * document emits them) and back, with every type checked.
 */
#include "isa/codeobj/meta.h"

#include <inttypes.h>
#include <string.h>

#include "util/error.h"

void rdx_codeobj_kernel_meta_init(rdx_codeobj_kernel_meta *m)
{
    memset(m, 0, sizeof *m);
    m->workgroup_processor_mode = -1;
}

void rdx_codeobj_meta_version(unsigned version, uint32_t out[2])
{
    out[0] = 1;
    out[1] = version == 4 ? 1 : 2;
}

/* ------------------------------------------------------------ encoding */

/* A map whose pair count is known only at the end. */
typedef struct map_builder {
    rdx_buf body;
    uint32_t pairs;
    rdx_status st;
} map_builder;

static void mb_key(map_builder *m, const char *key)
{
    if (!m->st)
        m->st = rdx_msgpack_put_cstr(&m->body, key);
    m->pairs++;
}

static void mb_uint(map_builder *m, const char *key, uint64_t v)
{
    mb_key(m, key);
    if (!m->st)
        m->st = rdx_msgpack_put_uint(&m->body, v);
}

static void mb_int(map_builder *m, const char *key, int64_t v)
{
    mb_key(m, key);
    if (!m->st)
        m->st = rdx_msgpack_put_int(&m->body, v);
}

static void mb_bool(map_builder *m, const char *key, bool v)
{
    mb_key(m, key);
    if (!m->st)
        m->st = rdx_msgpack_put_bool(&m->body, v);
}

static void mb_str(map_builder *m, const char *key, const char *v)
{
    if (!v)
        return;
    mb_key(m, key);
    if (!m->st)
        m->st = rdx_msgpack_put_cstr(&m->body, v);
}

static void mb_uints(map_builder *m, const char *key, const uint32_t *v, uint32_t n)
{
    mb_key(m, key);
    if (!m->st)
        m->st = rdx_msgpack_put_array(&m->body, n);
    for (uint32_t i = 0; i < n && !m->st; i++)
        m->st = rdx_msgpack_put_uint(&m->body, v[i]);
}

/* Append the finished map to `out` (or the builder's error); frees the builder. */
static rdx_status mb_finish(map_builder *m, rdx_buf *out)
{
    rdx_status st = m->st;
    if (!st)
        st = rdx_msgpack_put_map(out, m->pairs);
    if (!st)
        st = rdx_buf_append(out, m->body.data, m->body.len);
    rdx_buf_free(&m->body);
    return st;
}

static bool any3(const uint32_t v[3])
{
    return v[0] || v[1] || v[2];
}

static rdx_status encode_arg(rdx_buf *b, const rdx_codeobj_arg *a, const char *kname, size_t i)
{
    if (!a->value_kind)
        return rdx_fail(RDX_ERR_INVALID, "kernel '%s' argument %zu: value_kind is required", kname,
                        i);
    map_builder m = { 0 };
    mb_str(&m, ".access", a->access);
    mb_str(&m, ".actual_access", a->actual_access);
    mb_str(&m, ".address_space", a->address_space);
    if (a->is_const)
        mb_bool(&m, ".is_const", true);
    if (a->is_pipe)
        mb_bool(&m, ".is_pipe", true);
    if (a->is_restrict)
        mb_bool(&m, ".is_restrict", true);
    if (a->is_volatile)
        mb_bool(&m, ".is_volatile", true);
    mb_str(&m, ".name", a->name);
    mb_uint(&m, ".offset", a->offset);
    if (a->pointee_align)
        mb_uint(&m, ".pointee_align", a->pointee_align);
    mb_uint(&m, ".size", a->size);
    mb_str(&m, ".type_name", a->type_name);
    mb_str(&m, ".value_kind", a->value_kind);
    return mb_finish(&m, b);
}

static rdx_status encode_kernel(rdx_buf *b, const rdx_codeobj_kernel *k, rdx_buf *tmp)
{
    const rdx_codeobj_kernel_meta *md = &k->meta;
    map_builder m = { 0 };
    rdx_status st;
    if (md->agpr_count)
        mb_uint(&m, ".agpr_count", md->agpr_count);
    /* .args: encode into its own buffer first. */
    tmp->len = 0;
    st = rdx_msgpack_put_array(tmp, (uint32_t)md->num_args);
    for (size_t i = 0; !st && i < md->num_args; i++)
        st = encode_arg(tmp, &md->args[i], k->name, i);
    if (st) {
        rdx_buf_free(&m.body);
        return st;
    }
    mb_key(&m, ".args");
    if (!m.st)
        m.st = rdx_buf_append(&m.body, tmp->data, tmp->len);
    /* Zero sizes are taken from the descriptor (the writer checks non-zero ones agree). */
    mb_uint(&m, ".group_segment_fixed_size",
            md->group_segment_fixed_size ? md->group_segment_fixed_size
                                         : k->kd.group_segment_fixed_size);
    mb_uint(&m, ".kernarg_segment_align", md->kernarg_segment_align);
    mb_uint(&m, ".kernarg_segment_size",
            md->kernarg_segment_size ? md->kernarg_segment_size : k->kd.kernarg_size);
    mb_str(&m, ".language", md->language);
    if (md->language_version_count)
        mb_uints(&m, ".language_version", md->language_version, md->language_version_count);
    mb_uint(&m, ".max_flat_workgroup_size", md->max_flat_workgroup_size);
    mb_str(&m, ".name", md->name ? md->name : k->name);
    mb_uint(&m, ".private_segment_fixed_size",
            md->private_segment_fixed_size ? md->private_segment_fixed_size
                                           : k->kd.private_segment_fixed_size);
    if (any3(md->reqd_workgroup_size))
        mb_uints(&m, ".reqd_workgroup_size", md->reqd_workgroup_size, 3);
    mb_uint(&m, ".sgpr_count", md->sgpr_count);
    mb_uint(&m, ".sgpr_spill_count", md->sgpr_spill_count);
    if (md->symbol) {
        mb_str(&m, ".symbol", md->symbol);
    } else {
        size_t n = strlen(k->name); /* "<name>.kd" */
        mb_key(&m, ".symbol");
        if (!m.st)
            m.st = rdx_msgpack_put_str_header(&m.body, n + 3);
        if (!m.st)
            m.st = rdx_buf_append(&m.body, k->name, n);
        if (!m.st)
            m.st = rdx_buf_append(&m.body, ".kd", 3);
    }
    if (md->uniform_work_group_size)
        mb_uint(&m, ".uniform_work_group_size", md->uniform_work_group_size);
    mb_bool(&m, ".uses_dynamic_stack", md->uses_dynamic_stack);
    mb_uint(&m, ".vgpr_count", md->vgpr_count);
    mb_uint(&m, ".vgpr_spill_count", md->vgpr_spill_count);
    mb_uint(&m, ".wavefront_size",
            md->wavefront_size              ? md->wavefront_size
            : k->kd.enable_wavefront_size32 ? 32u
                                            : 64u);
    if (md->workgroup_processor_mode >= 0)
        mb_int(&m, ".workgroup_processor_mode", md->workgroup_processor_mode);
    if (any3(md->workgroup_size_hint))
        mb_uints(&m, ".workgroup_size_hint", md->workgroup_size_hint, 3);
    return mb_finish(&m, b);
}

rdx_status rdx_codeobj_meta_encode(rdx_buf *b, const rdx_codeobj_target *t, unsigned version,
                                   const rdx_codeobj_kernel *ks, size_t n)
{
    rdx_buf tmp = { 0 };
    rdx_status st = rdx_msgpack_put_map(b, 3);
    if (!st)
        st = rdx_msgpack_put_cstr(b, "amdhsa.kernels");
    if (!st)
        st = rdx_msgpack_put_array(b, (uint32_t)n);
    for (size_t i = 0; !st && i < n; i++)
        st = encode_kernel(b, &ks[i], &tmp);
    if (!st)
        st = rdx_msgpack_put_cstr(b, "amdhsa.target");
    if (!st) {
        static const char prefix[] = "amdgcn-amd-amdhsa--";
        size_t tl = strlen(t->name);
        st = rdx_msgpack_put_str_header(b, sizeof prefix - 1 + tl);
        if (!st)
            st = rdx_buf_append(b, prefix, sizeof prefix - 1);
        if (!st)
            st = rdx_buf_append(b, t->name, tl);
    }
    if (!st)
        st = rdx_msgpack_put_cstr(b, "amdhsa.version");
    uint32_t v[2];
    rdx_codeobj_meta_version(version, v);
    if (!st)
        st = rdx_msgpack_put_array(b, 2);
    for (int i = 0; !st && i < 2; i++)
        st = rdx_msgpack_put_uint(b, v[i]);
    rdx_buf_free(&tmp);
    return st;
}

/* ------------------------------------------------------------ decoding */

typedef struct meta_ctx {
    const char *what;
    char path[96]; /* "amdhsa.kernels[3]" or "amdhsa.kernels[3].args[2]" */
} meta_ctx;

static rdx_status bad_type(const meta_ctx *c, const char *key, const char *want,
                           const rdx_msgpack_node *v)
{
    return rdx_fail(RDX_ERR_PARSE, "%s: metadata %s.%s: expected %s, got %s", c->what, c->path,
                    key[0] == '.' ? key + 1 : key, want, rdx_msgpack_kind_name(v->kind));
}

static rdx_status get_u32(const meta_ctx *c, const rdx_msgpack_node *m, const char *key,
                          bool required, uint32_t *out)
{
    const rdx_msgpack_node *v = rdx_msgpack_map_get(m, key);
    if (!v) {
        if (required)
            return rdx_fail(RDX_ERR_PARSE, "%s: metadata %s: missing required key %s", c->what,
                            c->path, key);
        return RDX_OK;
    }
    if (v->kind != RDX_MSGPACK_UINT)
        return bad_type(c, key, "an unsigned integer", v);
    if (v->v.u > UINT32_MAX)
        return rdx_fail(RDX_ERR_PARSE, "%s: metadata %s.%s: %" PRIu64 " does not fit in 32 bits",
                        c->what, c->path, key + 1, v->v.u);
    *out = (uint32_t)v->v.u;
    return RDX_OK;
}

static rdx_status get_i32(const meta_ctx *c, const rdx_msgpack_node *m, const char *key,
                          int32_t *out)
{
    const rdx_msgpack_node *v = rdx_msgpack_map_get(m, key);
    if (!v)
        return RDX_OK;
    if (v->kind == RDX_MSGPACK_UINT && v->v.u <= INT32_MAX)
        *out = (int32_t)v->v.u;
    else if (v->kind == RDX_MSGPACK_INT && v->v.i >= INT32_MIN)
        *out = (int32_t)v->v.i;
    else if (v->kind == RDX_MSGPACK_BOOL)
        *out = v->v.b;
    else
        return bad_type(c, key, "a 32-bit integer", v);
    return RDX_OK;
}

static rdx_status get_bool(const meta_ctx *c, const rdx_msgpack_node *m, const char *key, bool *out)
{
    const rdx_msgpack_node *v = rdx_msgpack_map_get(m, key);
    if (!v)
        return RDX_OK;
    if (v->kind == RDX_MSGPACK_BOOL)
        *out = v->v.b;
    else if (v->kind == RDX_MSGPACK_UINT && v->v.u <= 1)
        *out = v->v.u != 0;
    else
        return bad_type(c, key, "a boolean", v);
    return RDX_OK;
}

static rdx_status get_str(const meta_ctx *c, const rdx_msgpack_node *m, const char *key,
                          bool required, const char **out)
{
    const rdx_msgpack_node *v = rdx_msgpack_map_get(m, key);
    if (!v) {
        if (required)
            return rdx_fail(RDX_ERR_PARSE, "%s: metadata %s: missing required key %s", c->what,
                            c->path, key);
        return RDX_OK;
    }
    if (v->kind != RDX_MSGPACK_STR)
        return bad_type(c, key, "a string", v);
    if (strlen(v->v.str) != v->len)
        return rdx_fail(RDX_ERR_PARSE, "%s: metadata %s.%s: string contains a NUL byte", c->what,
                        c->path, key + 1);
    *out = v->v.str;
    return RDX_OK;
}

static rdx_status get_u32s(const meta_ctx *c, const rdx_msgpack_node *m, const char *key,
                           uint32_t max, uint32_t *out, uint32_t *count, bool exact)
{
    const rdx_msgpack_node *v = rdx_msgpack_map_get(m, key);
    if (!v)
        return RDX_OK;
    if (v->kind != RDX_MSGPACK_ARRAY)
        return bad_type(c, key, "an array", v);
    if (v->len > max || (exact && v->len != max))
        return rdx_fail(RDX_ERR_PARSE, "%s: metadata %s.%s: expected %s%u entries, got %u", c->what,
                        c->path, key + 1, exact ? "" : "at most ", max, v->len);
    for (uint32_t i = 0; i < v->len; i++) {
        const rdx_msgpack_node *e = &v->v.items[i];
        if (e->kind != RDX_MSGPACK_UINT || e->v.u > UINT32_MAX)
            return rdx_fail(RDX_ERR_PARSE,
                            "%s: metadata %s.%s[%u]: expected a 32-bit unsigned integer, got %s",
                            c->what, c->path, key + 1, i, rdx_msgpack_kind_name(e->kind));
        out[i] = (uint32_t)e->v.u;
    }
    if (count)
        *count = v->len;
    return RDX_OK;
}

static rdx_status decode_arg(meta_ctx *c, const rdx_msgpack_node *am, rdx_codeobj_arg *a)
{
    memset(a, 0, sizeof *a);
    if (am->kind != RDX_MSGPACK_MAP)
        return rdx_fail(RDX_ERR_PARSE, "%s: metadata %s: expected a map, got %s", c->what, c->path,
                        rdx_msgpack_kind_name(am->kind));
    rdx_status st;
    if ((st = get_str(c, am, ".name", false, &a->name)) ||
        (st = get_str(c, am, ".type_name", false, &a->type_name)) ||
        (st = get_str(c, am, ".value_kind", true, &a->value_kind)) ||
        (st = get_str(c, am, ".address_space", false, &a->address_space)) ||
        (st = get_str(c, am, ".access", false, &a->access)) ||
        (st = get_str(c, am, ".actual_access", false, &a->actual_access)) ||
        (st = get_u32(c, am, ".offset", true, &a->offset)) ||
        (st = get_u32(c, am, ".size", true, &a->size)) ||
        (st = get_u32(c, am, ".pointee_align", false, &a->pointee_align)) ||
        (st = get_bool(c, am, ".is_const", &a->is_const)) ||
        (st = get_bool(c, am, ".is_restrict", &a->is_restrict)) ||
        (st = get_bool(c, am, ".is_volatile", &a->is_volatile)) ||
        (st = get_bool(c, am, ".is_pipe", &a->is_pipe)))
        return st;
    return RDX_OK;
}

rdx_status rdx_codeobj_meta_decode_kernel(const rdx_msgpack_node *km, size_t index, rdx_arena *a,
                                          const char *what, rdx_codeobj_kernel_meta *out)
{
    meta_ctx c = { what, "" };
    rdx_codeobj_kernel_meta_init(out);
    snprintf(c.path, sizeof c.path, "amdhsa.kernels[%zu]", index);
    if (km->kind != RDX_MSGPACK_MAP)
        return rdx_fail(RDX_ERR_PARSE, "%s: metadata %s: expected a map, got %s", what, c.path,
                        rdx_msgpack_kind_name(km->kind));
    rdx_status st;
    if ((st = get_str(&c, km, ".name", true, &out->name)) ||
        (st = get_str(&c, km, ".symbol", true, &out->symbol)) ||
        (st = get_str(&c, km, ".language", false, &out->language)) ||
        (st = get_u32s(&c, km, ".language_version", 2, out->language_version,
                       &out->language_version_count, false)) ||
        (st =
             get_u32(&c, km, ".group_segment_fixed_size", false, &out->group_segment_fixed_size)) ||
        (st = get_u32(&c, km, ".private_segment_fixed_size", false,
                      &out->private_segment_fixed_size)) ||
        (st = get_u32(&c, km, ".kernarg_segment_size", false, &out->kernarg_segment_size)) ||
        (st = get_u32(&c, km, ".kernarg_segment_align", false, &out->kernarg_segment_align)) ||
        (st = get_u32(&c, km, ".wavefront_size", false, &out->wavefront_size)) ||
        (st = get_u32(&c, km, ".sgpr_count", false, &out->sgpr_count)) ||
        (st = get_u32(&c, km, ".vgpr_count", false, &out->vgpr_count)) ||
        (st = get_u32(&c, km, ".agpr_count", false, &out->agpr_count)) ||
        (st = get_u32(&c, km, ".sgpr_spill_count", false, &out->sgpr_spill_count)) ||
        (st = get_u32(&c, km, ".vgpr_spill_count", false, &out->vgpr_spill_count)) ||
        (st = get_u32(&c, km, ".max_flat_workgroup_size", false, &out->max_flat_workgroup_size)) ||
        (st = get_u32s(&c, km, ".reqd_workgroup_size", 3, out->reqd_workgroup_size, NULL, true)) ||
        (st = get_u32s(&c, km, ".workgroup_size_hint", 3, out->workgroup_size_hint, NULL, true)) ||
        (st = get_bool(&c, km, ".uses_dynamic_stack", &out->uses_dynamic_stack)) ||
        (st = get_i32(&c, km, ".workgroup_processor_mode", &out->workgroup_processor_mode)) ||
        (st = get_u32(&c, km, ".uniform_work_group_size", false, &out->uniform_work_group_size)))
        return st;
    const rdx_msgpack_node *args = rdx_msgpack_map_get(km, ".args");
    if (!args)
        return RDX_OK;
    if (args->kind != RDX_MSGPACK_ARRAY)
        return bad_type(&c, ".args", "an array", args);
    if (args->len == 0)
        return RDX_OK;
    rdx_codeobj_arg *list = rdx_arena_array(a, args->len, sizeof *list);
    if (!list)
        return RDX_ERR_NOMEM;
    size_t base = strlen(c.path);
    for (uint32_t i = 0; i < args->len; i++) {
        snprintf(c.path + base, sizeof c.path - base, ".args[%u]", i);
        if ((st = decode_arg(&c, &args->v.items[i], &list[i])))
            return st;
    }
    out->args = list;
    out->num_args = args->len;
    return RDX_OK;
}
