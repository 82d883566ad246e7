# SPDX-License-Identifier: Apache-2.0
# resolv-k8s, the diagnostic command: ordinary C++ over the glibc core,
# with the same c-ares and mimalloc copies the preload uses, yaml-cpp for
# `inject`, and for `webhook` jsoncpp (through the server's JsonDoc),
# libevent over OpenSSL and the server's Prometheus text; and its tests.

TOOL_BIN := $(B)/bin/resolv-k8s
TOOL_SRC := $(wildcard tools/*.cc)
ALL += $(TOOL_BIN)

$(TOOL_SRC:%.cc=$(B)/obj/host/%.o): HOST_FLAGS += $(call THIRD_PARTY_FLAGS,glibc)
$(TOOL_SRC:%.cc=$(B)/obj/host/%.o): | $(TP_LIBS)
TOOL_SERVER_OBJ := $(B)/obj/host/server/data/json.o $(B)/obj/host/server/metrics/prometheus.o
$(TOOL_BIN): $(TOOL_SRC:%.cc=$(B)/obj/host/%.o) $(TOOL_SERVER_OBJ) $(CORE_A) $(call THIRD_PARTY_LIBS,glibc)
	@mkdir -p $(@D)
	$(CXX) -pthread -o $@ $^ $(call DEV_LIBS,-lyaml-cpp -ljsoncpp -levent_openssl -levent -lssl -lcrypto)

TESTS += test-tools
.PHONY: test-tools
test-tools: $(TOOL_BIN) $(B)/glibc/libresolv-k8s.so $(SERVER_BIN) $(B)/tests/gai-probe-glibc
	tests/tools/tools_test.sh $(B)
