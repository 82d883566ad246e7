#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# build.sh SRC OUT: glibc's support/ library and its resolver tests from the
# glibc source tree SRC (Debian's, patches applied), built standalone
# against the system's glibc into OUT/bin. glibc's own tree is never
# copied into ours: the few internal headers support/ needs are linked from
# SRC at build time, and the rest shimmed in OUT/include. A test that does
# not build is named in OUT/unbuilt with the first error.
set -euo pipefail
src=$(realpath "$1")
out=$(realpath -m "$2")
rm -rf "$out/include" "$out/obj" "$out/bin" "$out/lib" "$out/locale" "$out/unbuilt"
mkdir -p "$out/include" "$out/obj" "$out/bin" "$out/lib" "$out/locale"

# support/'s internal headers: glibc's own, unchanged ones...
for h in array_length.h intprops.h libc-pointer-arith.h scratch_buffer.h; do
	ln -s "$src/include/$h" "$out/include/$h"
done
# ... <support/...> and <resolv/...> as the tests name them ...
ln -s "$src/support" "$out/include/support"
ln -s "$src/resolv" "$out/include/resolv"
# ... and what glibc's build defines: its symbol-hiding macros (nothing to
# hide outside libc), the stack's direction of x86_64 and aarch64.
cat > "$out/include/shim.h" <<'SHIM'
#define libc_hidden_proto(...)
#define attribute_hidden
#include <limits.h>
#include <resolv.h>
#include <dlfcn.h>
#include <sched.h>
SHIM
echo '#define _STACK_GROWS_DOWN 1' > "$out/include/stackinfo.h"
: > "$out/include/config.h"

cflags=(
	-O1 -g -w -D_GNU_SOURCE -pthread -include "$out/include/shim.h" -I"$out/include"
	-idirafter "$src/support" -idirafter "$src/resolv" -DTIMEOUTFACTOR=1
	-DSRCDIR_PATH="\"$src\"" -DOBJDIR_PATH="\"$out\"" -DOBJDIR_ELF_LDSO_PATH="\"/lib64/ld-linux-x86-64.so.2\""
	-DINSTDIR_PATH='"/"' -DLIBDIR_PATH='"/usr/lib"' -DBINDIR_PATH='"/usr/bin"' -DSBINDIR_PATH='"/usr/sbin"'
	-DSLIBDIR_PATH='"/lib"' -DROOTSBINDIR_PATH='"/sbin"' -DCOMPLOCALEDIR_PATH='"/usr/lib/locale"'
)
export CFLAGS_LINE="${cflags[*]@Q}"

# libsupport-routines of support/Makefile, less the 32-bit time64 twins and
# the few that need glibc's own atomics, dynarray or ELF internals: no
# resolver test calls them.
skip=' support_path_support_time64 support_socket_so_timestamp_time64 support_small_stack_thread_attribute support_stack_alloc support_descriptors xclone '
routines=()
for r in $(sed -n '/^libsupport-routines *=/,/^$/{/=/d; s/\\//; p}' "$src/support/Makefile"); do
	[[ $skip == *" $r "* ]] || routines+=("$r")
done
printf '%s\n' "${routines[@]}" | xargs -P2 -I{} bash -c \
	'eval "gcc $CFLAGS_LINE -c \"$0/support/{}.c\" -o \"$1/obj/{}.o\""' "$src" "$out"
ar rcs "$out/libsupport.a" "$out"/obj/*.o

# What the tests' run needs, as glibc's test run has it (LOCPATH and the
# library path, suite_test.sh): the two locales of resolv/Makefile's
# LOCALES from glibc's own locale sources, and the empty libidn2 stand-in
# that tst-resolv-ai_idn-nolibidn2 loads.
for l in en_US.UTF-8 en_US.ISO-8859-1; do
	I18NPATH=$src/localedata localedef --no-archive -i en_US -f "${l#*.}" "$out/locale/$l"
done
eval "gcc $CFLAGS_LINE -shared -fPIC -Wl,-soname,libidn2.so.0 \"$src/resolv/tst-no-libidn2.c\" -o \"$out/lib/tst-no-libidn2.so\""

# The resolver tests: tst-bug18665* and tst-resolv-*, less the files other
# tests include and glibc's xtests (run by its `make xcheck`, not `make
# check`: tst-resolv-qtypes and -rotate, 9 minutes here).
xtests=" $(sed -n 's/^xtests += //p' "$src/resolv/Makefile" | xargs) "
tests=()
for f in "$src"/resolv/tst-bug18665*.c "$src"/resolv/tst-resolv-*.c; do
	t=$(basename "$f" .c)
	grep -q '^#include "'"$t"'.c"' "$src"/resolv/tst-*.c && continue
	[[ $t == *-skeleton || $xtests == *" $t "* ]] && continue
	tests+=("$t")
done
build_one() {
	eval "gcc $CFLAGS_LINE \"$1/resolv/$3.c\" -o \"$2/bin/$3\" \"$2/libsupport.a\" -lresolv" \
		2> "$2/obj/$3.err" ||
		echo "$3: $(grep -m1 -E 'error|undefined reference' "$2/obj/$3.err" | sed 's/.*: //')" >> "$2/unbuilt"
}
export -f build_one
printf '%s\n' "${tests[@]}" | xargs -P2 -I{} bash -c 'build_one "$0" "$1" {}' "$src" "$out"
touch "$out/unbuilt"
echo "glibc-suite: $(ls "$out/bin" | wc -l) tests built, $(wc -l < "$out/unbuilt") not"
