# SPDX-License-Identifier: Apache-2.0
# resolv-k8s (tools/README.md): ordinary C++ over the glibc core, with the
# same c-ares and mimalloc copies the preload uses, yaml-cpp and jsoncpp
# (common/json.h) for `inject`, and for `webhook` libevent over OpenSSL and
# the Prometheus text (common/prometheus.h); and its tests: the unit tests
# of tests/tools/ and the commands run whole (tools_test.sh).

TOOL_BIN := $(B)/bin/resolv-k8s
TOOL_SRC := $(wildcard tools/*.cc tools/*/*.cc)
TOOL_LIBS := $(call DEV_LIBS,-lyaml-cpp -ljsoncpp -levent_openssl -levent -lssl -lcrypto)
ALL += $(TOOL_BIN)

$(TOOL_SRC:%.cc=$(B)/obj/host/%.o): HOST_FLAGS += $(call THIRD_PARTY_FLAGS,glibc)
$(TOOL_SRC:%.cc=$(B)/obj/host/%.o): | $(call THIRD_PARTY_LIBS,glibc)
$(TOOL_BIN): $(TOOL_SRC:%.cc=$(B)/obj/host/%.o) $(COMMON_OBJ) $(CORE_A) $(call THIRD_PARTY_LIBS,glibc)
	@mkdir -p $(@D)
	$(CXX) -pthread -o $@ $^ $(TOOL_LIBS) $(LINK_TRACE)

# The same command linked static, for the init image: an app container of
# any libc runs it from the volume inject mounts (/opt/resolv-k8s/bin).
# jsoncpp built here from Debian's source; for arm64 the static archives of
# libyaml-cpp-dev and libevent-dev, which cannot be installed beside the
# amd64 ones, come out of Debian's arm64 packages. The linker's warnings on
# glibc's NSS in a static program are kept in $@.log: conf, plan, lookup
# and stats need none of it.
TOOL_STATIC := $(B)/bin/resolv-k8s-static
JSONCPP_SRC := $(TP_SRC)/libjsoncpp-1.9.5
JSONCPP_A := $(TP)/glibc/lib/libjsoncpp.a
$(JSONCPP_A): $(TP_SRC)/.fetched
	@rm -rf $(TP)/work/glibc/jsoncpp && mkdir -p $(TP)/work/glibc/jsoncpp $(@D)
	for f in json_reader json_value json_writer; do \
	  $(CXX) -std=c++17 -O2 -I$(JSONCPP_SRC)/include -c $(JSONCPP_SRC)/src/lib_json/$$f.cpp \
	    -o $(TP)/work/glibc/jsoncpp/$$f.o || exit 1; \
	done
	$(AR) rcs $@ $(TP)/work/glibc/jsoncpp/*.o
ifeq ($(ARCH),arm64)
STATIC_DEV := $(TP)/dev/usr/lib/aarch64-linux-gnu
$(STATIC_DEV)/libyaml-cpp.a: | deps-packages
	rm -rf $(TP)/dev && mkdir -p $(TP)/dev/debs
	cd $(TP)/dev/debs && apt-get download -qq -o APT::Sandbox::User=root libyaml-cpp-dev:arm64 libevent-dev:arm64
	for deb in $(TP)/dev/debs/*.deb; do dpkg-deb -x $$deb $(TP)/dev || exit 1; done
$(TOOL_STATIC): $(STATIC_DEV)/libyaml-cpp.a
endif
$(TOOL_STATIC): $(TOOL_SRC:%.cc=$(B)/obj/host/%.o) $(COMMON_OBJ) $(CORE_A) $(call THIRD_PARTY_LIBS,glibc) \
    $(JSONCPP_A)
	@mkdir -p $(@D)
	$(CXX) -static -s -pthread -o $@ $(filter-out %/libyaml-cpp.a,$^) $(STATIC_DEV:%=-L%) -l:libyaml-cpp.a \
	  -levent_openssl -levent -lssl -lcrypto $(LINK_TRACE) 2> $@.log || { cat $@.log; exit 1; }

# Unit tests (GoogleTest), one folder per tools/ folder
# (tests/tools/README.md): one program, linked with every product's objects
# but main.o.
TOOLS_TEST_SRC := $(wildcard tests/tools/*/*_test.cc)
$(B)/tests/tools-tests: $(TOOLS_TEST_SRC:%.cc=$(B)/obj/host/%.o) $(filter-out %/tools/main.o,$(TOOL_SRC:%.cc=$(B)/obj/host/%.o)) \
    $(COMMON_OBJ) $(CORE_A) $(call THIRD_PARTY_LIBS,glibc)
	@mkdir -p $(@D)
	$(CXX) -pthread -o $@ $^ -lgtest -lgtest_main $(TOOL_LIBS)

TESTS += test-tools-unit test-tools
.PHONY: test-tools-unit test-tools
test-tools-unit: $(B)/tests/tools-tests
	$(B)/tests/tools-tests --gtest_brief=1

test-tools: $(TOOL_BIN) $(PRELOAD_DEPS) $(SERVER_BIN) $(B)/tests/gai-probe-glibc
	tests/tools/tools_test.sh $(B)
