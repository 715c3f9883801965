/* Cross-lane operations of a whole wave (uniform control flow, full waves):
 * lane id by v_mbcnt, ballot, v_readfirstlane/v_readlane, DPP16 (quad_perm,
 * row_shl/shr/ror, row_mirror/half_mirror, row_share, row_xmask, bound_ctrl),
 * v_permlane16/permlanex16, ds_bpermute (wave32), and a DPP + readlane wave sum. */
#include "rdx_cl.h"

__kernel void wave_ops(__global int *out, __global ulong *masks, __global const int *in)
{
    uint i = get_global_id(0);
    int x = in[i];
    uint ws = __builtin_amdgcn_wavefrontsize();
    uint lane = __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u));
    __global int *o = out + i * 14;
    o[0] = (int)(lane | ws << 8);
    o[1] = __builtin_amdgcn_readfirstlane(x);
    o[2] = __builtin_amdgcn_readlane(x, 5);
    o[3] = __builtin_amdgcn_readlane(x, ws - 1);
    o[4] = __builtin_amdgcn_update_dpp(0, x, 0x111, 0xf, 0xf, true);   /* row_shr:1 */
    o[5] = __builtin_amdgcn_update_dpp(-1, x, 0x1b, 0xf, 0xf, false);  /* quad_perm:[3,2,1,0] */
    o[6] = __builtin_amdgcn_update_dpp(7, x, 0x104, 0xf, 0xf, false);  /* row_shl:4 */
    o[7] = __builtin_amdgcn_update_dpp(0, x, 0x123, 0xf, 0xf, false);  /* row_ror:3 */
    o[8] = __builtin_amdgcn_update_dpp(0, x, 0x140, 0xf, 0xf, false) * 3 +
           __builtin_amdgcn_update_dpp(0, x, 0x141, 0xf, 0xf, false);  /* mirrors */
    o[9] = __builtin_amdgcn_update_dpp(0, x, 0x153, 0xf, 0xf, false) ^
           __builtin_amdgcn_update_dpp(0, x, 0x165, 0xf, 0xf, false);  /* share:3, xmask:5 */
    o[10] = __builtin_amdgcn_permlane16(0, x, 0x01234567u, 0x89abcdefu, false, false);
    o[11] = __builtin_amdgcn_permlanex16(0, x, 0x76543210u, 0xfedcba98u, false, false);
#if __AMDGCN_WAVEFRONT_SIZE == 32
    o[12] = __builtin_amdgcn_ds_bpermute((int)((lane ^ 5u) << 2), x);
    masks[i] = __builtin_amdgcn_ballot_w32(x > 0);
#else
    o[12] = 0;
    masks[i] = __builtin_amdgcn_ballot_w64(x > 0);
#endif
    /* inclusive scan within each row of 16 by row_shr, then the rows' last lanes */
    uint v = (uint)x;
    v += (uint)__builtin_amdgcn_update_dpp(0, (int)v, 0x111, 0xf, 0xf, true);
    v += (uint)__builtin_amdgcn_update_dpp(0, (int)v, 0x112, 0xf, 0xf, true);
    v += (uint)__builtin_amdgcn_update_dpp(0, (int)v, 0x114, 0xf, 0xf, true);
    v += (uint)__builtin_amdgcn_update_dpp(0, (int)v, 0x118, 0xf, 0xf, true);
    uint total = 0;
    for (uint row = 0; row < ws / 16; row++)
        total += (uint)__builtin_amdgcn_readlane((int)v, row * 16 + 15);
    o[13] = (int)(total ^ v);
}
