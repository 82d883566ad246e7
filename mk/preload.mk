# SPDX-License-Identifier: Apache-2.0
# The LD_PRELOAD libraries: preload/ and the core, with our own hidden
# copies of c-ares and mimalloc, exporting libc entry points only.

PRELOAD_SRC := $(wildcard preload/*.cc)
PRELOAD_SO := $(B)/glibc/libresolv-k8s.so $(B)/musl/libresolv-k8s.so
ALL += $(PRELOAD_SO)
# The libc entry points we stand in front of (and export, and nothing else);
# res_search.cc holds the glibc-only ones; libpthread.cc is glibc's alone.
ENTRY_POINTS := $(shell sed -n 's/^ *\([a-z0-9_]*\);$$/\1/p' preload/exports.map)
GLIBC_ENTRY_POINTS := $(shell sed -n '/glibc only/,$$ s/^ *\([a-z0-9_]*\);$$/\1/p' preload/exports.map)
MUSL_ENTRY_POINTS := $(filter-out $(GLIBC_ENTRY_POINTS),$(ENTRY_POINTS))
PRELOAD_SRC_musl := $(filter-out preload/res_search.cc preload/libpthread.cc,$(PRELOAD_SRC))
PRELOAD_SRC_glibc := $(PRELOAD_SRC)

$(PRELOAD_SRC:%.cc=$(B)/obj/glibc/%.o): CORE_FLAGS += $(call THIRD_PARTY_FLAGS,glibc)
$(PRELOAD_SRC:%.cc=$(B)/obj/musl/%.o): CORE_FLAGS += $(call THIRD_PARTY_FLAGS,musl)
$(PRELOAD_SRC:%.cc=$(B)/obj/glibc/%.o): | $(call THIRD_PARTY_LIBS,glibc)
$(PRELOAD_SRC:%.cc=$(B)/obj/musl/%.o): | $(call THIRD_PARTY_LIBS,musl)

# The glibc build loads into glibc 2.17 and later and names libc.so.6
# alone: nothing it imports has a version newer than 2.17 (stat, fstat and
# getrandom are system calls, util/file_stat.h and util/random.cc), and
# what lived in libpthread.so.0 and libdl.so.2 before 2.34 it finds itself
# (libpthread.cc, next_symbol.h). Linked by the C driver: the link fails if
# anything needs a C++ runtime.
define preload_so
$(B)/$(1)/libresolv-k8s.so: $(PRELOAD_SRC_$(1):%.cc=$(B)/obj/$(1)/%.o) $(B)/$(1)/libresolv-k8s-core.a \
    preload/exports.map $(call THIRD_PARTY_LIBS,$(1))
	$(2) -shared -o $$@ $$(filter %.o,$$^) -Wl,--start-group $$(filter %.a,$$^) -Wl,--end-group \
	  -Wl,--version-script=preload/exports.map -Wl,-z,defs $$(LINK_TRACE)
endef
$(eval $(call preload_so,glibc,$(CC)))
$(eval $(call preload_so,musl,$(MUSL_CC)))

# What inject lays in a pod's volume, in the build tree: both builds and
# the links that make $(PRELOAD) right for every libc (the copier's, of
# container/images/copier.c, the init image's entrypoint). The tests
# preload $(PRELOAD) and need $(PRELOAD_DEPS).
PRELOAD_DIR := $(B)/preload
PRELOAD := $(abspath $(PRELOAD_DIR))/$$LIB/libresolv-k8s.so
PRELOAD_DEPS := $(PRELOAD_SO) $(PRELOAD_DIR)/.laid
ALL += $(PRELOAD_DIR)/.laid
$(B)/images/copier: container/images/copier.c include/resolv-k8s.h
	@mkdir -p $(@D)
	$(MUSL_CC) -static -Os -Wall -Wextra -Iinclude -o $@ $< $(LINK_TRACE)
$(PRELOAD_DIR)/.laid: $(B)/images/copier
	@rm -rf $(@D) && mkdir -p $(@D)
	ln -s ../glibc $(@D)/glibc && ln -s ../musl $(@D)/musl
	$(B)/images/copier --links $(@D)
	@touch $@

# Nothing imported above the glibc floor: 2.17, the oldest glibc of
# aarch64 and the one x86_64 programs of RHEL 7 were built for; nothing
# needed but libc.so.6, and on aarch64 glibc's loader, which holds the
# stack protector's guard there (x86_64 keeps it in TLS).
GLIBC_FLOOR := 2.17
GLIBC_LOADER_arm64 := ld-linux-aarch64.so.1
TESTS += test-glibc-floor
.PHONY: test-glibc-floor
test-glibc-floor: $(B)/glibc/libresolv-k8s.so
	@above=$$(objdump -T $< | sed -n 's/.*(GLIBC_\([0-9.]*\)) *\(.*\)/\1 \2/p' | while read -r v sym; do \
	  [ "$$(printf '%s\n' $$v $(GLIBC_FLOOR) | sort -V | tail -1)" = $(GLIBC_FLOOR) ] || echo "$$sym@GLIBC_$$v"; \
	  done); \
	  [ -z "$$above" ] || { echo "$< imports above GLIBC_$(GLIBC_FLOOR):" $$above; exit 1; }; \
	  needed=$$($(CROSS)readelf -d $< | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | grep -vx '$(GLIBC_LOADER_$(ARCH))' | xargs); \
	  [ "$$needed" = libc.so.6 ] || { echo "$< needs $$needed, not libc.so.6 alone"; exit 1; }; \
	  echo "$<: nothing imported above GLIBC_$(GLIBC_FLOOR), nothing needed but libc.so.6"

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
