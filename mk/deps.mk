# SPDX-License-Identifier: Apache-2.0
# make deps: the Debian packages, then c-ares and mimalloc from Debian's own
# source packages (mk/fetch-source.sh: each at its version below or the
# latest Debian update of it), built once per libc (and per ARCH: each its
# own B) into $(B)/third_party/{glibc,musl}. TP_SRC: where the sources are
# unpacked (an ARCH=arm64 build passes the amd64 build's, fetched once).
# make deps-build: the same with the packages the build and the demo need
# alone (mk/packages.sh build).

TP := $(B)/third_party
TP_SRC ?= $(TP)/src
CARES_DEB := c-ares=1.18.1-3
MIMALLOC_DEB := mimalloc=2.0.9+ds-2
# Only for the static resolv-k8s of the init image (mk/tools.mk): Debian
# ships jsoncpp shared only.
JSONCPP_DEB := libjsoncpp=1.9.5-4
CARES_SRC := $(TP_SRC)/c-ares-1.18.1
MIMALLOC_SRC := $(TP_SRC)/mimalloc-2.0.9+ds
# What code built against LIBC's c-ares compiles with: $(call THIRD_PARTY_FLAGS,LIBC).
# The build defines CARES_STATICLIB; code including ares.h defines it too.
THIRD_PARTY_FLAGS = -DCARES_STATICLIB -isystem $(TP)/$(1)/include
# Linked by path: the archives of LIBC, $(call THIRD_PARTY_LIBS,LIBC).
THIRD_PARTY_LIBS = $(TP)/$(1)/lib/libcares.a $(TP)/$(1)/lib/libmimalloc.a
TP_LIBS := $(call THIRD_PARTY_LIBS,glibc) $(call THIRD_PARTY_LIBS,musl)

CARES_CMAKE := -DCARES_STATIC=ON -DCARES_STATIC_PIC=ON -DCARES_SHARED=OFF \
  -DCARES_BUILD_TOOLS=OFF -DCARES_BUILD_TESTS=OFF
# MI_OVERRIDE=OFF: the library allocates with mi_* only and never replaces
# the application's malloc. TLS stays initial-exec (MI_LOCAL_DYNAMIC_TLS=OFF):
# a library named in LD_PRELOAD is loaded at startup, so glibc and musl put
# its TLS in the static block, and a static musl link relaxes it to
# local-exec. What it cannot do is be dlopen()ed later under musl, which
# refuses initial-exec TLS then; we are never loaded that way.
MIMALLOC_CMAKE := -DMI_OVERRIDE=OFF -DMI_BUILD_STATIC=ON -DMI_BUILD_SHARED=OFF \
  -DMI_BUILD_OBJECT=OFF -DMI_BUILD_TESTS=OFF -DMI_INSTALL_TOPLEVEL=ON -DMI_LOCAL_DYNAMIC_TLS=OFF
# No environment read, nothing written to the program's streams: the
# forced header says how (MI_NO_GETENV, and mimalloc's one fputs made a no-op).
MIMALLOC_PRIVATE := $(abspath mk/mimalloc-private.h)

.PHONY: deps-packages deps-build deps-build-packages
deps: deps-packages $(TP_LIBS)
deps-build: deps-build-packages $(TP_LIBS)
deps-packages:
	@mk/packages.sh
deps-build-packages:
	@mk/packages.sh build

$(TP_SRC)/.fetched: mk/fetch-source.sh | deps-build-packages
	@rm -rf $(@D)
	@mk/fetch-source.sh $(@D) $(CARES_DEB) $(MIMALLOC_DEB) $(JSONCPP_DEB)
	@touch $@

$(TP)/%/lib/libcares.a: $(TP_SRC)/.fetched mk/third-party.sh
	+@mk/third-party.sh $(ARCH) $* $(CARES_SRC) $(TP)/work/$*/c-ares $(TP)/$* $(CARES_CMAKE)
$(TP)/%/lib/libmimalloc.a: $(TP_SRC)/.fetched mk/third-party.sh $(MIMALLOC_PRIVATE)
	+@TP_CFLAGS='-include $(MIMALLOC_PRIVATE)' mk/third-party.sh $(ARCH) $* $(MIMALLOC_SRC) $(TP)/work/$*/mimalloc $(TP)/$* $(MIMALLOC_CMAKE)

# The archives in use: a static musl program, a musl .so preloaded into a
# musl program (its initial-exec TLS), and a glibc .so preloaded into
# /bin/true; neither .so exports their symbols.
TESTS += test-third-party
.PHONY: test-third-party
test-third-party: deps $(B)/tests/gai-probe-musl
	@mkdir -p $(B)/tests
	musl-gcc -static -O2 $(call THIRD_PARTY_FLAGS,musl) tests/pod/third-party-check.c \
	  $(call THIRD_PARTY_LIBS,musl) -o $(B)/tests/third-party-check-musl
	$(B)/tests/third-party-check-musl
	musl-gcc -shared -fPIC -O2 -DPRELOAD $(call THIRD_PARTY_FLAGS,musl) tests/pod/third-party-check.c \
	  $(call THIRD_PARTY_LIBS,musl) -o $(B)/tests/third-party-check-musl.so
	LD_PRELOAD=$(abspath $(B)/tests/third-party-check-musl.so) $(B)/tests/gai-probe-musl -F numerichost 127.0.0.1
	gcc -shared -fPIC -O2 -DPRELOAD $(call THIRD_PARTY_FLAGS,glibc) tests/pod/third-party-check.c \
	  $(call THIRD_PARTY_LIBS,glibc) -pthread -o $(B)/tests/third-party-check.so
	LD_PRELOAD=$(abspath $(B)/tests/third-party-check.so) /bin/true
	@! nm -D --defined-only $(B)/tests/third-party-check.so $(B)/tests/third-party-check-musl.so | grep -E ' (ares|mi|_mi)_'
