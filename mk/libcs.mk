# SPDX-License-Identifier: Apache-2.0
# The libc matrix: pods run images whose libc is not this machine's.
# gai-probe built against Debian bullseye's glibc 2.31 and musl 1.2.2 and
# trixie's glibc 2.41 and musl 1.2.5 (dynamic, and static: alone, and
# linked with libresolv-k8s.a), each with that suite's own headers, crt
# files and libc, unpacked under $(LIBCS)/SUITE/root by mk/fetch-libcs.sh.
# test-libcs runs each under its own loader with the LD_PRELOAD inject
# writes. x86_64 only.

LIBCS := $(B)/libcs
LIBC_PROBES := $(LIBCS)/bullseye/gai-probe-glibc $(LIBCS)/trixie/gai-probe-glibc \
  $(LIBCS)/bullseye/gai-probe-musl $(LIBCS)/trixie/gai-probe-musl \
  $(foreach s,bullseye trixie,$(LIBCS)/$(s)/gai-probe-musl-static $(LIBCS)/$(s)/gai-probe-musl-rk8s)

$(LIBCS)/fetched: mk/fetch-libcs.sh
	mk/fetch-libcs.sh $(LIBCS)
	@touch $@

# In a recipe of the rules below, $* is the suite.
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
$(LIBCS)/%/gai-probe-musl: tests/pod/gai-probe.c $(LIBCS)/fetched
	$(musl_link) $(musl_lib)/Scrt1.o $(musl_lib)/crti.o $< -lc -lgcc $(musl_lib)/crtn.o \
	  -Wl,--dynamic-linker=/lib/ld-musl-x86_64.so.1 -o $@
$(LIBCS)/%/gai-probe-musl-static: tests/pod/gai-probe.c $(LIBCS)/fetched
	$(musl_link) -static $(musl_lib)/crt1.o $(musl_lib)/crti.o $< -lc -lgcc $(musl_lib)/crtn.o -o $@
$(LIBCS)/%/gai-probe-musl-rk8s: tests/pod/gai-probe.c $(MUSL_STATIC) $(LIBCS)/fetched
	$(musl_link) -static $(musl_lib)/crt1.o $(musl_lib)/crti.o $< $(MUSL_STATIC) -lc -lgcc $(musl_lib)/crtn.o -o $@

TESTS += test-libcs
.PHONY: test-libcs
test-libcs: $(LIBC_PROBES) $(SERVER_BIN) $(PRELOAD_DEPS)
	tests/libcs/matrix_test.sh $(B)
