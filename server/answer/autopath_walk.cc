// SPDX-License-Identifier: Apache-2.0
#include "server/answer/autopath_walk.h"

#include "server/answer/schema_cut.h"
#include "server/cache/reply.h"
#include "server/util/coredns_names.h"

#include <algorithm>
#include <memory>

namespace rk8s::server {
namespace {

bool failed(const Resolution& res) {
  return res.rcode != dns::kNoError && res.rcode != dns::kNxDomain;
}

// glibc's success: NOERROR with a non-empty answer section (a CNAME alone
// will do).
bool positive(const Resolution& res) { return res.exists() && !res.records.empty(); }

// NXDOMAIN for the name asked itself, not a CNAME's target: nothing is
// beneath it (RFC 8020).
bool nothing_beneath(const Resolution& res) {
  return res.rcode == dns::kNxDomain && res.records.empty();
}

// One walk in progress. Candidates are decided in order; with BOTH, later
// ones are asked ahead of time, as many as the classic walk the option
// stands for is sure to ask: once candidates 0..k-1 are known not to match,
// the libc has asked A and AAAA of 0..k at least (2k + 2 queries), and the
// walk keeps one of those for the AAAA of the match. Candidate 0, where
// most lookups end (a Service of the pod's own namespace), is asked for A
// and AAAA at once, that one kept for it. Then the A of every candidate
// comes first, then the AAAA of those not yet decided, the last first: a
// name that is not the cluster's is mostly found as typed, at the end, and
// the slow candidates there (from the upstream resolvers) are all on their
// way once the cluster's have missed. Without BOTH the client walks each
// family apart, there is no such margin, and candidates go one at a time.
class Walker : public std::enable_shared_from_this<Walker> {
 public:
  Walker(const Router& router, const Ask& qname, const autopath::QueryOption& query,
         std::function<void(AutopathWalk&)> done, const WalkCuts& cuts)
      : router_(router), ask_(qname), flags_(query.flags), done_(std::move(done)), cuts_(cuts),
        past_nodata_(query.flags & autopath::kFlagPastNodata),
        stop_on_exists_(!past_nodata_ && (query.flags & autopath::kFlagStopOnExists)),
        ahead_((query.flags & autopath::kFlagBoth) && qname.type == dns::kTypeA) {}

  // `query`: the one the walker was made with (a walk in flight keeps its
  // candidates, not the option's 64 slots).
  void start(const autopath::QueryOption& query, HeldBytes* held) {
    if (!dns::name_strip_suffix(ask_.name, query.suffix[0], base_) || base_.len <= 1)
      return finish();
    // The walk's state, the largest a client's query holds while it waits
    // (its candidates' names and answers: 40 KB for 64 suffixes).
    if (held && ask_.scope) {
      size_t bytes = heap_bytes(sizeof(Walker)) + heap_bytes(query.count * sizeof(Candidate));
      charge_ = held->charge(ClientKey::of(ask_.scope->client), bytes);
      if (!charge_) return finish();
    }
    candidates_.reserve(query.count);
    for (size_t i = 0; i < query.count; i++) {
      Name n;
      if (dns::name_concat(base_, query.suffix[i], n)) candidates_.push_back(Candidate{i, n});
    }
    for (Candidate& c : candidates_) {
      if (cuts_.rfc8020) c.probe = probe_of(c);  // a schema-cut QNAME's own asks it at the end
      if (cuts_.schema && schema_nxdomain(c.name, *cuts_.schema, ask_.type)) cut(c);
    }
    launch();
    decide();
  }

 private:
  using Then = std::function<void(const Resolution*)>;

  struct Candidate {
    size_t index;  // in the client's suffix list
    Name name;
    bool asked = false;
    bool answered = false;
    bool dropped = false;
    bool cut = false;  // NXDOMAIN by WalkCuts::schema, never asked
    // WalkCuts::rfc8020: the name asked first while it is set, the questions
    // waiting for its answer, and whether its NXDOMAIN answered the
    // candidate.
    std::optional<Name> probe;
    bool probing = false;
    std::vector<std::function<void()>> after_probe;
    bool probe_cut = false;
    Resolution res;
    // Its AAAA (BOTH, PAIRED), and what waits for it.
    bool aaaa_asked = false, aaaa_answered = false, aaaa_dropped = false;
    Resolution aaaa;
    Then on_aaaa;
  };

