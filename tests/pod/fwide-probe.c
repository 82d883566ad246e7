/* SPDX-License-Identifier: Apache-2.0
 * fwide-probe: prints the orientation of stderr as main finds it (0: none
 * yet), to show that what the process loaded before main left it alone. */
#include <stdio.h>
#include <wchar.h>

int main(void)
{
	printf("%d\n", fwide(stderr, 0));
	return 0;
}
