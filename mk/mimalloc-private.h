/* SPDX-License-Identifier: Apache-2.0
 * Forced into every source of our private mimalloc (mk/deps.mk, -include):
 * it lives in the application's process and must not answer to its
 * environment nor touch its streams.
 *
 * MI_NO_GETENV (mimalloc's own switch, src/options.c): no MIMALLOC_*
 * variable is read; every option keeps its built-in default (no verbose
 * output, no statistics at exit, no error messages in a release build).
 *
 * fputs: mimalloc's one writer is mi_out_stderr's fputs(msg, stderr). Even
 * with nothing to say, it flushes its start-up buffer there, an empty
 * string, which makes the program's stderr byte-oriented (fwide(stderr, 0)
 * then says -1 before main, and the program's fwprintf(stderr, ...) fails).
 * Here it writes nothing. */
#define MI_NO_GETENV 1
#include <stdio.h>
#define fputs(msg, stream) ((void)(msg), (void)(stream), 0)
