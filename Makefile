# rdx — top-level Makefile.  See README.md for the targets.
#
#   make                 build/librdx.a, build/librdx.so, build/rdx
#   make check           build and run every Check suite (tests/<suite>/*.c)
#   make asan            the same suite under ASan+UBSan, in build/asan/
#   make tsan            the threaded suites under ThreadSanitizer (clang-19), in
#                        build/tsan/ (not in CI; suppressions: tests/tsan.supp)
#   make bench           build and run every benchmark (bench/<name>/*.c)
#   make install PREFIX=/usr/local
#   make format | format-check
#
# Sources are found by directory: every .c file in the library folders is
# part of librdx, tests/<suite>/*.c is one Check binary per suite, and
# bench/<name>/*.c one benchmark binary.  Adding a file needs no edit here.

VERSION   := 0.1.0
SOVERSION := 0

PREFIX  ?= /usr/local
DESTDIR ?=
BUILD   ?= build
CC      ?= cc

# A fresh machine needs no step before any target: the first make run installs
# what is missing (scripts/setup is silent when all is present).
ifeq ($(MAKELEVEL),0)
ifneq ($(filter-out clean,$(or $(MAKECMDGOALS),all)),)
SETUP_FAILED := $(shell scripts/setup >&2 || echo yes)
ifeq ($(SETUP_FAILED),yes)
$(error scripts/setup failed; see above)
endif
endif
endif

PKGS := libdrm libdrm_amdgpu libelf
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
CHECK_CFLAGS := $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS   := $(shell pkg-config --libs check 2>/dev/null)

OPT      ?= -O2
SANITIZE ?=
CSTD     := -std=gnu11
WARN     := -Wall -Wextra -Werror
CPPFLAGS += -Iinclude -I. -Ikfd/compat -D_GNU_SOURCE
CFLAGS   ?=
ALL_CFLAGS = $(CSTD) $(OPT) -g $(WARN) -fPIC -pthread $(SANITIZE) $(PKG_CFLAGS) $(CFLAGS)
LDLIBS_ALL = $(PKG_LIBS) -lpthread -lm
LDFLAGS  ?=

LIB_DIRS := util ir codegen isa alloc pm4 kfd runtime emu realize
LIB_SRCS := $(sort $(foreach d,$(LIB_DIRS),$(wildcard $(d)/*.c $(d)/*/*.c)))
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/obj/%.o)

TOOL_SRCS := $(sort $(wildcard tools/*.c))
TOOL_OBJS := $(TOOL_SRCS:%.c=$(BUILD)/obj/%.o)

HARNESS_SRCS := $(sort $(wildcard tests/harness/*.c))
HARNESS_OBJS := $(HARNESS_SRCS:%.c=$(BUILD)/obj/%.o)
# tests/oracle/ is a shared test library, not a suite: the clang-vs-host kernel
# oracle, built once and linked into the suites listed in ORACLE_USERS.
ORACLE_OBJS  := $(patsubst %.c,$(BUILD)/obj/%.o,$(sort $(wildcard tests/oracle/*.c)))
ORACLE_USERS := emu_oracle runtime
SUITES := $(sort $(filter-out harness data oracle,$(patsubst tests/%/,%,$(dir $(wildcard tests/*/*.c)))))
SUITE_BINS := $(SUITES:%=$(BUILD)/tests/%)
# Suites that `make check` also runs under `rdx emu` (the libc OS table through the interposer;
# not again in `make asan`, where tests/preload covers the interposer, to keep CI's time).
EMU_SUITES := $(if $(SANITIZE),,realize)
# ... and again on the amdgpu DRM path (RDX_SUBMIT=drm, docs/drm.md).
EMU_DRM_SUITES := $(if $(SANITIZE),,realize)
# suites run again with the emulated GPU of another target (RDX_EMU_ARCH): RDNA3.5 and RDNA4
ARCH_SUITES := $(if $(SANITIZE),,$(foreach a,gfx1151 gfx1201,arch:$(a):$(BUILD)/tests/realize))

