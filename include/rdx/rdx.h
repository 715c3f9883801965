/*
 * rdx/rdx.h — umbrella header: includes every public rdx header (a test
 * checks that the list is complete and that they compile together).
 */
#ifndef RDX_RDX_H
#define RDX_RDX_H

#include <rdx/alloc.h>
#include <rdx/asm.h>
#include <rdx/codegen.h>
#include <rdx/codegen_front.h>
#include <rdx/collective.h>
#include <rdx/codeobj.h>
#include <rdx/emu.h>
#include <rdx/emu_prof.h>
#include <rdx/emudev.h>
#include <rdx/interp.h>
#include <rdx/ir.h>
#include <rdx/isa.h>
#include <rdx/isa_ops.h>
#include <rdx/kfd.h>
#include <rdx/os.h>
#include <rdx/pm4.h>
#include <rdx/pm4_defs.h>
#include <rdx/pm4_prof.h>
#include <rdx/queue_prof.h>
#include <rdx/realize.h>
#include <rdx/realize_multi.h>
#include <rdx/runtime.h>
#include <rdx/sqtt.h>
#include <rdx/status.h>
#include <rdx/tensor.h>
#include <rdx/version.h>

#endif /* RDX_RDX_H */