  // Candidate `c` answered NXDOMAIN in both families without a question;
  // counted as asked, as the classic walk would have, so the questions
  // asked ahead are those of the uncut walk less the cut ones.
  void cut(Candidate& c) {
    c.cut = c.asked = c.answered = c.aaaa_asked = c.aaaa_answered = true;
    c.res.rcode = c.aaaa.rcode = dns::kNxDomain;
    asked_ += 2;
  }

  // The name one label below candidate c's search domain, when there is
  // one above it, the same zone answers both, and its NXDOMAIN from the
  // cluster's DNS holds below it (util/coredns_names.h: not a search
  // domain's of the node, nor one under a Service); else none.
  std::optional<Name> probe_of(const Candidate& c) const {
    size_t labels = dns::name_label_count(base_);
    if (labels < 2 || dns::name_label_count(c.name) == labels) return std::nullopt;
    Name probe = c.name;
    for (; labels > 1; labels--) probe = name_parent(probe);
    if (!nxdomain_holds_below(probe, *cuts_.rfc8020)) return std::nullopt;
    if (!dns::name_equal(router_.zone(probe), router_.zone(c.name))) return std::nullopt;
    return probe;
  }

  // Runs `send` once candidate i may be asked: at once, or when its probe
  // is answered other than NXDOMAIN. Its NXDOMAIN answers the candidate in
  // both families instead; the questions waiting are never asked.
  void after_probe(size_t i, std::function<void()> send) {
    Candidate& c = candidates_[i];
    if (!c.probe) return send();
    c.after_probe.push_back(std::move(send));
    if (c.probing) return;
    c.probing = true;
    auto self = shared_from_this();
    resolve_routed(router_, ask_for(*c.probe, dns::kTypeA), [self, i](const Resolution* res) {
      Candidate& probed = self->candidates_[i];
      probed.probe.reset();
      std::vector<std::function<void()>> waiting = std::move(probed.after_probe);
      if (res && nothing_beneath(*res)) return self->cut_by_probe(probed, *res);
      for (std::function<void()>& asking : waiting) asking();
    });
  }

  void cut_by_probe(Candidate& c, const Resolution& nxdomain) {
    c.probe_cut = true;
    asked_ += !c.asked + !c.aaaa_asked;
    c.asked = c.answered = c.aaaa_asked = c.aaaa_answered = true;
    c.res = c.aaaa = nxdomain;
    if (next_ == candidates_.size()) return own_answered(nxdomain);  // ask_own()'s
    decide();
  }

  Ask ask_for(const Name& name, uint16_t type) const {
    Ask a = ask_;
    a.name = name;
    a.type = type;
    return a;
  }

  // Asks the candidate to decide next, and more ahead while the margin
  // allows.
  void launch() {
    for (size_t i = next_; i < candidates_.size() && !finished_; i++) {
      if (candidates_[i].asked) continue;
      if (i > next_ && !room()) break;
      ask(i);
    }
    if (ahead_ && next_ == 0 && !candidates_[0].aaaa_asked) ask_aaaa(0);
    for (size_t i = candidates_.size(); i > next_ && room() && !finished_; i--) {
      const Candidate& c = candidates_[i - 1];
      if (!c.aaaa_asked && !(c.answered && !c.dropped && c.res.rcode == dns::kNxDomain)) ask_aaaa(i - 1);
    }
  }

  bool room() const { return ahead_ && asked_ < 2 * next_ + 1; }

  void ask(size_t i) {
    candidates_[i].asked = true;
    asked_++;
    auto self = shared_from_this();
    after_probe(i, [self, i] {
      Ask a = self->ask_for(self->candidates_[i].name, self->ask_.type);
      resolve_routed(self->router_, a, [self, i](const Resolution* res) {
        Candidate& c = self->candidates_[i];
        c.answered = true;
        if (res) c.res = *res;
        else c.dropped = true;
        self->decide();
      });
    });
  }

