// SPDX-License-Identifier: Apache-2.0
#include "server/answer/completion.h"

#include <algorithm>
#include <memory>

namespace rk8s::server {
namespace {

// The links so far, their records copied with the TTLs they stand at, so
// answers cached at different times can go in one reply.
class Chain : public std::enable_shared_from_this<Chain> {
 public:
  Chain(const Router& router, const Ask& ask, Resolved done) : router_(router), ask_(ask), done_(std::move(done)) {}

  void add_link(const Resolution& res) {
    reuse_.add(res.reuse);
    for (const RrRef& r : res.records) {
      records_.push_back(held_->copy(res, r));
      links_ += r.rr->type == dns::kTypeCNAME;
    }
  }

  void follow(const Name& target) {
    if (links_ > kMaxLinks || seen(target)) return fail();
    Ask next = ask_;
    next.name = target;
    auto self = shared_from_this();
    Source* source = router_.route(target);
    if (!source) return fail();
    source->resolve(next, [self, next](const Resolution* res) {
      if (!res) return self->done_(nullptr);
      if (res->over_budget) return self->done_(res);
      self->add_link(*res);
      Name further;
      if (dangling(next, *res, further)) return self->follow(further);
      self->finish(*res);
    });
  }

 private:
  // A name the chain has already reached: a loop.
  bool seen(const Name& name) const {
    if (dns::name_equal(name, ask_.name)) return true;
    for (const RrRef& r : records_)
      if (r.rr->type == dns::kTypeCNAME && dns::name_equal(r.owner, name)) return true;
    return false;
  }

  void finish(const Resolution& last) {
    Resolution out;
    out.rcode = last.rcode;
    out.recursive = true;
    out.has_data = last.has_data;
    out.records = std::move(records_);
    for (const RrRef& r : last.authority) out.authority.push_back(held_->copy(last, r));
    for (const RrRef& r : last.additional) out.additional.push_back(held_->copy(last, r));
    out.keep = held_;
    out.reuse = reuse_;
    done_(&out);
  }

  void fail() {
    Resolution out;
    out.rcode = dns::kServFail;
    out.recursive = true;
    out.reuse.kept = 0;
    done_(&out);
  }

  const Router& router_;
  Ask ask_;
  Resolved done_;
  std::shared_ptr<HeldRecords> held_ = std::make_shared<HeldRecords>();
  std::vector<RrRef> records_;
  int links_ = 0;
  Reuse reuse_;
};

}  // namespace

bool dangling(const Ask& ask, const Resolution& res, Name& target) {
  if (!res.recursive || res.rcode != dns::kNoError || res.has_data || res.soa() ||
      ask.type == dns::kTypeCNAME || ask.type == dns::kTypeANY)
    return false;
  Name at = ask.name;
  bool moved = true;
  for (size_t hop = 0; moved && hop < res.records.size(); hop++) {
    moved = false;
    for (const RrRef& r : res.records)
      if (r.rr->type == dns::kTypeCNAME && dns::name_equal(r.owner, at)) {
        at = rr_target(*r.rr);
        moved = true;
        break;
      }
  }
  if (dns::name_equal(at, ask.name)) return false;
  for (const RrRef& r : res.records)
    if (dns::name_equal(r.owner, at)) return false;
  target = at;
  return true;
}

void complete_chain(const Router& router, const Ask& ask, const Resolution& res, const Name& target,
                    Resolved done) {
  auto chain = std::make_shared<Chain>(router, ask, std::move(done));
  chain->add_link(res);
  chain->follow(target);
}

}  // namespace rk8s::server
