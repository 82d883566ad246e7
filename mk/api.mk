# SPDX-License-Identifier: Apache-2.0
# The public C API (include/resolv-k8s.h) as a library of its own, for
# glibc programs: the API's objects and the members of the core archive
# they pull in (conf, plan, dns, util: no c-ares, no C++ runtime), with
# rk8s_* the only global symbols.

API_OBJ := $(patsubst %.cc,$(B)/obj/glibc/%.o,$(wildcard libresolv-k8s/api/*.cc))
API_MAP := libresolv-k8s/api/exports.map
API_SO := $(B)/lib/libresolv-k8s-api.so
API_A := $(B)/lib/libresolv-k8s-api.a
ALL += $(API_SO) $(API_A)

$(API_SO): $(API_OBJ) $(CORE_A) $(API_MAP)
	@mkdir -p $(@D)
	$(CC) -shared -o $@ $(API_OBJ) $(CORE_A) -Wl,--version-script=$(API_MAP) -Wl,-z,defs

# One relocatable object, as the musl archive is: a program's own symbols
# never meet the core's.
$(API_A): $(API_OBJ) $(CORE_A)
	@mkdir -p $(@D)
	ld -r -o $@.o $(API_OBJ) $(CORE_A)
	objcopy --wildcard --keep-global-symbol='rk8s_*' $@.o
	rm -f $@ && ar rcs $@ $@.o && rm $@.o

# `make install` into a staging tree, and a C program built from it with
# pkg-config, against the .so and statically against the .a.
API_STAGE := $(B)/tests/api/stage
TESTS += test-api
.PHONY: test-api
test-api:
	rm -rf $(API_STAGE)
	$(MAKE) --no-print-directory install DESTDIR=$(abspath $(API_STAGE)) PREFIX=/usr
	tests/api/install_test.sh $(API_STAGE) $(B)/tests/api
