# The transport (libresolv-k8s/{channel,exchange,socket_pool,query_id}.cc) and its tests.
# Its objects see the c-ares headers built for their libc; the tests run in a
# private network namespace, with responders on 127.0.0.x port 53.

TRANSPORT_ARES := channel exchange socket_pool
CARES_FLAGS = -DCARES_STATICLIB -isystem $(B)/third_party/$(1)/include
$(TRANSPORT_ARES:%=$(B)/obj/glibc/libresolv-k8s/%.o): CORE_FLAGS += $(call CARES_FLAGS,glibc)
$(TRANSPORT_ARES:%=$(B)/obj/musl/libresolv-k8s/%.o): CORE_FLAGS += $(call CARES_FLAGS,musl)
$(B)/obj/host/tests/transport/%.o: HOST_FLAGS += $(call CARES_FLAGS,glibc)
$(foreach l,glibc musl,$(TRANSPORT_ARES:%=$(B)/obj/$(l)/libresolv-k8s/%.o)): | $(TP_LIBS)

TRANSPORT_OBJ := $(patsubst %,$(B)/obj/glibc/libresolv-k8s/%.o,$(TRANSPORT_ARES) query_id)
TRANSPORT_TEST_SRC := $(wildcard tests/transport/*_test.cc)

# libcares.a is linked by path, not a prerequisite: only `make deps` builds it.
$(B)/tests/transport-tests: $(TRANSPORT_TEST_SRC:%.cc=$(B)/obj/host/%.o) $(TRANSPORT_OBJ)
	@mkdir -p $(@D)
	$(CXX) -pthread -o $@ $^ $(B)/third_party/glibc/lib/libcares.a -lgtest -lgtest_main -ldl

TESTS += test-transport
.PHONY: test-transport
test-transport: $(B)/tests/transport-tests
	unshare --net sh -c 'ip link set lo up && exec $(B)/tests/transport-tests --gtest_brief=1'