BENCHES := $(sort $(filter-out common,$(patsubst bench/%/,%,$(dir $(wildcard bench/*/*.c)))))
BENCH_COMMON_SRCS := $(sort $(wildcard bench/common/*.c))
BENCH_COMMON_OBJS := $(BENCH_COMMON_SRCS:%.c=$(BUILD)/obj/%.o)
BENCH_BINS := $(BENCHES:%=$(BUILD)/bench/%)

# examples/*.c: small programs over the public API, one binary each (`make examples`).
EXAMPLE_BINS := $(patsubst examples/%.c,$(BUILD)/examples/%,$(sort $(wildcard examples/*.c)))

# examples/mpi/*.c: examples across processes over MPI, built when Open MPI is installed
# (scripts/setup installs Debian's; without it they are left out and tests/mpi says so).
MPI_OK     := $(shell pkg-config --exists ompi-c 2>/dev/null && echo yes)
MPI_CFLAGS := $(if $(MPI_OK),$(shell pkg-config --cflags ompi-c))
MPI_LIBS   := $(if $(MPI_OK),$(shell pkg-config --libs ompi-c))
MPI_EXAMPLE_BINS := $(if $(MPI_OK),$(patsubst examples/mpi/%.c,$(BUILD)/examples/mpi/%,$(sort $(wildcard examples/mpi/*.c))))

# preload/: librdx-emu.so, the interposer behind `rdx emu` (not part of librdx): the
# library's objects linked in, with only the libc entry points it serves exported.
PRELOAD_SRCS := $(sort $(wildcard preload/*.c))
PRELOAD_OBJS := $(PRELOAD_SRCS:%.c=$(BUILD)/obj/%.o)
PRELOAD      := $(BUILD)/librdx-emu.so

STATIC := $(BUILD)/librdx.a
SHARED := $(BUILD)/librdx.so.$(VERSION)
RDX    := $(BUILD)/rdx

CLANG_FORMAT ?= $(shell command -v clang-format-19 || command -v clang-format)
FORMAT_SRCS = $(shell find include util ir codegen isa alloc pm4 kfd runtime emu realize preload tools tests bench fuzz examples \
    \( -name '*.c' -o -name '*.h' \) -not -path '*/gen/*' -not -path 'tests/data/*' 2>/dev/null | sort)

# rdx's main job end to end on the default device (see scripts/demo).
demo: all examples
	@RDX_BUILD=$(BUILD) scripts/demo

.PHONY: all demo check asan tsan bench install uninstall format format-check setup clean tests benches examples
.DEFAULT_GOAL := all

all: $(STATIC) $(BUILD)/librdx.so $(RDX) $(PRELOAD)

# scripts/setup installs missing Debian packages; a no-op when all are there.
setup:
	@scripts/setup

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

$(STATIC): $(LIB_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $^

$(SHARED): $(LIB_OBJS)
	@mkdir -p $(dir $@)
	$(CC) -shared -Wl,-soname,librdx.so.$(SOVERSION) $(SANITIZE) $(LDFLAGS) -o $@ $^ $(LDLIBS_ALL)

$(BUILD)/librdx.so: $(SHARED)
	ln -sf librdx.so.$(VERSION) $(BUILD)/librdx.so.$(SOVERSION)
	ln -sf librdx.so.$(VERSION) $@

$(PRELOAD): $(PRELOAD_OBJS) $(LIB_OBJS) preload/exports.map
	$(CC) -shared $(SANITIZE) $(LDFLAGS) -Wl,--version-script=preload/exports.map -o $@ \
	    $(PRELOAD_OBJS) $(LIB_OBJS) $(LDLIBS_ALL) -ldl

$(RDX): $(TOOL_OBJS) $(STATIC)
	$(CC) $(SANITIZE) -pthread $(LDFLAGS) -o $@ $(TOOL_OBJS) $(STATIC) $(LDLIBS_ALL)

# One Check binary per tests/<suite>/ directory.
# Object files of a list of sources (a variable: '%' in a pattern rule's
# prerequisites would be taken for the stem).
objs_of = $(patsubst %.c,$(BUILD)/obj/%.o,$(1))

.SECONDARY:
.SECONDEXPANSION:
$(BUILD)/tests/%: $$(call objs_of,$$(wildcard tests/$$*/*.c)) $(HARNESS_OBJS) $(STATIC)
	@mkdir -p $(dir $@)
	$(CC) $(SANITIZE) -pthread $(LDFLAGS) -o $@ $(filter %.o,$^) $(STATIC) $(CHECK_LIBS) $(LDLIBS_ALL)

$(ORACLE_USERS:%=$(BUILD)/tests/%): $(ORACLE_OBJS)

$(BUILD)/bench/%: $$(call objs_of,$$(wildcard bench/$$*/*.c)) $(BENCH_COMMON_OBJS) $(STATIC)
	@mkdir -p $(dir $@)
	$(CC) $(SANITIZE) -pthread $(LDFLAGS) -o $@ $(filter %.o,$^) $(STATIC) $(LDLIBS_ALL)

$(BUILD)/examples/%: $(BUILD)/obj/examples/%.o $(STATIC)
	@mkdir -p $(dir $@)
	$(CC) $(SANITIZE) -pthread $(LDFLAGS) -o $@ $< $(STATIC) $(LDLIBS_ALL)

$(BUILD)/examples/mpi/%: $(BUILD)/obj/examples/mpi/%.o $(STATIC)
	@mkdir -p $(dir $@)
	$(CC) $(SANITIZE) -pthread $(LDFLAGS) -o $@ $< $(STATIC) $(MPI_LIBS) $(LDLIBS_ALL)

$(BUILD)/obj/examples/mpi/%.o: CFLAGS += $(MPI_CFLAGS)
$(BUILD)/obj/tests/%.o: CFLAGS += $(CHECK_CFLAGS)

examples: $(EXAMPLE_BINS) $(MPI_EXAMPLE_BINS)
# (fuzz-realize: tests/realize runs it, its time limits)
tests: $(SUITE_BINS) $(RDX) $(EXAMPLE_BINS) $(MPI_EXAMPLE_BINS) $(BUILD)/fuzz-syntax.stamp \
    $(BUILD)/fuzz-realize
benches: $(BENCH_BINS) $(RDX)

check:
	@$(MAKE) --no-print-directory all tests
	@RDX_BUILD=$(BUILD) RDX_CC="$(CC)" RDX_SANITIZE="$(SANITIZE)" scripts/run-tests $(SUITE_BINS) \
	    $(EMU_SUITES:%=emu:$(BUILD)/tests/%) $(EMU_DRM_SUITES:%=emu-drm:$(BUILD)/tests/%) \
	    $(ARCH_SUITES)

asan:
	@$(MAKE) --no-print-directory BUILD=build/asan OPT=-O1 \
	    SANITIZE="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
	    CC="$(CC)" check

# The suites whose code runs on several threads: the emulated device's command
# processor, the wave emulator's workgroup threads, the runtime's submitters.
TSAN_SUITES ?= kfd runtime emu
TSAN_CC     ?= clang-19
TSAN_FLAGS  := -fsanitize=thread -fno-omit-frame-pointer
tsan:
	@$(MAKE) --no-print-directory BUILD=build/tsan OPT=-O1 CC="$(TSAN_CC)" SANITIZE="$(TSAN_FLAGS)" \
	    build/tsan/rdx $(TSAN_SUITES:%=build/tsan/tests/%)
	@TSAN_OPTIONS="suppressions=$(CURDIR)/tests/tsan.supp second_deadlock_stack=1 $(TSAN_OPTIONS)" \
	    RDX_BUILD=build/tsan RDX_CC="$(TSAN_CC)" RDX_SANITIZE="$(TSAN_FLAGS)" \
	    CK_TIMEOUT_MULTIPLIER=$${CK_TIMEOUT_MULTIPLIER:-10} \
	    scripts/run-tests $(TSAN_SUITES:%=build/tsan/tests/%)

bench:
	@$(MAKE) --no-print-directory all benches
	@RDX_BUILD=$(BUILD) scripts/run-bench $(BENCH_BINS)

install: all
	install -d $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include/rdx \
	    $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 644 $(STATIC) $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(SHARED) $(DESTDIR)$(PREFIX)/lib/
	ln -sf librdx.so.$(VERSION) $(DESTDIR)$(PREFIX)/lib/librdx.so.$(SOVERSION)
	ln -sf librdx.so.$(VERSION) $(DESTDIR)$(PREFIX)/lib/librdx.so
	install -m 644 include/rdx/*.h $(DESTDIR)$(PREFIX)/include/rdx/
	install -m 755 $(RDX) $(DESTDIR)$(PREFIX)/bin/
	install -d $(DESTDIR)$(PREFIX)/lib/rdx
	install -m 755 $(PRELOAD) $(DESTDIR)$(PREFIX)/lib/rdx/
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' \
	    -e 's|@REQUIRES@|$(PKGS)|g' rdx.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/rdx.pc

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/lib/librdx.a $(DESTDIR)$(PREFIX)/lib/librdx.so*
	rm -rf $(DESTDIR)$(PREFIX)/include/rdx $(DESTDIR)$(PREFIX)/lib/rdx
	rm -f $(DESTDIR)$(PREFIX)/bin/rdx $(DESTDIR)$(PREFIX)/lib/pkgconfig/rdx.pc

format:
	$(CLANG_FORMAT) -i $(FORMAT_SRCS)

format-check:
	@out=$$($(CLANG_FORMAT) --dry-run $(FORMAT_SRCS) 2>&1); \
	if [ -n "$$out" ]; then echo "$$out" | head -40; \
	  echo "format-check: files need clang-format (run 'make format')"; exit 1; fi; \
	echo "format-check: $(words $(FORMAT_SRCS)) files clean"

# --- fuzz targets: fuzz/<name>.c, each a libFuzzer entry point, built with
# clang-19 -fsanitize=fuzzer,address,undefined against the library sources.
FUZZ_CC   ?= clang-19
FUZZ_SRCS := $(sort $(wildcard fuzz/*.c))
FUZZ_BINS := $(FUZZ_SRCS:fuzz/%.c=build/fuzz/%)
.PHONY: fuzz
fuzz: $(FUZZ_BINS)
build/fuzz/%: fuzz/%.c $(LIB_SRCS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CPPFLAGS) $(CSTD) -O1 -g -fsanitize=fuzzer,address,undefined $(PKG_CFLAGS) \
	    -o $@ $< $(LIB_SRCS) $(LDLIBS_ALL)

# --- isa tables (isa-core): regenerate the committed instruction tables from
# isa/data/*.json and isa/targets/ (python3, standard library only).
.PHONY: isa-tables
isa-tables:
	python3 scripts/gen_isa_tables.py

# --- the emulator's fidelity table (emu/core/fidelity.def) from the committed
# tests/data/fidelity/tinygrad_hw.txt and tests/emu/check_silicon.c; with
# TINYGRAD=DIR (a tinygrad checkout) the data file is extracted again first.
.PHONY: fidelity
fidelity:
	python3 scripts/gen_fidelity.py $(if $(TINYGRAD),--tinygrad $(TINYGRAD))

clean:
	rm -rf build

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)

# --- rdx as: legacy mnemonics llvm-mc accepts (isa/asm/aliases.inc), verified by llvm-mc.
.PHONY: asm-aliases
asm-aliases:
	python3 scripts/gen_asm_aliases.py --llvm-mc $(or $(wildcard /usr/lib/llvm-19/bin/llvm-mc),llvm-mc)

# the libFuzzer targets are built only by `make fuzz` (clang, sanitizers): `make check`
# at least compiles them (-fsyntax-only, the project's warnings) so they cannot rot
$(BUILD)/fuzz-syntax.stamp: $(FUZZ_SRCS) $(wildcard include/rdx/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(PKG_CFLAGS) -fsyntax-only $(FUZZ_SRCS)
	@touch $@

# --- fuzz-realize: the stand-alone differential fuzzer of the code generator
# (fuzz/fuzz_realize.c against librdx; `make fuzz` also builds it for libFuzzer).
.PHONY: fuzz-realize
fuzz-realize: $(BUILD)/fuzz-realize
$(BUILD)/fuzz-realize: fuzz/fuzz_realize.c $(STATIC)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -DRDX_FUZZ_STANDALONE -o $@ $< $(STATIC) $(LDLIBS_ALL)

# --- fuzz-asm: the randomized assembler differential test against llvm-mc, long
# (scripts/asm-diff; a new seed each run, printed; `make check` runs a fixed one).
.PHONY: fuzz-asm
fuzz-asm:
	scripts/asm-diff --count $(or $(ASM_DIFF_COUNT),100000) --seed $(or $(ASM_DIFF_SEED),$$(date +%s))
fuzz: fuzz-asm
