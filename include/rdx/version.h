/*
 * rdx/version.h — library version.
 */
#ifndef RDX_VERSION_H
#define RDX_VERSION_H

#ifdef __cplusplus
extern "C" {
#endif

#define RDX_VERSION_MAJOR  0
#define RDX_VERSION_MINOR  1
#define RDX_VERSION_PATCH  0
#define RDX_VERSION_STRING "0.1.0"

/* The version of the library actually linked, e.g. "0.1.0".  Static string. */
const char *rdx_version(void);

#ifdef __cplusplus
}
#endif

#endif /* RDX_VERSION_H */
