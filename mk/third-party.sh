#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# third-party.sh LIBC SRC WORK PREFIX [CMAKE_OPTION...]: builds the CMake
# project in SRC with the compiler of LIBC (glibc: gcc, musl: musl-gcc) as
# static, PIC, hidden-visibility archives, and copies its headers and .a files
# into PREFIX/include and PREFIX/lib. RelWithDebInfo: -O2 -g -DNDEBUG (without
# NDEBUG mimalloc builds its debug checks). The build joins make's jobserver.
set -euo pipefail
libc=$1 src=$2 work=$3 prefix=$4; shift 4
case $libc in
glibc) cc=gcc ;;
musl) cc=musl-gcc ;;
*) echo "third-party.sh: unknown libc $libc" >&2; exit 2 ;;
esac

echo "deps: $(basename "$src") for $libc"
rm -rf "$work"
mkdir -p "$work" "$prefix/include" "$prefix/lib"
log=$work/log
{
	cmake -S "$src" -B "$work/build" -DCMAKE_C_COMPILER=$cc \
		-DCMAKE_BUILD_TYPE=RelWithDebInfo \
		-DCMAKE_C_FLAGS='-fPIC -fvisibility=hidden' \
		-DCMAKE_INSTALL_PREFIX="$work/stage" -DCMAKE_INSTALL_LIBDIR=lib "$@" &&
	cmake --build "$work/build" &&
	cmake --install "$work/build"
} > "$log" 2>&1 || { tail -40 "$log" >&2; echo "deps: failed, see $log" >&2; exit 1; }
cp -R "$work/stage/include/." "$prefix/include/"
cp "$work"/stage/lib/*.a "$prefix/lib/"
