// SPDX-License-Identifier: Apache-2.0
/* Prints what glibc's res_init() made of /etc/resolv.conf and the
 * environment, in the form conf_print prints our Config. */
#include <stdio.h>

#include "glibc_state.h"

int main(void) {
	if (res_init() != 0) {
		perror("res_init");
		return 1;
	}
	return print_glibc_state(stdout, &_res) == 0 ? 0 : 1;
}
