// The full trainctl command tree for completion and docs tests, and a ClusterLookup that
// answers from fixed lists and records the scope it was asked in.
#pragma once

#include <CLI/CLI.hpp>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "cmd/commands.h"
#include "cmd/completion/complete_engine.h"
#include "cmd/factory.h"

struct Tree {
  trainctl::GlobalOptions globals;
  trainctl::Factory factory{trainctl::IOStreams::test(), &globals};
  CLI::App app{"trainctl submits and inspects distributed training jobs on Kubernetes.", "trainctl"};
  Tree() { trainctl::setup_all(app, factory, globals); }
};

struct StubCluster : trainctl::completion::ClusterLookup {
  std::vector<trainctl::completion::Scope> scopes;
  std::string instance_job;
  std::vector<std::string> jobs(const trainctl::completion::Scope& s) override {
    scopes.push_back(s);
    return {"mnist", "bert", "mnist-mpi"};
  }
  std::vector<std::string> instances(const trainctl::completion::Scope& s, const std::string& job) override {
    scopes.push_back(s);
    instance_job = job;
    return {job + "-worker-0", job + "-master-0"};
  }
  std::vector<std::string> namespaces(const trainctl::completion::Scope& s) override {
    scopes.push_back(s);
    return {"default", "team-a", "kube-system"};
  }
  std::vector<std::string> pvcs(const trainctl::completion::Scope& s) override {
    scopes.push_back(s);
    return {"training-data", "models"};
  }
  std::vector<std::string> nodes(const trainctl::completion::Scope& s) override {
    scopes.push_back(s);
    return {"gpu-node-1", "cpu-node-1"};
  }
  std::vector<std::string> contexts(const trainctl::completion::Scope& s) override {
    scopes.push_back(s);
    return {"prod", "dev"};
  }
};

inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}
