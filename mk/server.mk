# The companion DNS server (server/README.md), its tests and fuzz targets.

SERVER_SRC := $(filter-out server/main.cc,$(wildcard server/*.cc))
SERVER_OBJ := $(SERVER_SRC:%.cc=$(B)/obj/host/%.o)
SERVER_BIN := $(B)/bin/resolv-k8s-server
ALL += $(SERVER_BIN)

$(SERVER_BIN): $(B)/obj/host/server/main.o $(SERVER_OBJ) $(B)/glibc/libresolv-k8s-core.a
	@mkdir -p $(@D)
	$(CXX) -pthread -o $@ $^

$(B)/obj/host/tests/server/%.o: HOST_FLAGS += -I.
SERVER_TEST_SRC := $(wildcard tests/server/*_test.cc)
$(B)/tests/server-tests: $(SERVER_TEST_SRC:%.cc=$(B)/obj/host/%.o) $(SERVER_OBJ) \
    $(B)/glibc/libresolv-k8s-core.a
	@mkdir -p $(@D)
	$(CXX) -pthread -o $@ $^ -lgtest -lgtest_main

# Fuzz targets that need the server's sources: objects built once with the
# fuzz flags, and the core as an archive (only what is used is linked; the
# c-ares users are left out, the server never needs them).
SERVER_FUZZ := $(patsubst fuzz/%.cc,$(B)/fuzz/%,$(wildcard fuzz/server_*_fuzz.cc))
SERVER_FUZZ_CORE := $(shell grep -L -e '<ares.h>' -e '"channel.h"' $(CORE_SRC))
FUZZ_BIN += $(filter-out $(FUZZ_BIN),$(SERVER_FUZZ))
$(B)/fuzz/obj/%.o: %.cc
	@mkdir -p $(@D)
	$(CLANGXX) $(FUZZ_FLAGS) -MMD -MP -c $< -o $@
$(B)/fuzz/libresolv-k8s-core-fuzz.a: $(SERVER_FUZZ_CORE:%.cc=$(B)/fuzz/obj/%.o)
	rm -f $@ && ar rcs $@ $^
$(SERVER_FUZZ): $(B)/fuzz/%: fuzz/%.cc $(SERVER_SRC:%.cc=$(B)/fuzz/obj/%.o) \
    $(B)/fuzz/libresolv-k8s-core-fuzz.a
	$(CLANGXX) $(FUZZ_FLAGS) -I. $< $(filter %.o %.a,$^) -o $@

TESTS += test-server-unit test-server-dig
.PHONY: test-server-unit test-server-dig test-server-load

test-server-unit: $(B)/tests/server-tests
	$(B)/tests/server-tests --gtest_brief=1

test-server-dig: $(SERVER_BIN)
	tests/server/dig_test.sh $(SERVER_BIN)

# Not part of `make test`: dnsperf figures, 10 s per mode.
test-server-load: $(SERVER_BIN)
	tests/server/load.sh $(SERVER_BIN)
