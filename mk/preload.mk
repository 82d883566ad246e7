# The LD_PRELOAD libraries: preload/ and the core, with our own hidden
# copies of c-ares and mimalloc, exporting libc entry points only.

PRELOAD_SRC := $(wildcard preload/*.cc)
ALL += $(PRELOAD_SO)

THIRD_PARTY_FLAGS = -DCARES_STATICLIB -isystem $(B)/third_party/$(1)/include
$(PRELOAD_SRC:%.cc=$(B)/obj/glibc/%.o): CORE_FLAGS += $(call THIRD_PARTY_FLAGS,glibc)
$(PRELOAD_SRC:%.cc=$(B)/obj/musl/%.o): CORE_FLAGS += $(call THIRD_PARTY_FLAGS,musl)
$(PRELOAD_SRC:%.cc=$(B)/obj/%.o): | $(TP_LIBS)

.SECONDEXPANSION:
# Linked by the C driver: the link fails if anything needs a C++ runtime.
preload_objs = $(PRELOAD_SRC:%.cc=$(B)/obj/$(1)/%.o)
$(B)/%/libresolv-k8s.so: $$(call preload_objs,$$*) $(B)/%/libresolv-k8s-core.a \
    preload/exports.map $(TP_LIBS)
	$(if $(filter musl,$*),musl-gcc,$(CC)) -shared -o $@ $(filter %.o,$^) \
	  $(B)/$*/libresolv-k8s-core.a $(B)/third_party/$*/lib/libcares.a \
	  $(B)/third_party/$*/lib/libmimalloc.a -Wl,--version-script=preload/exports.map \
	  -Wl,-z,defs -pthread

TESTS += test-exports
.PHONY: test-exports
# Exactly the libc entry points, nothing of c-ares, mimalloc or C++.
test-exports: $(PRELOAD_SO)
	@for so in $^; do \
	  got=$$(nm -D --defined-only $$so | awk '{print $$3}' | sort | xargs); \
	  [ "$$got" = "$(sort $(ENTRY_POINTS))" ] || { echo "$$so exports: $$got"; exit 1; }; \
	  echo "$$so exports: $$got"; \
	done
