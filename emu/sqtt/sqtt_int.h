/*
 * emu/sqtt/sqtt_int.h — what the SQTT decoder's mapping and the encoder share: which
 * instructions issue no packet on a card (the mapping steps over them, the encoder
 * writes none).
 */
#ifndef RDX_EMU_SQTT_INT_H
#define RDX_EMU_SQTT_INT_H

#include <string.h>

/* s_delay_alu, s_wait_alu (gfx12) and s_barrier_wait (gfx12) issue no packet. */
static inline int sqtt_silent(const char *m)
{
    return !strcmp(m, "s_delay_alu") || !strcmp(m, "s_wait_alu") || !strcmp(m, "s_barrier_wait");
}

#endif /* RDX_EMU_SQTT_INT_H */
