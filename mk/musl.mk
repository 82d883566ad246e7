# The static archive for musl programs: preload/, the musl core, c-ares and
# mimalloc in one relocatable object whose only global definitions are
# getaddrinfo and freeaddrinfo. Link it before libc:
#   musl-gcc -static prog.o libresolv-k8s.a
# RESOLV_K8S=off calls musl's own getaddrinfo, linked in under another name
# from the machine's libc.a (preload/static/libc.cc).

MUSL_LIBC_A := /usr/lib/x86_64-linux-musl/libc.a
MUSL_STATIC := $(B)/musl/libresolv-k8s.a
ALL += $(MUSL_STATIC)

# (preload.mk is read after this file: its PRELOAD_SRC is still empty here.)
MUSL_STATIC_OBJ := $(filter-out preload/libc.cc,$(wildcard preload/*.cc)) preload/static/libc.cc
MUSL_STATIC_OBJ := $(MUSL_STATIC_OBJ:%.cc=$(B)/obj/musl/%.o) \
  $(B)/musl/libc/getaddrinfo.o $(B)/musl/libc/freeaddrinfo.o

# libc.a's object defining SYM (getaddrinfo.o, or .lo in Debian's), SYM renamed.
$(B)/musl/libc/%.o: $(MUSL_LIBC_A)
	@mkdir -p $(@D)
	cd $(@D) && m=$$(ar t $< | grep -xE '$*\.l?o') && ar x $< $$m && \
	  objcopy --redefine-sym $*=__rk8s_musl_$* $$m $*.o && rm $$m

$(MUSL_STATIC): $(MUSL_STATIC_OBJ) $(B)/musl/libresolv-k8s-core.a $(TP_LIBS)
	ld -r -d -o $@.o $(MUSL_STATIC_OBJ) --start-group $(B)/musl/libresolv-k8s-core.a \
	  $(B)/third_party/musl/lib/libcares.a $(B)/third_party/musl/lib/libmimalloc.a --end-group
	objcopy --keep-global-symbol=getaddrinfo --keep-global-symbol=freeaddrinfo $@.o
	rm -f $@ && ar rcs $@ $@.o && rm $@.o

# The probe linked with the archive; its link map shows what came from where.
MUSL_PROBE := $(B)/tests/gai-probe-musl-rk8s
$(MUSL_PROBE): tests/pod/gai-probe.c $(MUSL_STATIC)
	@mkdir -p $(@D)
	musl-gcc -static $(PROBE_CFLAGS) $^ -Wl,-Map=$@.map -o $@

TESTS += test-musl
.PHONY: test-musl
test-musl: $(MUSL_STATIC) $(MUSL_PROBE) $(B)/musl/libresolv-k8s.so $(GAI_PROBES) $(SERVER_BIN)
	tests/musl/static_test.sh $(B)
	tests/musl/musl_diff_test.sh $(B)
