#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# third-party.sh ARCH LIBC SRC WORK PREFIX [CMAKE_OPTION...]: builds the
# CMake project in SRC with the compiler of ARCH and LIBC (amd64: gcc,
# musl-gcc; arm64: Debian's cross gcc, alone and with Debian's musl specs)
# as static, PIC, hidden-visibility archives, and copies its headers and .a
# files into PREFIX/include and PREFIX/lib. RelWithDebInfo: -O2 -g -DNDEBUG
# (without NDEBUG mimalloc builds its debug checks). TP_CFLAGS in the
# environment: C flags of this project's own (mimalloc's forced header).
# The build joins make's jobserver.
set -euo pipefail
arch=$1 libc=$2 src=$3 work=$4 prefix=$5; shift 5
cross=() cflags='-fPIC -fvisibility=hidden'
case $arch/$libc in
amd64/glibc) cc=gcc ;;
amd64/musl) cc=musl-gcc ;;
arm64/glibc) cc=aarch64-linux-gnu-gcc ;;
# Inline atomics: libgcc's outline ones call __getauxval, which musl lacks.
arm64/musl) cc=aarch64-linux-musl-gcc cflags+=' -mno-outline-atomics' ;;
*) echo "third-party.sh: unknown arch/libc $arch/$libc" >&2; exit 2 ;;
esac
cflags+=${TP_CFLAGS:+ $TP_CFLAGS}
if [[ $arch == arm64 ]]; then
	cross=(-DCMAKE_SYSTEM_NAME=Linux -DCMAKE_SYSTEM_PROCESSOR=aarch64
		-DCMAKE_AR="$(command -v aarch64-linux-gnu-ar)" -DCMAKE_RANLIB="$(command -v aarch64-linux-gnu-ranlib)")
fi

echo "deps: $(basename "$src") for $libc ($arch)"
rm -rf "$work"
mkdir -p "$work" "$prefix/include" "$prefix/lib"
log=$work/log
{
	cmake -S "$src" -B "$work/build" -DCMAKE_C_COMPILER=$cc "${cross[@]}" \
		-DCMAKE_BUILD_TYPE=RelWithDebInfo \
		-DCMAKE_C_FLAGS="$cflags" \
		-DCMAKE_INSTALL_PREFIX="$work/stage" -DCMAKE_INSTALL_LIBDIR=lib "$@" &&
	cmake --build "$work/build" &&
	cmake --install "$work/build"
} > "$log" 2>&1 || { tail -40 "$log" >&2; echo "deps: failed, see $log" >&2; exit 1; }
cp -R "$work/stage/include/." "$prefix/include/"
cp "$work"/stage/lib/*.a "$prefix/lib/"
