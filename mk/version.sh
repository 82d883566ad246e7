#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# version.sh: the project's version, RK8S_VERSION of the public header: the
# one place the Makefile, the image scripts and the tests read it from.
exec sed -n 's/^#define RK8S_VERSION "\(.*\)"$/\1/p' "$(dirname "$0")/../include/resolv-k8s.h"
