// SPDX-License-Identifier: Apache-2.0
// dlsym(RTLD_NEXT, name) without libdl: before 2.34 glibc had dlsym in
// libdl.so.2 alone, which an image made of ldd's list lacks when the
// program never calls it, and the preload names nothing but the libc.
#pragma once

namespace rk8s {

// The default version of `name` in the first object loaded after ours that
// defines it, read from the objects' own dynamic symbol tables; nullptr
// when none does.
void* next_symbol(const char* name);

// next_symbol into a function pointer of its type; with `older`, the name
// to look for when `name` is not there.
template <class F>
void find_next(F& f, const char* name, const char* older = nullptr) {
  f = reinterpret_cast<F>(next_symbol(name));
  if (!f && older) f = reinterpret_cast<F>(next_symbol(older));
}

}  // namespace rk8s
