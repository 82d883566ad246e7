# SPDX-License-Identifier: Apache-2.0
# The core (libresolv-k8s/, one folder per layer): an archive per libc, its
# unit tests, the transport's tests and the freestanding proof.

CORE_SRC := $(wildcard libresolv-k8s/*/*.cc)
CORE_A := $(B)/glibc/libresolv-k8s-core.a
CORE_MUSL_A := $(B)/musl/libresolv-k8s-core.a
ALL += $(CORE_A) $(CORE_MUSL_A)

# The transport is the one layer that includes c-ares.
TRANSPORT_SRC := $(wildcard libresolv-k8s/transport/*.cc)
$(TRANSPORT_SRC:%.cc=$(B)/obj/glibc/%.o): CORE_FLAGS += $(call THIRD_PARTY_FLAGS,glibc)
$(TRANSPORT_SRC:%.cc=$(B)/obj/musl/%.o): CORE_FLAGS += $(call THIRD_PARTY_FLAGS,musl)
$(TRANSPORT_SRC:%.cc=$(B)/obj/glibc/%.o): | $(call THIRD_PARTY_LIBS,glibc)
$(TRANSPORT_SRC:%.cc=$(B)/obj/musl/%.o): | $(call THIRD_PARTY_LIBS,musl)

$(CORE_A): $(CORE_SRC:%.cc=$(B)/obj/glibc/%.o)
$(CORE_MUSL_A): $(CORE_SRC:%.cc=$(B)/obj/musl/%.o)
$(CORE_A) $(CORE_MUSL_A):
	@mkdir -p $(@D)
	rm -f $@ && $(AR) rcs $@ $^

# Unit tests (GoogleTest), one folder per layer of the core, linked against
# the glibc build. The transport's are a program of their own: they run in a
# private network namespace, with responders on 127.0.0.x port 53.
TRANSPORT_TEST_SRC := $(wildcard tests/core/transport/*_test.cc)
CORE_TEST_SRC := $(filter-out $(TRANSPORT_TEST_SRC),$(wildcard tests/core/*/*_test.cc))
$(B)/tests/core-tests: $(CORE_TEST_SRC:%.cc=$(B)/obj/host/%.o) $(CORE_A)
	@mkdir -p $(@D)
	$(CXX) -pthread -o $@ $^ -lgtest -lgtest_main

$(TRANSPORT_TEST_SRC:%.cc=$(B)/obj/host/%.o): HOST_FLAGS += $(call THIRD_PARTY_FLAGS,glibc)
# The layer and what it uses, alone (TSan builds no more than that).
TRANSPORT_LAYER_SRC := $(TRANSPORT_SRC) $(wildcard libresolv-k8s/util/*.cc)
$(B)/tests/transport-tests: $(TRANSPORT_TEST_SRC:%.cc=$(B)/obj/host/%.o) \
    $(TRANSPORT_LAYER_SRC:%.cc=$(B)/obj/glibc/%.o)
	@mkdir -p $(@D)
	$(CXX) -pthread -o $@ $^ $(TP)/glibc/lib/libcares.a -lgtest -lgtest_main -ldl

TESTS += test-core test-transport test-musl-link
.PHONY: test-core test-transport test-musl-link
test-core: $(B)/tests/core-tests
	$(B)/tests/core-tests --gtest_brief=1

test-transport: $(B)/tests/transport-tests
	unshare --net sh -c 'ip link set lo up && exec $(B)/tests/transport-tests --gtest_brief=1'

# The freestanding proof: a C program, musl-gcc, a fully static link.
test-musl-link: $(CORE_MUSL_A)
	@mkdir -p $(B)/tests
	musl-gcc -static -Os -Iinclude tests/musl-link/probe.c $< -o $(B)/tests/musl-link-probe
	$(B)/tests/musl-link-probe
