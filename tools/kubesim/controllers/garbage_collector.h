// The garbage collector of kube-controller-manager (k8s.io/kubernetes
// pkg/controller/garbagecollector: garbagecollector.go attemptToDeleteItem,
// processDeletingDependentsItem, attemptToOrphanWorker; graph_builder.go processGraphChanges,
// processTransitions). It keeps a graph of owners and dependents from the store's events and,
// after the fact (never inside the DELETE of the owner):
// - deletes an object when none of its owners exists any more (an owner is gone when no
//   object of its apiVersion/kind/name has its uid), whatever their `controller` flag,
//   propagating the object's own orphan / foregroundDeletion finalizer as its policy;
// - for an owner being deleted with the foregroundDeletion finalizer, deletes its dependents
//   and removes the finalizer once no dependent with blockOwnerDeletion is left (the store
//   then removes the owner);
// - for an owner being deleted with the orphan finalizer, removes the ownerReferences to it
//   from its dependents, then the finalizer;
// - removes references to missing owners, or to owners waiting for their dependents, from an
//   object that still has another owner.
#pragma once

#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "kubesim/controllers/context.h"

namespace kubesim {

class GarbageCollector {
 public:
  explicit GarbageCollector(Context& ctx) : m_ctx(ctx) {}

  // Keeps the graph current and queues the objects an event concerns.
  void observe(const WatchEvent& ev);
  bool has_work() const;
  // Processes what is queued (and what that queues in turn, up to a bound).
  void run();
  // Queues every object the store holds with an owner reference to an object that is not
  // there (by uid), as the collector's informers would on a resync. A net under the event
  // path: dependents of owners deleted while they were being created have been seen to stay.
  void resync();

 private:
  struct Ref {
    std::string uid, api_version, kind, name;
    bool block = false;  // blockOwnerDeletion
  };
  struct Node {
    ObjectKey key;
    std::vector<Ref> owners;
    std::set<std::string> dependents;  // uids
    bool deleting_dependents = false;  // deletionTimestamp + foregroundDeletion
    bool orphaning = false;            // deletionTimestamp + orphan
  };

  void attempt_to_delete(const std::string& uid);
  void attempt_to_orphan(const std::string& uid);
  // The node is gone from the store: forget it and look at its dependents and owners again.
  void forget(const std::string& uid);
  // With m_mutex held: uid no longer depends on `owners`.
  void drop_from_owners(const std::string& uid, const std::vector<Ref>& owners);
  void remove_finalizer(const std::string& uid, const ObjectKey& key, const std::string& finalizer);
  // The node's dependents whose reference to it blocks its deletion.
  std::vector<std::string> blocking_dependents(const std::string& uid) const;

  Context& m_ctx;
  mutable std::mutex m_mutex;
  std::map<std::string, Node> m_nodes;  // by uid
  std::set<std::string> m_to_delete, m_to_orphan;
};

}  // namespace kubesim
