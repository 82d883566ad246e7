# SPDX-License-Identifier: Apache-2.0
# The LD_PRELOAD libraries: preload/ and the core, with our own hidden
# copies of c-ares and mimalloc, exporting libc entry points only.

PRELOAD_SRC := $(wildcard preload/*.cc)
PRELOAD_SO := $(B)/glibc/libresolv-k8s.so $(B)/musl/libresolv-k8s.so
ALL += $(PRELOAD_SO)
# The libc entry points we stand in front of (and export, and nothing else);
# res_search.cc holds the glibc-only ones.
ENTRY_POINTS := $(shell sed -n 's/^ *\([a-z0-9_]*\);$$/\1/p' preload/exports.map)
GLIBC_ENTRY_POINTS := $(shell sed -n '/glibc only/,$$ s/^ *\([a-z0-9_]*\);$$/\1/p' preload/exports.map)
MUSL_ENTRY_POINTS := $(filter-out $(GLIBC_ENTRY_POINTS),$(ENTRY_POINTS))
PRELOAD_SRC_musl := $(filter-out preload/res_search.cc,$(PRELOAD_SRC))
PRELOAD_SRC_glibc := $(PRELOAD_SRC)

$(PRELOAD_SRC:%.cc=$(B)/obj/glibc/%.o): CORE_FLAGS += $(call THIRD_PARTY_FLAGS,glibc)
$(PRELOAD_SRC:%.cc=$(B)/obj/musl/%.o): CORE_FLAGS += $(call THIRD_PARTY_FLAGS,musl)
$(PRELOAD_SRC:%.cc=$(B)/obj/glibc/%.o) $(PRELOAD_SRC:%.cc=$(B)/obj/musl/%.o): | $(TP_LIBS)

# Linked by the C driver: the link fails if anything needs a C++ runtime.
define preload_so
$(B)/$(1)/libresolv-k8s.so: $(PRELOAD_SRC_$(1):%.cc=$(B)/obj/$(1)/%.o) $(B)/$(1)/libresolv-k8s-core.a \
    preload/exports.map $(call THIRD_PARTY_LIBS,$(1))
	$(2) -shared -o $$@ $$(filter %.o %.a,$$^) -Wl,--version-script=preload/exports.map \
	  -Wl,-z,defs -pthread
endef
$(eval $(call preload_so,glibc,$(CC)))
$(eval $(call preload_so,musl,$(MUSL_CC)))

TESTS += test-exports
.PHONY: test-exports
# Exactly the libc entry points, nothing of c-ares, mimalloc or C++.
test-exports: $(PRELOAD_SO)
	@for so in $^; do \
	  case $$so in */glibc/*) want="$(sort $(ENTRY_POINTS))" ;; *) want="$(sort $(MUSL_ENTRY_POINTS))" ;; esac; \
	  got=$$(nm -D --defined-only $$so | awk '{print $$3}' | sort | xargs); \
	  [ "$$got" = "$$want" ] || { echo "$$so exports: $$got"; exit 1; }; \
	  echo "$$so exports: $$got"; \
	done
