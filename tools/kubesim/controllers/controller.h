// The interface every kubesim controller implements, so Simulation can dispatch work items.
#pragma once

#include <string>
#include <vector>

#include "kubesim/controllers/context.h"

namespace kubesim {

class Controller {
 public:
  // primary: the resource whose objects this controller reconciles, one of ctx's.
  Controller(Context& ctx, const ResourceType* primary) : m_ctx(ctx), m_primary(primary) {}
  virtual ~Controller() = default;
  Controller(const Controller&) = delete;
  Controller& operator=(const Controller&) = delete;

  // The resource whose objects this controller reconciles (nullptr = not served).
  const ResourceType* primary() const { return m_primary; }
  // Brings one object (and what it owns) one step closer to its desired state. Must be
  // idempotent: calling it again without any change writes nothing.
  virtual void reconcile(const std::string& ns, const std::string& name) = 0;

 protected:
  Context& m_ctx;

 private:
  const ResourceType* m_primary;
};

}  // namespace kubesim
