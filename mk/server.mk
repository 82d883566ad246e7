# The companion DNS server (server/README.md), its tests and fuzz targets.

SERVER_SRC := $(filter-out server/main.cc,$(wildcard server/*.cc))
SERVER_OBJ := $(SERVER_SRC:%.cc=$(B)/obj/host/%.o)
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

# Fuzz targets that need the server's sources, linked with the fuzz-built
# core (Makefile).
SERVER_FUZZ := $(patsubst fuzz/%.cc,$(B)/fuzz/%,$(wildcard fuzz/server_*_fuzz.cc))
$(SERVER_FUZZ): $(B)/fuzz/%: fuzz/%.cc $(SERVER_SRC:%.cc=$(B)/obj/fuzz/%.o) $(FUZZ_CORE)
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
