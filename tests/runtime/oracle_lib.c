/*
 * tests/runtime/oracle_lib.c — the kernel oracle of tests/emu_oracle (its
 * library files, without its Check main), linked into this suite.
 */
#include "tests/emu_oracle/compare.c"
#include "tests/emu_oracle/compile.c"
#include "tests/emu_oracle/emu_direct.c"
#include "tests/emu_oracle/hostrun.c"
#include "tests/emu_oracle/jobs.c"
#include "tests/emu_oracle/manifest.c"
#include "tests/emu_oracle/metadata.c"
#include "tests/emu_oracle/oracle.c"
#include "tests/emu_oracle/run.c"
