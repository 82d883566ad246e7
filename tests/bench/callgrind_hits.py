#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# callgrind_hits.py SHORT LONG EXTRA [TOP]: instructions per query from two
# callgrind outputs of one server, SHORT and LONG, that answered the same
# start-up and EXTRA more queries in LONG: what LONG counted beyond SHORT,
# divided by EXTRA, so that start-up cancels out. Prints the program's total,
# then a Markdown table of the TOP functions (12) by instructions per query,
# inclusive (the function and what it calls) beside self.
import re
import subprocess
import sys


def load(path, inclusive):
    out = subprocess.run(["callgrind_annotate", "--auto=no", "--threshold=100",
                          "--inclusive=" + ("yes" if inclusive else "no"), path], capture_output=True, text=True, check=True).stdout
    total, fns = 0, {}
    for line in out.splitlines():
        m = re.match(r"\s*([\d,]+) (?:\([^)]*\))?\s*(.*)", line)
        if not m:
            continue
        n = int(m.group(1).replace(",", ""))
        if "PROGRAM TOTALS" in line:
            total = n
            continue
        # "file:function [object]": the function alone, its arguments cut short.
        fn = re.sub(r"^.*?:(?=[A-Za-z_~(])", "", m.group(2), count=1)
        fn = re.sub(r" \[.*\]$", "", fn)[:100]
        # A function is listed once per file its code came from (what was
        # inlined into it): self counts add up, the inclusive ones overlap and
        # the largest holds the rest.
        fns[fn] = max(fns.get(fn, 0), n) if inclusive else fns.get(fn, 0) + n
    return total, fns


def main():
    short, long, extra = sys.argv[1], sys.argv[2], int(sys.argv[3])
    top = int(sys.argv[4]) if len(sys.argv) > 4 else 12
    (t0, inc0), (t1, inc1) = load(short, True), load(long, True)
    _, self0 = load(short, False)
    _, self1 = load(long, False)
    per = lambda a, b, k: (b.get(k, 0) - a.get(k, 0)) / extra
    print(f"total {round((t1 - t0) / extra)}")
    # Inclusive counts of the loop and the thread's start stand for all: the
    # table begins below the event loop's dispatch.
    rows = sorted(set(inc0) | set(inc1), key=lambda k: -per(inc0, inc1, k))
    rows = [k for k in rows if not re.match(r"(\?\?\?:0x|start_thread|clone|event_base_loop|event_process_active"
                                            r"|std::thread|rk8s::server::Loop::run|\(below main\))", k)]
    print("| instructions per hit, inclusive | self | function |")
    print("|---:|---:|---|")
    for k in rows[:top]:
        name = k.replace("|", "\\|")
        print(f"| {per(inc0, inc1, k):.0f} | {per(self0, self1, k):.0f} | `{name}` |")


main()
