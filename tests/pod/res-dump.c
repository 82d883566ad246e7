// SPDX-License-Identifier: Apache-2.0
/* res-dump: glibc's res_search for each NAME, as text two runs can diff.
 *
 *   res-dump [-t TYPE] [-b BUFSIZE] [-N] [-D] [-n N] NAME...
 *
 * -t: A (default), AAAA, SRV, TXT, MX, CNAME, PTR, ANY or a number.
 * -b: the answer buffer's size (default 4096). -N: res_nsearch on a state of
 * its own from res_ninit. -D: RES_DEFNAMES and RES_DNSRCH cleared in the
 * state after its initialisation, as mail servers do to search nothing.
 * -n N repeats each lookup N times and prints the last.
 *
 * Failure: "NAME: ret=-1 h_errno=X". Success: "NAME: len=N RCODE flags
 * an=N ns=N ar=N h_errno=X", "NAME: question QNAME TYPE", then one line per
 * record, "NAME: SECTION RECORD" as ns_sprintrr prints it ("OPT udp=N
 * rdlen=N" for the OPT record). Exit status 0, or 2 for a bad command line. */
#define _GNU_SOURCE
#include <arpa/nameser.h>
#include <netdb.h>
#include <resolv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* ns_sprintrr is deprecated, and still libresolv's own printer of records. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

static const struct { const char *name; int type; } types[] = {
	{ "A", ns_t_a }, { "AAAA", ns_t_aaaa }, { "SRV", ns_t_srv }, { "TXT", ns_t_txt },
	{ "MX", ns_t_mx }, { "CNAME", ns_t_cname }, { "PTR", ns_t_ptr }, { "ANY", ns_t_any },
};

static void usage(void)
{
	fputs("usage: res-dump [-t TYPE] [-b BUFSIZE] [-N] [-D] [-n N] NAME...\n", stderr);
	exit(2);
}

static int type_of(const char *s)
{
	for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
		if (!strcasecmp(s, types[i].name)) return types[i].type;
	char *end;
	long v = strtol(s, &end, 10);
	if (*end || v < 0 || v > 65535) usage();
	return (int)v;
}

static void print_reply(const char *name, const unsigned char *msg, int len)
{
	ns_msg m;
	if (ns_initparse(msg, len, &m) < 0) {
		printf("%s: len=%d unparsable\n", name, len);
		return;
	}
	static const char *const flag_names[] = { "qr", "aa", "tc", "rd", "ra", "z", "ad", "cd" };
	static const ns_flag flag_ids[] = { ns_f_qr, ns_f_aa, ns_f_tc, ns_f_rd, ns_f_ra, ns_f_z,
					    ns_f_ad, ns_f_cd };
	printf("%s: len=%d rcode=%d flags", name, len, ns_msg_getflag(m, ns_f_rcode));
	for (size_t i = 0; i < sizeof flag_ids / sizeof flag_ids[0]; i++)
		if (ns_msg_getflag(m, flag_ids[i])) printf(",%s", flag_names[i]);
	printf(" an=%d ns=%d ar=%d h_errno=%d\n", ns_msg_count(m, ns_s_an),
	       ns_msg_count(m, ns_s_ns), ns_msg_count(m, ns_s_ar), h_errno);
	static const char *const sections[] = { "question", "answer", "authority", "additional" };
	for (int s = ns_s_qd; s <= ns_s_ar; s++)
		for (int i = 0; i < ns_msg_count(m, (ns_sect)s); i++) {
			ns_rr rr;
			if (ns_parserr(&m, (ns_sect)s, i, &rr) < 0) {
				printf("%s: %s unparsable\n", name, sections[s]);
				return;
			}
			char text[4096];
			if (s == ns_s_qd)
				printf("%s: question %s %d\n", name, ns_rr_name(rr), ns_rr_type(rr));
			else if (ns_rr_type(rr) == ns_t_opt)
				printf("%s: %s OPT udp=%d rdlen=%d\n", name, sections[s], ns_rr_class(rr),
				       ns_rr_rdlen(rr));
			else if (ns_sprintrr(&m, &rr, NULL, NULL, text, sizeof text) < 0)
				printf("%s: %s unprintable\n", name, sections[s]);
			else
				printf("%s: %s %s\n", name, sections[s], text);
		}
}

int main(int argc, char **argv)
{
	int type = ns_t_a, bufsize = 4096, own_state = 0, no_search = 0, repeat = 1, opt;
	while ((opt = getopt(argc, argv, "t:b:NDn:")) != -1) {
		switch (opt) {
		case 't': type = type_of(optarg); break;
		case 'b': if ((bufsize = atoi(optarg)) < 1) usage(); break;
		case 'N': own_state = 1; break;
		case 'D': no_search = 1; break;
		case 'n': if ((repeat = atoi(optarg)) < 1) usage(); break;
		default: usage();
		}
	}
	if (optind == argc) usage();
	struct __res_state state;
	res_state statp = &_res;
	if (own_state) {
		memset(&state, 0, sizeof state);
		statp = &state;
		if (res_ninit(statp) < 0) return 1;
	} else if (no_search && res_init() < 0) {
		return 1;
	}
	if (no_search) statp->options &= ~(unsigned long)(RES_DEFNAMES | RES_DNSRCH);
	unsigned char *answer = malloc((size_t)bufsize);
	if (!answer) return 1;
	for (int i = optind; i < argc; i++) {
		int len = -1;
		for (int r = 0; r < repeat; r++)
			len = own_state ? res_nsearch(statp, argv[i], ns_c_in, type, answer, bufsize)
					: res_search(argv[i], ns_c_in, type, answer, bufsize);
		if (len < 0)
			printf("%s: ret=%d h_errno=%d\n", argv[i], len, h_errno);
		else
			print_reply(argv[i], answer, len < bufsize ? len : bufsize);
	}
	free(answer);
	return 0;
}
