# SPDX-License-Identifier: Apache-2.0
# The static archive for musl programs: preload/, the musl core, c-ares and
# mimalloc in one relocatable object whose only global definitions are the
# entry points of preload/exports.map. Link it before libc:
#   musl-gcc -static prog.o libresolv-k8s.a
# RESOLV_K8S=off calls musl's own entry points, linked in under other names
# from the machine's libc.a (preload/static/libc_renamed.cc).

MUSL_LIBC_A := /usr/lib/$(MUSL_TRIPLE)/libc.a
MUSL_STATIC := $(B)/musl/libresolv-k8s.a
ALL += $(MUSL_STATIC)

MUSL_STATIC_OBJ := $(filter-out preload/libc_next.cc preload/next_symbol.cc,$(PRELOAD_SRC_musl)) preload/static/libc_renamed.cc
MUSL_STATIC_OBJ := $(MUSL_STATIC_OBJ:%.cc=$(B)/obj/musl/%.o) $(B)/musl/libc-renamed.o

# The libc.a objects defining the entry points, each entry point renamed
# in all of them: musl's gethostbyname still calls musl's gethostbyname2.
$(B)/musl/libc-renamed.o: $(MUSL_LIBC_A) preload/exports.map
	rm -rf $@.d && mkdir -p $@.d
	cd $@.d && for s in $(MUSL_ENTRY_POINTS); do \
	  $(AR) x $< $$($(CROSS)nm -A --defined-only $< 2>/dev/null | sed -n "s/^[^:]*:\([^:]*\):.* T $$s$$/\1/p"); \
	done
	$(CROSS)ld -r -o $@ $@.d/*
	$(CROSS)objcopy $(foreach s,$(MUSL_ENTRY_POINTS),--redefine-sym $(s)=__rk8s_musl_$(s)) $@
	rm -rf $@.d

$(MUSL_STATIC): $(MUSL_STATIC_OBJ) $(CORE_MUSL_A) $(call THIRD_PARTY_LIBS,musl)
	$(CROSS)ld -r -d -o $@.o $(MUSL_STATIC_OBJ) --start-group $(CORE_MUSL_A) $(call THIRD_PARTY_LIBS,musl) --end-group
	$(CROSS)objcopy $(MUSL_ENTRY_POINTS:%=--keep-global-symbol=%) $@.o
	rm -f $@ && $(AR) rcs $@ $@.o && rm $@.o

# The probe linked with the archive; its link map shows what came from where.
MUSL_PROBE := $(B)/tests/gai-probe-musl-rk8s
$(MUSL_PROBE): tests/pod/gai-probe.c $(MUSL_STATIC)
	@mkdir -p $(@D)
	$(MUSL_CC) -static $(PROBE_CFLAGS) $^ -Wl,-Map=$@.map -o $@
