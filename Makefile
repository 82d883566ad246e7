# SPDX-License-Identifier: Apache-2.0
# libresolv-k8s: the single build entry point (GNU make).
#
#   make deps         install Debian packages; build c-ares and mimalloc per libc
#                     (make deps-build: only what the build and make demo need)
#   make              the core for glibc and musl, and every artifact below
#   make test         everything a fresh machine needs, then every test
#   make install      PREFIX (/usr/local) and DESTDIR, the GNU way
#   make fuzz         libFuzzer targets under build/fuzz/
#   make fuzz-smoke   each fuzz target briefly on its seed corpus
#
# Each component has its fragment in mk/, read in the order below: a
# fragment names only what the fragments before it define.

SHELL := /bin/bash
.DEFAULT_GOAL := all
B ?= build
# The toolchain of ARCH: amd64, the machine's own, or arm64, Debian's cross
# compilers (`make ARCH=arm64 B=build/arm64 TARGET...`; the images build
# it so). CROSS prefixes the compilers and binutils, MUSL_CC is musl-gcc of
# that arch (the cross gcc with Debian's musl specs for arm64).
ARCH ?= amd64
ifeq ($(ARCH),amd64)
CROSS :=
MUSL_CC := musl-gcc
MUSL_TRIPLE := x86_64-linux-musl
DEV_LIBS = $(1)
else ifeq ($(ARCH),arm64)
CROSS := aarch64-linux-gnu-
MUSL_CC := aarch64-linux-musl-gcc
MUSL_TRIPLE := aarch64-linux-musl
# gcc's outline atomics start with libgcc's __getauxval call, which musl
# lacks: musl code inlines its atomics.
MUSL_ARCH_FLAGS := -mno-outline-atomics
# libyaml-cpp-dev and libevent-dev are not Multi-Arch: same, so their arm64
# builds cannot sit beside the amd64 ones: the headers (the same on both)
# are the amd64 packages', the arm64 libraries are linked by file name.
DEV_LIBS = $(patsubst -lyaml-cpp,-l:libyaml-cpp.so.0.7,$(patsubst -levent%,-l:libevent%-2.1.so.7,$(1)))
else
$(error ARCH=$(ARCH): amd64 or arm64)
endif
CXX := $(CROSS)g++
CC := $(CROSS)gcc
AR := $(CROSS)ar
CLANGXX := clang++
MUSL_INC := /usr/include/$(MUSL_TRIPLE)
GCC_INC := $(shell $(CC) -print-file-name=include)

WARN := -Wall -Wextra -Wshadow -Wno-missing-field-initializers
# The core: freestanding C++20 (no exceptions, no RTTI, no libstdc++ at all).
CORE_FLAGS := -std=c++20 -O2 -g -fPIC -nostdinc++ -fno-exceptions -fno-rtti \
  -fno-threadsafe-statics -fvisibility=hidden -fvisibility-inlines-hidden \
  -fstack-protector-strong $(WARN) -Iinclude -Ilibresolv-k8s
MUSL_FLAGS := -nostdinc -isystem $(MUSL_INC) -isystem $(GCC_INC) $(MUSL_ARCH_FLAGS)
# Tests, tools and the server: C++ with the full standard library (glibc only).
HOST_FLAGS := -std=c++20 -O2 -g $(WARN) -Iinclude -Ilibresolv-k8s -I. -pthread
FUZZ_FLAGS := -std=c++20 -O1 -g -fsanitize=fuzzer,address,undefined -Iinclude -Ilibresolv-k8s -I.
# The files a program of the images is linked from, as ld reads them, in
# $@.inputs: the images name the Debian packages of those linked statically
# (container/images/deb-status.sh).
LINK_TRACE = -Wl,--trace > $@.inputs

# Objects, by the build they belong to: the core's two (glibc PIC for the
# .so, musl headers for the musl .so and the static archive), the host's,
# the fuzzers'.
$(B)/obj/glibc/%.o: %.cc
	@mkdir -p $(@D)
	$(CXX) $(CORE_FLAGS) -MMD -MP -c $< -o $@
$(B)/obj/musl/%.o: %.cc
	@mkdir -p $(@D)
	$(CXX) $(CORE_FLAGS) $(MUSL_FLAGS) -MMD -MP -c $< -o $@
