# SPDX-License-Identifier: Apache-2.0
# The libc matrix: pods run images whose libc is not this machine's.
# gai-probe built against Debian bullseye's glibc 2.31 and musl 1.2.2,
# trixie's glibc 2.41 and musl 1.2.5, sid's glibc 2.43 and musl 1.2.6
# (dynamic, and static: alone, and linked with libresolv-k8s.a) and
# experimental's glibc 2.44, each with that suite's own headers, crt files
# and libc, unpacked under $(LIBCS)/SUITE/root by mk/fetch-libcs.sh.
# test-libcs runs each under its own loader with the LD_PRELOAD inject
# writes. x86_64 only.

LIBCS := $(B)/libcs
MUSL_SUITES := bullseye trixie sid
LIBC_PROBES := $(foreach s,$(MUSL_SUITES) experimental,$(LIBCS)/$(s)/gai-probe-glibc) \
  $(foreach s,$(MUSL_SUITES),$(LIBCS)/$(s)/gai-probe-musl $(LIBCS)/$(s)/gai-probe-musl-static \
    $(LIBCS)/$(s)/gai-probe-musl-rk8s)

$(LIBCS)/fetched: mk/fetch-libcs.sh
	mk/fetch-libcs.sh $(LIBCS)
	@touch $@

# In a recipe of the probes' rules, $* is the suite.
libc_root = $(LIBCS)/$*/root
musl_lib = $(libc_root)/usr/lib/x86_64-linux-musl
# gcc's own library directories come before the sysroot's: -B and -L put
# the suite's crt files and libc.so first.
$(LIBCS)/%/gai-probe-glibc: tests/pod/gai-probe.c $(LIBCS)/fetched
	gcc --sysroot=$(libc_root) -B$(libc_root)/usr/lib/x86_64-linux-gnu/ -L$(libc_root)/usr/lib/x86_64-linux-gnu \
	  $(PROBE_CFLAGS) $< -o $@
# bullseye's libc.so is in /lib only, beside the loader it also is.
musl_link = gcc -nostdinc -isystem $(libc_root)/usr/include/x86_64-linux-musl -isystem $(GCC_INC) \
  -nostdlib -L$(libc_root)/lib/x86_64-linux-musl -L$(musl_lib) $(PROBE_CFLAGS)
# $(call musl_static,OBJECTS...): a static program of them and the suite's libc.a.
musl_static = $(musl_link) -static $(musl_lib)/crt1.o $(musl_lib)/crti.o $(1) -lc -lgcc $(musl_lib)/crtn.o
$(LIBCS)/%/gai-probe-musl: tests/pod/gai-probe.c $(LIBCS)/fetched
	$(musl_link) $(musl_lib)/Scrt1.o $(musl_lib)/crti.o $< -lc -lgcc $(musl_lib)/crtn.o \
	  -Wl,--dynamic-linker=/lib/ld-musl-x86_64.so.1 -o $@
$(LIBCS)/%/gai-probe-musl-static: tests/pod/gai-probe.c $(LIBCS)/fetched
	$(call musl_static,$<) -o $@
$(LIBCS)/%/gai-probe-musl-rk8s: tests/pod/gai-probe.c $(MUSL_STATIC) $(LIBCS)/fetched
	$(call musl_static,$< $(MUSL_STATIC)) -o $@

# The musl differential drivers of mk/fuzz-diff.mk again, linked with
# trixie's musl 1.2.5 (in $(LIBCS)/trixie/, so that $* is the suite):
# conf_musl_diff as it is, dns_musl_diff told the release it runs with.
# test-libcs replays their seeds.
FDIFF_MUSL125 := $(LIBCS)/trixie/conf_musl_diff $(LIBCS)/trixie/dns_musl_diff
$(B)/obj/musl125/%.o: %.cc
	@mkdir -p $(@D)
	$(CXX) $(CORE_FLAGS) $(MUSL_FLAGS) -I. -DRK8S_MUSL_RELEASE='release(1, 2, 5)' -MMD -MP -c $< -o $@
FDIFF_MUSL125_DEPS := $(FDIFF_MUSL_OBJ) $(CORE_MUSL_A) $(call THIRD_PARTY_LIBS,musl) $(LIBCS)/fetched
$(LIBCS)/%/dns_musl_diff: FDIFF_LDFLAGS := -Wl,--wrap=__res_msend_rc
$(LIBCS)/%/conf_musl_diff: $(B)/obj/musl/fuzz/diff/conf_musl_diff.o $(FDIFF_MUSL125_DEPS)
	$(call musl_static,$(FDIFF_LDFLAGS) $(filter %.o %.a,$^)) -o $@
$(LIBCS)/%/dns_musl_diff: $(B)/obj/musl125/fuzz/diff/dns_musl_diff.o $(FDIFF_MUSL125_DEPS)
	$(call musl_static,$(FDIFF_LDFLAGS) $(filter %.o %.a,$^)) -o $@

TESTS += test-libcs
.PHONY: test-libcs
test-libcs: $(LIBC_PROBES) $(SERVER_BIN) $(PRELOAD_DEPS) $(FDIFF_MUSL125)
	tests/libcs/matrix_test.sh $(B)
	@for f in $(FDIFF_MUSL125); do n=$$(basename $$f); echo "fuzz-diff $$n (musl 1.2.5)"; \
	  $$f -max_total_time=0 fuzz/corpus/$${n/_musl_/_glibc_} > $$f.log 2>&1 || { tail -40 $$f.log; exit 1; }; \
	  grep -h '^fuzz-diff: tolerated' $$f.log || true; done
