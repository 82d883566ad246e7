#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# threads_test.sh BUILD_DIR: 16 threads x 200 lookups through the shim, one
# fork half-way; the child's lookups see what the parent saw. The shim alone:
# glibc itself may deadlock in such a child.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

run shim "$WORK/one.conf" -- "$STORM" -t 16 -n 200 -k web
check "16 threads, fork" "3200 fd00:10:96::110
1 child-ok
status 0" "$(< "$WORK/shim")"
summary
