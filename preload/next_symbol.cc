// SPDX-License-Identifier: Apache-2.0
#include "next_symbol.h"

#include <link.h>
#include <stdint.h>
#include <string.h>

// Our own ELF header, placed by the linker (hidden).
extern "C" const ElfW(Ehdr) __ehdr_start;

namespace rk8s {
namespace {

// The dynamic symbol table of one loaded object and its hash tables.
struct Symbols {
  ElfW(Addr) base;
  const ElfW(Sym)* sym = nullptr;
  const char* str = nullptr;
  const uint32_t* gnu_hash = nullptr;
  const uint32_t* sysv_hash = nullptr;
  const ElfW(Half)* versym = nullptr;
};

// glibc turns these addresses absolute in place; musl and the vDSO keep
// them relative to the base.
template <class T>
const T* at(ElfW(Addr) base, ElfW(Addr) p) {
  return reinterpret_cast<const T*>(p < base ? base + p : p);
}

bool read_symbols(const dl_phdr_info& info, Symbols& s) {
  s.base = info.dlpi_addr;
  const ElfW(Dyn)* dyn = nullptr;
  for (size_t i = 0; i < info.dlpi_phnum; i++)
    if (info.dlpi_phdr[i].p_type == PT_DYNAMIC)
      dyn = reinterpret_cast<const ElfW(Dyn)*>(s.base + info.dlpi_phdr[i].p_vaddr);
  for (; dyn && dyn->d_tag != DT_NULL; dyn++) {
    ElfW(Addr) p = dyn->d_un.d_ptr;
    switch (dyn->d_tag) {
      case DT_SYMTAB: s.sym = at<ElfW(Sym)>(s.base, p); break;
      case DT_STRTAB: s.str = at<char>(s.base, p); break;
      case DT_GNU_HASH: s.gnu_hash = at<uint32_t>(s.base, p); break;
      case DT_HASH: s.sysv_hash = at<uint32_t>(s.base, p); break;
      case DT_VERSYM: s.versym = at<ElfW(Half)>(s.base, p); break;
    }
  }
  return s.sym && s.str && (s.gnu_hash || s.sysv_hash);
}

// A function the object defines under `name`, in its default version (as
// dlsym picks among pthread_key_create@@GLIBC_2.34 and @GLIBC_2.2.5).
void* defined(const Symbols& s, uint32_t i, const char* name) {
  const ElfW(Sym)& sym = s.sym[i];
  unsigned bind = sym.st_info >> 4, type = sym.st_info & 0xf;
  if (sym.st_shndx == SHN_UNDEF || type != STT_FUNC || (bind != STB_GLOBAL && bind != STB_WEAK))
    return nullptr;
  if (s.versym && ((s.versym[i] & 0x8000) || (s.versym[i] & 0x7fff) == 0)) return nullptr;
  if (strcmp(s.str + sym.st_name, name) != 0) return nullptr;
  return reinterpret_cast<void*>(s.base + sym.st_value);
}

void* find_gnu(const Symbols& s, const char* name) {
  uint32_t hash = 5381;
  for (const char* c = name; *c; c++) hash = hash * 33 + uint8_t(*c);
  const uint32_t* h = s.gnu_hash;
  uint32_t buckets = h[0], first = h[1], bloom_words = h[2];
  const uint32_t* bucket = h + 4 + bloom_words * (sizeof(ElfW(Addr)) / 4);
  const uint32_t* chain = bucket + buckets;
  if (buckets == 0) return nullptr;
  for (uint32_t i = bucket[hash % buckets]; i >= first && i != 0; i++) {
    uint32_t h2 = chain[i - first];
    if ((h2 | 1) == (hash | 1))
      if (void* p = defined(s, i, name)) return p;
    if (h2 & 1) break;
  }
  return nullptr;
}

void* find_sysv(const Symbols& s, const char* name) {
  uint32_t hash = 0;
  for (const char* c = name; *c; c++) {
    hash = (hash << 4) + uint8_t(*c);
    hash ^= (hash & 0xf0000000) >> 24;
    hash &= 0x0fffffff;
  }
  const uint32_t* h = s.sysv_hash;
  uint32_t buckets = h[0];
  const uint32_t* bucket = h + 2;
  const uint32_t* chain = bucket + buckets;
  for (uint32_t i = buckets ? bucket[hash % buckets] : 0; i != 0; i = chain[i])
    if (void* p = defined(s, i, name)) return p;
  return nullptr;
}

struct Search {
  const char* name;
  bool past_us;
  void* found;
};

// The objects in load order, as dlsym(RTLD_NEXT) searches them from ours:
// the libraries loaded with the program and our preload, then dlopen's.
int visit(dl_phdr_info* info, size_t, void* data) {
  Search& search = *static_cast<Search*>(data);
  if (!search.past_us) {
    const char* us = reinterpret_cast<const char*>(&__ehdr_start);
    search.past_us = info->dlpi_phdr == reinterpret_cast<const ElfW(Phdr)*>(us + __ehdr_start.e_phoff);
    return 0;
  }
  Symbols s;
  if (!read_symbols(*info, s)) return 0;
  search.found = s.gnu_hash ? find_gnu(s, search.name) : find_sysv(s, search.name);
  return search.found != nullptr;
}

}  // namespace

void* next_symbol(const char* name) {
  Search search{name, false, nullptr};
  dl_iterate_phdr(visit, &search);
  return search.found;
}

}  // namespace rk8s