  void ask_aaaa(size_t i) {
    candidates_[i].aaaa_asked = true;
    asked_++;
    auto self = shared_from_this();
    after_probe(i, [self, i] {
      Ask a = self->ask_for(self->candidates_[i].name, dns::kTypeAAAA);
      resolve_routed(self->router_, a, [self, i](const Resolution* res) {
        Candidate& c = self->candidates_[i];
        c.aaaa_answered = true;
        if (res) c.aaaa = *res;
        else c.aaaa_dropped = true;
        if (Then then = std::move(c.on_aaaa)) then(res ? &c.aaaa : nullptr);
      });
    });
  }

  // Calls `then` with candidate i's AAAA answer (null: dropped), asked now
  // if it was not.
  void with_aaaa(size_t i, Then then) {
    Candidate& c = candidates_[i];
    if (c.aaaa_answered) return then(c.aaaa_dropped ? nullptr : &c.aaaa);
    c.on_aaaa = std::move(then);
    if (!c.aaaa_asked) ask_aaaa(i);
  }

  // An answer the walk's outcome depends on.
  void use(const Resolution& res) { w_.reuse.add(res.reuse); }

  bool matches(const Resolution& res) const {
    return stop_on_exists_ ? res.exists() : past_nodata_ ? positive(res) : res.has_data;
  }

  // Decides candidates in order while their answers are in.
  void decide() {
    if (finished_ || deciding_ || waiting_) return;
    deciding_ = true;
    while (next_ < candidates_.size() && candidates_[next_].answered && !finished_) {
      Candidate& c = candidates_[next_];
      w_.walked++;
      if (c.dropped) return rejected(true);
      if (c.res.over_budget) return rejected(false);
      if (c.cut) {
        next_++;
        launch();
        continue;
      }
      use(c.res);
      if (c.index == 0) own_ = c.res;
      if (failed(c.res)) return servfail_seen();
      if (matches(c.res)) {
        deciding_ = false;
        return match(c, nullptr);
      }
      if ((flags_ & autopath::kFlagPaired) && c.res.exists()) {
        deciding_ = false;
        return check_other_family(c);
      }
      skip(c, c.res.exists());
    }
    deciding_ = false;
    if (next_ == candidates_.size() && !finished_) exhausted();
  }

  // PAIRED: the other family may make the candidate a match.
  void check_other_family(Candidate& c) {
    auto self = shared_from_this();
    Then then = [self](const Resolution* res) {
      self->waiting_ = false;
      Candidate& cand = self->candidates_[self->next_];
      if (!res || res->over_budget) return self->rejected(!res);
      self->use(*res);
      if (failed(*res)) return self->servfail_seen();
      if (self->past_nodata_ ? positive(*res) : res->has_data) return self->match(cand, res);
      self->skip(cand, res->exists());
      self->decide();
    };
    waiting_ = true;
    if (ask_.type == dns::kTypeA) return with_aaaa(next_, std::move(then));
    asked_++;
    resolve_routed(router_, ask_for(c.name, dns::kTypeA), std::move(then));
  }

  // Walks past candidate `c`, NODATA when it exists.
  void skip(const Candidate& c, bool nodata) {
    if (nodata && w_.option.nodata == autopath::kNoIndex) w_.option.nodata = uint8_t(c.index);
    skipped_ttl_ = std::min(skipped_ttl_, c.res.negative_ttl());
    next_++;
    launch();
  }

