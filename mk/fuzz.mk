# SPDX-License-Identifier: Apache-2.0
# libFuzzer targets: fuzz/NAME_fuzz.cc -> $(B)/fuzz/NAME_fuzz, linked with
# the core built once with the sanitizers (minus the transport: it needs
# c-ares and parses nothing); server_*_fuzz also with the server's sources
# and libraries; inject_fuzz with `resolv-k8s inject`'s sources and yaml-cpp,
# webhook_fuzz with the webhook's too, jsoncpp and OpenSSL's base64;
# kube_objects_fuzz with the webhook's readers of the API server's objects.

FUZZ_SRC := $(wildcard fuzz/*_fuzz.cc)
FUZZ_BIN := $(FUZZ_SRC:fuzz/%.cc=$(B)/fuzz/%)
FUZZ_CORE := $(B)/obj/fuzz/libresolv-k8s-core.a
SERVER_FUZZ := $(filter $(B)/fuzz/server_%,$(FUZZ_BIN))
INJECT_FUZZ_SRC := tools/inject/inject_pod.cc tools/inject/inject_status.cc \
  tools/inject/inject_stream.cc tools/inject/yaml_stream.cc \
  tools/inject/yaml_json.cc common/json.cc

$(FUZZ_CORE): $(patsubst %.cc,$(B)/obj/fuzz/%.o,$(filter-out $(TRANSPORT_SRC),$(CORE_SRC)))
	rm -f $@ && ar rcs $@ $^
WEBHOOK_FUZZ_SRC := $(INJECT_FUZZ_SRC) tools/webhook/admission.cc tools/webhook/json_patch.cc tools/webhook/base64.cc
KUBE_OBJECTS_FUZZ_SRC := tools/webhook/kube_objects.cc tools/webhook/base64.cc tools/inject/inject_status.cc \
  tools/inject/yaml_json.cc common/json.cc
$(filter-out $(SERVER_FUZZ) $(B)/fuzz/inject_fuzz $(B)/fuzz/webhook_fuzz $(B)/fuzz/kube_objects_fuzz,$(FUZZ_BIN)): $(B)/fuzz/%: $(B)/obj/fuzz/fuzz/%.o $(FUZZ_CORE)
	@mkdir -p $(@D)
	$(CLANGXX) $(FUZZ_FLAGS) $^ -o $@
$(SERVER_FUZZ): $(B)/fuzz/%: $(B)/obj/fuzz/fuzz/%.o $(SERVER_SRC:%.cc=$(B)/obj/fuzz/%.o) $(COMMON_FUZZ_OBJ) $(FUZZ_CORE)
	@mkdir -p $(@D)
	$(CLANGXX) $(FUZZ_FLAGS) $^ -o $@ $(SERVER_LIBS)
$(B)/fuzz/inject_fuzz: $(B)/obj/fuzz/fuzz/inject_fuzz.o $(INJECT_FUZZ_SRC:%.cc=$(B)/obj/fuzz/%.o)
	@mkdir -p $(@D)
	$(CLANGXX) $(FUZZ_FLAGS) $^ -o $@ -lyaml-cpp -ljsoncpp
$(B)/fuzz/webhook_fuzz: $(B)/obj/fuzz/fuzz/webhook_fuzz.o $(WEBHOOK_FUZZ_SRC:%.cc=$(B)/obj/fuzz/%.o)
	@mkdir -p $(@D)
	$(CLANGXX) $(FUZZ_FLAGS) $^ -o $@ -lyaml-cpp -ljsoncpp -lcrypto
$(B)/fuzz/kube_objects_fuzz: $(B)/obj/fuzz/fuzz/kube_objects_fuzz.o $(KUBE_OBJECTS_FUZZ_SRC:%.cc=$(B)/obj/fuzz/%.o)
	@mkdir -p $(@D)
	$(CLANGXX) $(FUZZ_FLAGS) $^ -o $@ -lyaml-cpp -ljsoncpp -lcrypto

.PHONY: fuzz fuzz-smoke
fuzz: $(FUZZ_BIN)

FUZZ_SECONDS ?= 10
fuzz-smoke: $(FUZZ_BIN)
	@set -e; for f in $(FUZZ_BIN); do n=$$(basename $$f); \
	  mkdir -p $(B)/fuzz/work/$$n; \
	  echo "fuzz-smoke $$n ($(FUZZ_SECONDS) s)"; \
	  $$f -max_total_time=$(FUZZ_SECONDS) -print_final_stats=0 $(B)/fuzz/work/$$n fuzz/corpus/$$n 2>$(B)/fuzz/work/$$n.log \
	    || { tail -40 $(B)/fuzz/work/$$n.log; exit 1; }; \
	done
