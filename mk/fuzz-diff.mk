# SPDX-License-Identifier: Apache-2.0
# Differential fuzz targets (fuzz/diff/): glibc and musl themselves as the
# oracle, in private namespaces (as root). The glibc ones are libFuzzer
# targets on the sanitized core, the transport and c-ares included, and for
# dns_glibc_diff the companion server; the musl ones are static musl drivers
# that replay the glibc targets' corpora and mutate them (libFuzzer does not
# link with musl). Seeds in fuzz/corpus/<glibc target>/, findings in
# $(B)/fuzz/diff/work/.
#
#   make fuzz-diff        each for FUZZ_DIFF_SECONDS (600)
#   make fuzz-diff-minute each for a minute from its seeds alone (a corpus
#                         grown afresh under $(B)/fuzz/diff/minute/): the
#                         check that nothing new diverges
#   make test-fuzz-diff   each replays its seeds, every divergence fixed among
#                         them (part of make test)

FDIFF := $(B)/fuzz/diff
FDIFF_GLIBC := $(FDIFF)/conf_glibc_diff $(FDIFF)/hosts_glibc_diff $(FDIFF)/dns_glibc_diff
FDIFF_MUSL := $(FDIFF)/conf_musl_diff $(FDIFF)/dns_musl_diff

$(TRANSPORT_SRC:%.cc=$(B)/obj/fuzz/%.o): FUZZ_FLAGS += $(call THIRD_PARTY_FLAGS,glibc)
$(TRANSPORT_SRC:%.cc=$(B)/obj/fuzz/%.o): | $(TP_LIBS)
# The oracles' C pieces, shared with tests/conf-oracle and tests/addrinfo-oracle.
FDIFF_C := tests/conf-oracle/glibc_state.c tests/addrinfo-oracle/cases.c
$(FDIFF_C:%.c=$(B)/obj/fuzz/%.o): $(B)/obj/fuzz/%.o: %.c
	@mkdir -p $(@D)
	clang -std=gnu11 -O1 -g -fsanitize=fuzzer-no-link,address,undefined -MMD -MP -c $< -o $@

FDIFF_GLIBC_OBJ := $(B)/obj/fuzz/fuzz/diff/harness.o $(B)/obj/fuzz/tests/conf-oracle/conf_text.o \
  $(FDIFF_C:%.c=$(B)/obj/fuzz/%.o) $(TRANSPORT_SRC:%.cc=$(B)/obj/fuzz/%.o) $(FUZZ_CORE)
$(FDIFF)/conf_glibc_diff $(FDIFF)/hosts_glibc_diff: $(FDIFF)/%: $(B)/obj/fuzz/fuzz/diff/%.o $(FDIFF_GLIBC_OBJ)
	@mkdir -p $(@D)
	$(CLANGXX) $(FUZZ_FLAGS) $^ -o $@ $(TP)/glibc/lib/libcares.a
$(FDIFF)/dns_glibc_diff: $(B)/obj/fuzz/fuzz/diff/dns_glibc_diff.o $(SERVER_SRC:%.cc=$(B)/obj/fuzz/%.o) $(COMMON_FUZZ_OBJ) $(FDIFF_GLIBC_OBJ)
	@mkdir -p $(@D)
	$(CLANGXX) $(FUZZ_FLAGS) $^ -o $@ $(TP)/glibc/lib/libcares.a $(SERVER_LIBS)

# The musl drivers: the core's musl objects and flags, musl's libc.a.
FDIFF_MUSL_OBJ := $(B)/obj/musl/fuzz/diff/harness.o $(B)/obj/musl/tests/conf-oracle/conf_text.o $(FDIFF)/cases-musl.o
$(FDIFF_MUSL_OBJ) $(FDIFF_MUSL:$(FDIFF)/%=$(B)/obj/musl/fuzz/diff/%.o): CORE_FLAGS += -I.
$(FDIFF)/cases-musl.o: tests/addrinfo-oracle/cases.c tests/addrinfo-oracle/cases.h
	@mkdir -p $(@D)
	musl-gcc -std=gnu11 -O2 -g -Wall -Wextra -c $< -o $@
# dns_musl_diff answers musl's own transport in process (its __res_msend_rc).
$(FDIFF)/dns_musl_diff: FDIFF_LDFLAGS := -Wl,--wrap=__res_msend_rc
$(FDIFF_MUSL): $(FDIFF)/%: $(B)/obj/musl/fuzz/diff/%.o $(FDIFF_MUSL_OBJ) $(CORE_MUSL_A) $(call THIRD_PARTY_LIBS,musl)
	musl-gcc -static $(FDIFF_LDFLAGS) -o $@ $^

# $(call fdiff_run,SECONDS,FLAGS[,DIR]): every target in turn, its findings
# and the corpus it grew under DIR ($(FDIFF)/work/); a musl driver replays
# the corpus of its glibc twin, seeds and grown.
define fdiff_run
	@set -e; w=$(or $(3),$(FDIFF)/work); mkdir -p $$w; for f in $(FDIFF_GLIBC) $(FDIFF_MUSL); do n=$$(basename $$f); \
	  twin=$${n/_musl_/_glibc_}; mkdir -p $$w/$$twin; \
	  echo "fuzz-diff $$n"; \
	  if [[ $$n == *_glibc_* ]]; then \
	    $$f -max_total_time=$(1) $(2) -print_final_stats=1 -artifact_prefix=$$w/ \
	      $$w/$$n fuzz/corpus/$$n >$$w/$$n.log 2>&1; \
	  else \
	    $$f -max_total_time=$(1) $(2) -artifact_prefix=$$w/ \
	      fuzz/corpus/$$twin $$w/$$twin >$$w/$$n.log 2>&1; \
	  fi || { tail -40 $$w/$$n.log; exit 1; }; \
	  grep -h '^stat::number_of_executed_units\|^stat::average_exec_per_sec\|^fuzz-diff: tolerated' \
	    $$w/$$n.log; \
	done
endef

FUZZ_DIFF_SECONDS ?= 600
.PHONY: fuzz-diff fuzz-diff-minute test-fuzz-diff
fuzz-diff: $(FDIFF_GLIBC) $(FDIFF_MUSL)
	$(call fdiff_run,$(FUZZ_DIFF_SECONDS))
fuzz-diff-minute: $(FDIFF_GLIBC) $(FDIFF_MUSL)
	rm -rf $(FDIFF)/minute
	$(call fdiff_run,60,,$(FDIFF)/minute)
TESTS += test-fuzz-diff
test-fuzz-diff: $(FDIFF_GLIBC) $(FDIFF_MUSL)
	$(call fdiff_run,0,-runs=0)
