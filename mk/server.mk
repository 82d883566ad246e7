# SPDX-License-Identifier: Apache-2.0
# resolv-k8s-server (server/README.md): its binary, unit tests and dig tests.

SERVER_BIN := $(B)/bin/resolv-k8s-server
SERVER_SRC := $(wildcard server/*/*.cc)
# yaml-cpp reads --config, jsoncpp the cluster file; libevent runs the loops
# and the HTTP endpoints, and with OpenSSL the upstreams' TLS; libnl and
# libnftables set up the node's interface
# and NOTRACK rules; libcap-ng drops the serving process's capabilities.
SERVER_LIBS := $(call DEV_LIBS,-lyaml-cpp -ljsoncpp -levent_pthreads -levent_openssl -levent -lssl -lcrypto -lnl-route-3 -lnl-3 -lnftables -lcap-ng)
$(patsubst %.cc,$(B)/obj/host/%.o,$(wildcard server/node/*.cc)): HOST_FLAGS += -isystem /usr/include/libnl3
$(patsubst %.cc,$(B)/obj/fuzz/%.o,$(wildcard server/node/*.cc)): FUZZ_FLAGS += -isystem /usr/include/libnl3
SERVER_OBJ := $(SERVER_SRC:%.cc=$(B)/obj/host/%.o)
ALL += $(SERVER_BIN)

$(SERVER_BIN): $(B)/obj/host/server/main.o $(SERVER_OBJ) $(COMMON_OBJ) $(CORE_A)
	@mkdir -p $(@D)
	$(CXX) -pthread -o $@ $^ $(SERVER_LIBS) $(LINK_TRACE)

# Unit tests (GoogleTest), one folder per server folder (tests/server/README.md),
# and common/'s: one program.
SERVER_TEST_SRC := $(wildcard tests/server/*/*_test.cc) $(COMMON_TEST_SRC)
$(B)/tests/server-tests: $(SERVER_TEST_SRC:%.cc=$(B)/obj/host/%.o) $(SERVER_OBJ) $(COMMON_OBJ) $(CORE_A)
	@mkdir -p $(@D)
	$(CXX) -pthread -o $@ $^ -lgtest -lgtest_main $(SERVER_LIBS)

TESTS += test-server-unit test-server-dig test-server-restart test-server-loop
.PHONY: test-server-unit test-server-dig test-server-restart test-server-loop test-server-load

test-server-unit: $(B)/tests/server-tests
	$(B)/tests/server-tests --gtest_brief=1

test-server-dig: $(SERVER_BIN)
	tests/server/dig_test.sh $(SERVER_BIN)

test-server-restart: $(SERVER_BIN)
	tests/server/restart_test.sh $(SERVER_BIN)

test-server-loop: $(SERVER_BIN)
	tests/server/loop_test.sh $(SERVER_BIN)

# Not part of `make test`: dnsperf figures, 10 s per mode.
test-server-load: $(SERVER_BIN)
	tests/server/load.sh $(SERVER_BIN)
