# SPDX-License-Identifier: Apache-2.0
# make install: the GNU way, PREFIX (/usr/local) and DESTDIR, each
# directory overridable. The preload libraries go under
# $(libdir)/resolv-k8s/{glibc,musl}/, out of the linker's way, with the
# links that make $(libdir)/resolv-k8s/$$LIB/libresolv-k8s.so each libc's
# own build (container/images/copier.c lays them); the API
# library, its header and its pkg-config file where programs find them.

PREFIX ?= /usr/local
bindir ?= $(PREFIX)/bin
libdir ?= $(PREFIX)/lib
includedir ?= $(PREFIX)/include
pkgconfigdir ?= $(libdir)/pkgconfig
# A directory under PREFIX as the .pc file names it, from ${prefix}: then
# `pkg-config --define-variable=prefix=DIR` relocates the whole tree.
pc_dir = $(patsubst $(PREFIX)/%,$${prefix}/%,$(1))
VERSION := $(shell mk/version.sh)

.PHONY: install
install: $(PRELOAD_SO) $(MUSL_STATIC) $(API_SO) $(API_A) $(TOOL_BIN) $(SERVER_BIN) $(B)/images/copier \
    libresolv-k8s/api/resolv-k8s.pc.in
	install -D -m 755 -t $(DESTDIR)$(bindir) $(TOOL_BIN) $(SERVER_BIN)
	install -D -m 755 -t $(DESTDIR)$(libdir)/resolv-k8s/glibc $(B)/glibc/libresolv-k8s.so
	install -D -m 755 -t $(DESTDIR)$(libdir)/resolv-k8s/musl $(B)/musl/libresolv-k8s.so
	install -D -m 644 -t $(DESTDIR)$(libdir)/resolv-k8s/musl $(MUSL_STATIC)
	$(B)/images/copier --links $(DESTDIR)$(libdir)/resolv-k8s
	install -D -m 755 -t $(DESTDIR)$(libdir) $(API_SO)
	install -D -m 644 -t $(DESTDIR)$(libdir) $(API_A)
	install -D -m 644 -t $(DESTDIR)$(includedir) include/resolv-k8s.h
	sed -e 's|@prefix@|$(PREFIX)|; s|@libdir@|$(call pc_dir,$(libdir))|; s|@includedir@|$(call pc_dir,$(includedir))|' \
	  -e 's|@version@|$(VERSION)|' libresolv-k8s/api/resolv-k8s.pc.in >$(B)/lib/resolv-k8s.pc
	install -D -m 644 -t $(DESTDIR)$(pkgconfigdir) $(B)/lib/resolv-k8s.pc
