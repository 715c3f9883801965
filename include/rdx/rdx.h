/*
 * rdx/rdx.h — umbrella header: includes every public rdx header.
 */
#ifndef RDX_RDX_H
#define RDX_RDX_H

#include <rdx/codeobj.h>
#include <rdx/status.h>
#include <rdx/version.h>

#endif /* RDX_RDX_H */
