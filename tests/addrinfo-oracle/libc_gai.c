// SPDX-License-Identifier: Apache-2.0
/* The real libc's getaddrinfo over the oracle's cases (stdin). */
#include "cases.h"

int main(void)
{
	run_cases(stdin, getaddrinfo, freeaddrinfo);
	return 0;
}
