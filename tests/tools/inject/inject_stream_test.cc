// SPDX-License-Identifier: Apache-2.0
// A YAML stream injected document by document: the documents left as they
// were come out byte for byte, the others written again below their
// separator and comments; a document that cannot be read or changed stops
// the stream, named by its number and its line in the stream.
#include "tools/inject/inject_stream.h"

#include <gtest/gtest.h>

#include "tests/tools/fixture.h"

namespace rk8s::tools {
namespace {

const std::string kConfigMap = "# a comment\napiVersion: v1\nkind: ConfigMap\ndata: {a: \"5\", b: on, c: 'x'}\n";
const std::string kPod =
    "apiVersion: v1\nkind: Pod\nmetadata: {name: w, namespace: s}\nspec: {containers: [{name: a}]}\n";

// "document:line: what" for each note, or for the error that stopped it.
std::string run(const std::string& stream, std::string* out = nullptr) {
  std::vector<StreamError> notes;
  try {
    std::string text = inject_stream(stream, test::options_of({"--image", test::kImage}), &notes);
    if (out) *out = text;
  } catch (const StreamError& e) {
    notes.push_back(e);
  }
  std::string said;
  for (const StreamError& n : notes)
    said += std::to_string(n.document) + ":" + std::to_string(n.line) + ": " + n.what + "\n";
  return said;
}

TEST(InjectStream, DocumentsLeftAsTheyWereComeOutByteForByte) {
  const std::string cases[] = {
      "",
      kConfigMap,
      kConfigMap + "---\n" + kConfigMap + "...\n",
      "--- # first\n" + kConfigMap + "---\n\n# nothing but a comment\n",
      // A kind inject does not know, with odd quoting and a block.
      "apiVersion: example.com/v1\nkind: Widget\nspec:\n  text: |\n    two\n    lines\n  n: 0x10\n  'q': \"on\"\n",
  };
  for (const std::string& stream : cases) {
    std::string out = "(not written)";
    EXPECT_EQ("", run(stream, &out));
    EXPECT_EQ(stream, out);
  }
}

TEST(InjectStream, ADocumentChangedIsWrittenBelowItsSeparatorAndComments) {
  std::string out;
  EXPECT_EQ("", run(kConfigMap + "---\n# the pod\n" + kPod, &out));
  const std::string head = kConfigMap + "---\n# the pod\napiVersion: v1\nkind: Pod\nmetadata:\n  name: w\n";
  EXPECT_EQ(head, out.substr(0, head.size()));
  EXPECT_NE(std::string::npos, out.find("\n  initContainers:\n    - name: resolv-k8s-init\n"));
  // Written again, it is left as it is.
  std::string again;
  EXPECT_EQ("", run(out, &again));
  EXPECT_EQ(out, again);
}

struct StopCase {
  std::string stream;
  std::string said;
};

TEST(InjectStream, WhatStopsTheStreamIsNamedByDocumentAndLine) {
  const StopCase cases[] = {
      {"kind: ConfigMap\n---\napiVersion: v1\nkind: Pod\n{{ .Values.x }}: 1\n",
       "2:5: a map key that is not a scalar: an unrendered template ({{ ... }})? Render it first (helm template), "
       "then inject\n"},
      {"a: 1\n---\nb: 1\nb: 2\n", "2:4: 'b' given twice in one map, which kubectl refuses\n"},
      {"a: 1\n---\nb: [1\n", "2:4: end of sequence flow not found\n"},
      {"a: 1\n---\nb: 1\nc: \"\xff\"\n", "2:4: not UTF-8 text, which the Kubernetes API takes only\n"},
      {"a: \"\xc3\xa9\"\n---\nb: \"\xc3\"\n", "2:3: not UTF-8 text, which the Kubernetes API takes only\n"},
      {kConfigMap + "---\n" + kConfigMap + "---\napiVersion: v1\nkind: Pod\nmetadata: {name: w}\nspec: {}\n",
       "3:14: spec: no containers\n"},
      // A later document's error: nothing is written, not even the first.
      {kPod + "---\nkind: Pod\napiVersion: v1\nspec:\n  containers: [{name: a, volumeMounts: [{name: x, mountPath: "
              "/opt/resolv-k8s}]}]\n",
       "2:9: spec.containers[0]: volume x is mounted at /opt/resolv-k8s, where inject's library goes: mount it "
       "elsewhere\n"},
  };
  for (const StopCase& c : cases) {
    std::string out = "(not written)";
    EXPECT_EQ(c.said, run(c.stream, &out)) << c.stream;
    EXPECT_EQ("(not written)", out);
  }
}

TEST(InjectStream, PodsLeftAloneAreNotedByDocumentAndLine) {
  const std::string host =
      "apiVersion: v1\nkind: Pod\nmetadata: {name: w}\nspec:\n  hostNetwork: true\n"
      "  containers: [{name: a}]\n";
  std::string out;
  EXPECT_EQ("2:7: spec: on the node's network with the node's DNS (hostNetwork), left as it is\n",
            run("a: 1\n---\n" + host, &out));
  EXPECT_EQ("a: 1\n---\n" + host, out);
}

}  // namespace
}  // namespace rk8s::tools
