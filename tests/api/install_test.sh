#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# install_test.sh STAGE WORK: what `make install DESTDIR=STAGE PREFIX=/usr`
# put there, and a C program (plan_demo.c) built from it with pkg-config,
# run against the .so and linked statically with the .a. WORK: scratch.
set -uo pipefail
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../lib/assert.sh"
stage=$(cd "${1:?usage: install_test.sh STAGE WORK}" && pwd)
work=${2:?usage: install_test.sh STAGE WORK}
mkdir -p "$work"

check "the staged tree" \
"755 usr/bin/resolv-k8s
755 usr/bin/resolv-k8s-server
644 usr/include/resolv-k8s.h
644 usr/lib/libresolv-k8s-api.a
755 usr/lib/libresolv-k8s-api.so
644 usr/lib/pkgconfig/resolv-k8s.pc
755 usr/lib/resolv-k8s/glibc/libresolv-k8s.so
644 usr/lib/resolv-k8s/musl/libresolv-k8s.a
755 usr/lib/resolv-k8s/musl/libresolv-k8s.so" "$(find "$stage" -type f -printf '%m %P\n' | sort -k2)"
# The one preload path: each $LIB of glibc's loaders names the glibc build,
# the literal one (musl's loader expands nothing) the musl build.
check "the preload links" \
"\$LIB/libresolv-k8s.so musl
lib/aarch64-linux-gnu/libresolv-k8s.so glibc
lib/libresolv-k8s.so glibc
lib/x86_64-linux-gnu/libresolv-k8s.so glibc
lib64/libresolv-k8s.so glibc" "$(cd "$stage/usr/lib/resolv-k8s" && find . -type l -printf '%P ' -exec sh -c \
	'basename "$(dirname "$(readlink -f "$1")")"' _ {} \; | sort)"

# The staged tree as the system's: its /usr/lib and /usr/include are kept.
export PKG_CONFIG_LIBDIR=$stage/usr/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$stage \
	PKG_CONFIG_ALLOW_SYSTEM_CFLAGS=1 PKG_CONFIG_ALLOW_SYSTEM_LIBS=1
flags=$(pkg-config --cflags --libs resolv-k8s | xargs)
check "pkg-config: the installed paths" "-I$stage/usr/include -L$stage/usr/lib -lresolv-k8s-api" "$flags"

api=$stage/usr/lib/libresolv-k8s-api
declared=$(grep -o '\brk8s_[a-z_]*(' "$stage/usr/include/resolv-k8s.h" | tr -d '(' | sort | xargs)
check "the .so exports the header's functions, nothing else" "$declared" \
	"$(nm -D --defined-only "$api.so" | awk '{print $3}' | sort | xargs)"
check "the .a: the header's functions are its only globals" "$declared" \
	"$(nm --defined-only "$api.a" | awk '$2 ~ /^[A-Z]$/ {print $3}' | sort | xargs)"
check "the .so needs libc alone" "libc.so.6" \
	"$(readelf -d "$api.so" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | xargs)"

version=$(pkg-config --modversion resolv-k8s)
for bin in resolv-k8s resolv-k8s-server; do
	check "$bin --version: pkg-config's" "$bin $version" "$("$stage/usr/bin/$bin" --version)"
done

printf '%s\n' "search shop.svc.cluster.local svc.cluster.local cluster.local" \
	"nameserver 10.96.0.10" "options ndots:5" >"$work/resolv.conf"
want="libresolv-k8s $(pkg-config --modversion resolv-k8s)
web.shop.svc.cluster.local.
web.svc.cluster.local.
web.cluster.local.
web.
autopath: shop.svc.cluster.local. svc.cluster.local. cluster.local. ."

# shellcheck disable=SC2086 # $flags: words
gcc -std=c11 -O2 -Wall -Wextra -Werror "$here/plan_demo.c" $flags -o "$work/plan-demo"
check "shared: the library comes from the stage" "$api.so" \
	"$(LD_LIBRARY_PATH=$stage/usr/lib ldd "$work/plan-demo" | awk '$1 == "libresolv-k8s-api.so" {print $3}')"
check "shared: the plan" "$want" "$(LD_LIBRARY_PATH=$stage/usr/lib "$work/plan-demo" "$work/resolv.conf" web)"

# shellcheck disable=SC2046 # pkg-config's words
gcc -static -std=c11 -O2 -Wall -Wextra -Werror "$here/plan_demo.c" $(pkg-config --static --cflags --libs resolv-k8s) \
	-o "$work/plan-demo-static"
check "static: needs no shared library" "" "$(readelf -d "$work/plan-demo-static" | grep NEEDED)"
check "static: the plan" "$want" "$("$work/plan-demo-static" "$work/resolv.conf" web)"

summary
