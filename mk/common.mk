# SPDX-License-Identifier: Apache-2.0
# common/ (common/README.md): what the server and the tools share, linked
# into both as objects of their own build.

COMMON_SRC := $(wildcard common/*.cc)
COMMON_OBJ := $(COMMON_SRC:%.cc=$(B)/obj/host/%.o)
COMMON_FUZZ_OBJ := $(COMMON_SRC:%.cc=$(B)/obj/fuzz/%.o)

# Its unit tests (tests/common/) ride in the server's test binary
# (mk/server.mk), which links these objects and jsoncpp already.
COMMON_TEST_SRC := $(wildcard tests/common/*_test.cc)