$(B)/obj/host/%.o: %.cc
	@mkdir -p $(@D)
	$(CXX) $(HOST_FLAGS) -MMD -MP -c $< -o $@
$(B)/obj/fuzz/%.o: %.cc
	@mkdir -p $(@D)
	$(CLANGXX) $(subst =fuzzer,=fuzzer-no-link,$(FUZZ_FLAGS)) -MMD -MP -c $< -o $@

ALL :=
TESTS :=

include mk/deps.mk mk/core.mk mk/api.mk mk/preload.mk mk/musl.mk mk/common.mk mk/server.mk \
  mk/tools.mk mk/fuzz.mk mk/fuzz-diff.mk mk/pod.mk mk/libcs.mk mk/oracles.mk mk/glibc-suite.mk mk/faults.mk \
  mk/node.mk mk/coredns.mk mk/sanitize.mk mk/images.mk mk/container.mk mk/bench.mk mk/bench-node.mk \
  mk/bench-cluster.mk mk/demo.mk mk/install.mk mk/release.mk mk/cluster.mk

.PHONY: all deps test check clean
all: $(ALL)

# run_suites,TARGETS: each in turn, stopping at the first that fails.
run_suites = @set -e; for t in $(1); do echo "== $$t"; $(MAKE) --no-print-directory $$t; done; \
  echo "$@: $(words $(1)) passed, 0 failed"

# The inner loop: the unit tests and the quickest sandbox suites, a few
# minutes on a built tree; `make test` runs everything.
CHECKS := test-core test-transport test-server-unit test-tools-unit test-api test-glibc-floor test-exports \
  test-tools test-glibc-autopath test-musl test-hostent test-res-search test-node-cache test-node-prefetch
check: deps
	$(call run_suites,$(CHECKS))

# make test: every suite, in two lanes side by side (one make, -j2, so
# what both lanes need is built once): TEST_LANE_B, the images, the
# containers, the libc matrix and the fuzzers' smoke, which build and
# download; TEST_LANE_A, the rest in their order, each in sandboxes of its
# own. In a lane a suite starts when the one before it has passed; the
# first that fails stops both.
TEST_LANE_B := test-libcs test-images test-arm64 test-podman test-container test-chart test-release test-webhook test-cluster fuzz-smoke
TEST_LANE_A := $(patsubst test-node,$(NODE_TESTS),$(patsubst test-faults,$(FAULT_TESTS),\
  $(filter-out $(TEST_LANE_B),$(TESTS))))
ifdef TEST_LANES
lane_order = $(if $(word 2,$(1)),$(eval $(word 2,$(1)): | $(word 1,$(1)))$(call lane_order,$(wordlist 2,$(words $(1)),$(1))))
$(call lane_order,$(TEST_LANE_A))
$(call lane_order,$(TEST_LANE_B))
endif
.PHONY: test-lanes
test-lanes: $(lastword $(TEST_LANE_A)) $(lastword $(TEST_LANE_B))
	@skipped=$$(sort -u $(RK8S_SKIPPED) 2>/dev/null | wc -l); \
	  echo "test: $$(($(words $(TEST_LANE_A) $(TEST_LANE_B)) - skipped)) passed, 0 failed, $$skipped skipped"; \
	  if [ "$$skipped" -gt 0 ] && [ -n "$${CI:-}" ] && [ "$$CI" != false ]; then \
	    echo "test: skipped on CI, where the Makefile installs every tool: $$(sort -u $(RK8S_SKIPPED) | xargs)"; \
	    exit 1; \
	  fi

# Each suite that could run none of its checks names itself there
# (tests/lib/assert.sh, skip): counted as skipped, not passed; on CI (CI
# set, not false), where the Makefile installs every tool, a skip fails.
export RK8S_SKIPPED := $(abspath $(B))/skipped-suites
test: deps
	@rm -f $(RK8S_SKIPPED)
	$(MAKE) all fuzz
	$(MAKE) -j2 --output-sync=target --no-print-directory TEST_LANES=1 test-lanes

clean:
	rm -rf $(B)/obj $(B)/glibc $(B)/musl $(B)/bin $(B)/lib $(B)/tests $(B)/fuzz $(B)/arm64

-include $(shell find $(B)/obj -name '*.d' 2>/dev/null)
