# libresolv-k8s: the single build entry point (GNU make).
#
#   make deps         install Debian packages; build c-ares and mimalloc per libc
#   make              the core for glibc and musl, and every artifact below
#   make test         everything a fresh machine needs, then every test
#   make fuzz         libFuzzer targets under build/fuzz/
#   make fuzz-smoke   each fuzz target briefly on its seed corpus
#
# Artifacts: build/glibc/libresolv-k8s.so, build/musl/libresolv-k8s.so,
# build/musl/libresolv-k8s.a, build/bin/resolv-k8s-server, build/bin/resolv-k8s.

SHELL := /bin/bash
.DEFAULT_GOAL := all
B ?= build
CXX := g++
CC := gcc
CLANGXX := clang++
MUSL_INC := /usr/include/x86_64-linux-musl
GCC_INC := $(shell $(CC) -print-file-name=include)

WARN := -Wall -Wextra -Wshadow -Wno-missing-field-initializers
# The core: freestanding C++20 (no exceptions, no RTTI, no libstdc++ at all).
CORE_FLAGS := -std=c++20 -O2 -g -fPIC -nostdinc++ -fno-exceptions -fno-rtti \
  -fno-threadsafe-statics -fvisibility=hidden -fvisibility-inlines-hidden \
  -fstack-protector-strong $(WARN) -Iinclude -Ilibresolv-k8s
MUSL_FLAGS := -nostdinc -isystem $(MUSL_INC) -isystem $(GCC_INC)
# Tests and tools: ordinary C++ with the full standard library (glibc only).
HOST_FLAGS := -std=c++20 -O2 -g $(WARN) -Iinclude -Ilibresolv-k8s -pthread
FUZZ_FLAGS := -std=c++20 -O1 -g -fsanitize=fuzzer,address,undefined -Iinclude -Ilibresolv-k8s

CORE_SRC := $(wildcard libresolv-k8s/*.cc)
# The libc entry points we stand in front of (and export, and nothing else).
ENTRY_POINTS := $(shell sed -n 's/^ *\([a-z0-9_]*\);$$/\1/p' preload/exports.map)

# Core objects, once per libc. Other directories compiled the same way
# (preload/) reuse these rules through their own object lists.
$(B)/obj/glibc/%.o: %.cc
	@mkdir -p $(@D)
	$(CXX) $(CORE_FLAGS) -MMD -MP -c $< -o $@
$(B)/obj/musl/%.o: %.cc
	@mkdir -p $(@D)
	$(CXX) $(CORE_FLAGS) $(MUSL_FLAGS) -MMD -MP -c $< -o $@
$(B)/obj/host/%.o: %.cc
	@mkdir -p $(@D)
	$(CXX) $(HOST_FLAGS) -MMD -MP -c $< -o $@

CORE_LIBS := $(B)/glibc/libresolv-k8s-core.a $(B)/musl/libresolv-k8s-core.a
$(B)/glibc/libresolv-k8s-core.a: $(CORE_SRC:%.cc=$(B)/obj/glibc/%.o)
$(B)/musl/libresolv-k8s-core.a: $(CORE_SRC:%.cc=$(B)/obj/musl/%.o)
$(CORE_LIBS):
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

# Unit tests of the core (GoogleTest), linked against the glibc build.
CORE_TEST_SRC := $(wildcard tests/core/*_test.cc)
$(B)/tests/core-tests: $(CORE_TEST_SRC:%.cc=$(B)/obj/host/%.o) $(B)/glibc/libresolv-k8s-core.a
	@mkdir -p $(@D)
	$(CXX) -pthread -o $@ $^ -lgtest -lgtest_main

FUZZ_SRC := $(wildcard fuzz/*_fuzz.cc)
FUZZ_BIN := $(FUZZ_SRC:fuzz/%.cc=$(B)/fuzz/%)
FUZZ_CORE_SRC := $(shell grep -L -e '<ares.h>' -e '"channel.h"' $(CORE_SRC))
FUZZ_CORE := $(B)/obj/fuzz/libresolv-k8s-core.a

# The artifacts fragments name in each other's rules (mk/ is read in
# alphabetical order, so they are defined here, before any of it).
PRELOAD_SO := $(B)/glibc/libresolv-k8s.so $(B)/musl/libresolv-k8s.so
SERVER_BIN := $(B)/bin/resolv-k8s-server
TOOL_BIN := $(B)/bin/resolv-k8s
GAI_PROBES := $(B)/tests/gai-probe-glibc $(B)/tests/gai-probe-musl $(B)/tests/gai-probe-musl-static

ALL := $(CORE_LIBS)
TESTS := test-core test-musl-link

include $(wildcard mk/*.mk)

# libFuzzer targets: fuzz/NAME_fuzz.cc -> build/fuzz/NAME_fuzz, linked with
# the core built once with the sanitizers (minus the transport: it needs
# c-ares and parses nothing).
$(B)/obj/fuzz/%.o: %.cc
	@mkdir -p $(@D)
	$(CLANGXX) $(subst =fuzzer,=fuzzer-no-link,$(FUZZ_FLAGS)) -MMD -MP -c $< -o $@
$(FUZZ_CORE): $(FUZZ_CORE_SRC:%.cc=$(B)/obj/fuzz/%.o)
	rm -f $@ && ar rcs $@ $^
$(B)/fuzz/%: fuzz/%.cc $(FUZZ_CORE)
	@mkdir -p $(@D)
	$(CLANGXX) $(FUZZ_FLAGS) $< $(FUZZ_CORE) -o $@

.PHONY: all deps test fuzz fuzz-smoke test-core test-musl-link clean
all: $(ALL)
fuzz: $(FUZZ_BIN)

test-core: $(B)/tests/core-tests
	$(B)/tests/core-tests --gtest_brief=1

# The freestanding proof: a C program, musl-gcc, a fully static link.
test-musl-link: $(B)/musl/libresolv-k8s-core.a
	@mkdir -p $(B)/tests
	musl-gcc -static -Os -Iinclude tests/musl-link/probe.c $< -o $(B)/tests/musl-link-probe
	$(B)/tests/musl-link-probe

FUZZ_SECONDS ?= 10
fuzz-smoke: $(FUZZ_BIN)
	@set -e; for f in $(FUZZ_BIN); do n=$$(basename $$f); \
	  mkdir -p $(B)/fuzz/work/$$n; \
	  echo "fuzz-smoke $$n ($(FUZZ_SECONDS) s)"; \
	  $$f -max_total_time=$(FUZZ_SECONDS) -print_final_stats=0 $(B)/fuzz/work/$$n fuzz/corpus/$$n 2>$(B)/fuzz/work/$$n.log \
	    || { tail -40 $(B)/fuzz/work/$$n.log; exit 1; }; \
	done

test: deps
	$(MAKE) all fuzz
	@set -e; n=0; for t in $(TESTS) fuzz-smoke; do \
	  echo "== $$t"; $(MAKE) --no-print-directory $$t; n=$$((n + 1)); \
	done; echo "test: $$n passed, 0 failed"

clean:
	rm -rf $(B)/obj $(B)/glibc $(B)/musl $(B)/bin $(B)/tests $(B)/fuzz

-include $(shell find $(B)/obj -name '*.d' 2>/dev/null)