  // `aaaa`: the candidate's AAAA answer when the walk has it already.
  void match(Candidate& c, const Resolution* aaaa) {
    w_.option.status = autopath::kMatched;
    w_.option.index = uint8_t(c.index);
    w_.candidate = c.name;
    if (c.index > 0) {
      uint32_t ttl = std::min(
          {skipped_ttl_, c.res.min_ttl(), c.res.has_data ? UINT32_MAX : c.res.negative_ttl()});
      Rr alias{dns::kTypeCNAME, ttl == UINT32_MAX ? 0 : ttl, {}};
      put_name(alias.rdata, c.name);
      w_.alias = alias;
    }
    w_.resolution = c.res;
    if (!(flags_ & autopath::kFlagBoth) || ask_.type != dns::kTypeA) return finish();
    if (aaaa) return both(*aaaa);
    auto self = shared_from_this();
    waiting_ = true;
    with_aaaa(next_, [self](const Resolution* res) {
      if (res) self->both(*res);
      else self->finish();
    });
  }

  // BOTH is honoured with an AAAA answer; a failed one leaves AAAA to the
  // client, which asks and learns of the failure.
  void both(const Resolution& aaaa) {
    use(aaaa);
    if (!failed(aaaa)) {
      w_.option.flags |= autopath::kFlagBoth;
      w_.both = aaaa;
    }
    finish();
  }

  // A failed candidate ends the walk, as it ends musl's; glibc's client
  // walks again classically to learn what it makes of it.
  void servfail_seen() {
    w_.option.status = autopath::kServfailSeen;
    w_.resolution = Resolution{};
    w_.resolution.rcode = dns::kServFail;
    finish();
  }

  // QNAME's own answer is the reply: asked now if it was cut.
  void exhausted() {
    if (!candidates_.empty() && candidates_[0].cut) return ask_own();
    w_.option.status = autopath::kExhausted;
    w_.resolution = std::move(own_);
    finish();
  }

  void ask_own() {
    candidates_[0].cut = false;
    auto self = shared_from_this();
    after_probe(0, [self] {
      resolve_routed(self->router_, self->ask_, [self](const Resolution* res) {
        if (!res || res->over_budget) return self->rejected(!res);
        self->own_answered(*res);
      });
    });
  }

  void own_answered(const Resolution& res) {
    use(res);
    if (failed(res)) return servfail_seen();
    own_ = res;
    skipped_ttl_ = std::min(skipped_ttl_, res.negative_ttl());
    exhausted();
  }

  // The walk cannot finish: a candidate with no answer at all (`dropped`,
  // the --drop fault), or one the query's upstream budget could not ask;
  // the client walks on from QNAME itself.
  void rejected(bool dropped) {
    w_.drop = dropped;
    w_.option = autopath::ReplyOption{};
    finish();
  }

  void finish() {
    if (finished_) return;
    finished_ = true;
    deciding_ = false;
    w_.skipped_ttl = skipped_ttl_;
    for (size_t i = 0; i < next_ && i < candidates_.size(); i++) {
      w_.cut.schema += candidates_[i].cut;
      w_.cut.rfc8020 += candidates_[i].probe_cut;
    }
    if (past_nodata_ && w_.option.status != autopath::kRejected)
      w_.option.flags |= autopath::kFlagPastNodata;
    else
      w_.option.nodata = autopath::kNoIndex;
    done_(w_);
  }

  const Router& router_;
  Ask ask_;
  uint8_t flags_;
  std::function<void(AutopathWalk&)> done_;
  const WalkCuts cuts_;  // a copy: the walk outlives the call
  bool past_nodata_, stop_on_exists_, ahead_;
  Name base_;
  std::vector<Candidate> candidates_;
  size_t next_ = 0;   // the candidate to decide next
  size_t asked_ = 0;  // questions asked so far
  bool deciding_ = false, finished_ = false;
  bool waiting_ = false;  // for a second answer about the candidate being decided
  AutopathWalk w_;
  Resolution own_;
  uint32_t skipped_ttl_ = UINT32_MAX;
  HeldBytes::Charge charge_;
};

}  // namespace

void walk_candidates(const Router& router, const Ask& qname, const autopath::QueryOption& query,
                     std::function<void(AutopathWalk&)> done, HeldBytes* held, const WalkCuts& cuts) {
  std::make_shared<Walker>(router, qname, query, std::move(done), cuts)->start(query, held);
}

}  // namespace rk8s::server
