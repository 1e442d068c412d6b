// The simulation loop: a work queue fed by the store's watch stream and by timers, drained
// by the controllers; a clock that is real time (times a speed factor) or stepped by tests.
#include "kubesim/controllers/simulation.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <optional>
#include <thread>

#include "core/log.h"
#include "kubesim/builtin_types.h"
#include "kubesim/controllers/batch_job.h"
#include "kubesim/controllers/context.h"
#include "kubesim/controllers/deployment.h"
#include "kubesim/controllers/garbage_collector.h"
#include "kubesim/controllers/jobset.h"
#include "kubesim/controllers/kubelet.h"
#include "kubesim/controllers/kueue.h"
#include "kubesim/controllers/kueue_trainjob.h"
#include "kubesim/controllers/mpi_job.h"
#include "kubesim/controllers/pod_status.h"
#include "kubesim/controllers/pytorch_job.h"
#include "kubesim/controllers/scheduler.h"
#include "kubesim/controllers/service.h"
#include "kubesim/controllers/tf_job.h"
#include "kubesim/controllers/trainjob.h"
#include "kubesim/controllers/volcano_job.h"
#include "kubesim/controllers/volcano_policy.h"
#include "kubesim/logs.h"

namespace kubesim {

using namespace std::chrono;

struct Simulation::Impl {
  Impl(Store& s, LogStore& l, SimulationOptions o)
      : ctx(s, l, std::move(o)), scheduler(ctx), kubelet(ctx), gc(ctx) {}

  Context ctx;
  Scheduler scheduler;
  Kubelet kubelet;
  GarbageCollector gc;
  std::vector<std::unique_ptr<Controller>> controllers;
  std::map<const ResourceType*, std::vector<Controller*>> handlers;

  mutable std::mutex clock_mutex;
  TimePoint manual_now;
  // Real clock: the instant of the round in progress. Every controller, kubelet and store write
  // of one round happens at that instant, as with the manual clock, so that what a round does
  // at once (an MPIJob's workers and its AtStartup launcher) cannot drift apart by however
  // slowly the machine runs the round.
  std::optional<TimePoint> round_instant;
  TimePoint sim_base;
  steady_clock::time_point real_base;

  std::mutex queue_mutex;
  std::condition_variable queue_cv;
  std::set<ObjectKey> dirty;
  std::multimap<TimePoint, ObjectKey> timers;
  bool nodes_or_pods_changed = true;
  TimePoint last_retry{};

  std::mutex round_mutex;
  uint64_t watch_handle = 0;
  std::thread thread;
  std::atomic<bool> running{false};

  TimePoint now() const {
    std::lock_guard<std::mutex> lock(clock_mutex);
    if (ctx.options.manual_clock) return manual_now;
    if (round_instant) return *round_instant;
    auto real = steady_clock::now() - real_base;
    return sim_base + duration_cast<system_clock::duration>(real * ctx.options.speed);
  }

  void enqueue(ObjectKey k) {
    if (!handlers.count(k.rt) && k.rt != ctx.pods) {
      // An object written in another served version of a handled resource (Kueue's v1beta1).
      auto it = std::find_if(handlers.begin(), handlers.end(),
                             [&](const auto& h) { return h.first->same_storage(*k.rt); });
      if (it == handlers.end()) return;
      k.rt = it->first;
    }
    std::lock_guard<std::mutex> lock(queue_mutex);
    dirty.insert(k);
    queue_cv.notify_all();
  }

  void on_event(const WatchEvent& ev) {
    if (!ev.object) return;
    ctx.owners.observe(ev);
    scheduler.observe(ev);
    gc.observe(ev);
    if (gc.has_work()) queue_cv.notify_all();
    const json& obj = *ev.object;
    if (ev.resource == ctx.pods || ev.resource == ctx.nodes) {
      std::lock_guard<std::mutex> lock(queue_mutex);
      nodes_or_pods_changed = true;
    }
    enqueue(ObjectKey{ev.resource, meta_ns(obj), meta_name(obj)});
    if (const json* ref = controller_of(obj)) {
      if (const ResourceType* rt = ctx.store.find_kind(ref->value("apiVersion", ""), ref->value("kind", "")))
        enqueue(ObjectKey{rt, meta_ns(obj), ref->value("name", "")});
    }
  }

  void dispatch(const ObjectKey& k) {
    try {
      if (k.rt == ctx.pods) kubelet.reconcile(k.ns, k.name);
      auto it = handlers.find(k.rt);
      if (it == handlers.end()) return;
      // An object being deleted is left to the garbage collector: the operators and the
      // workload controllers stop managing it (training-operator's and mpi-operator's
      // reconcilers return at a deletionTimestamp, Volcano's job controller skips a
      // terminating job, kube-controller-manager's Job, ReplicaSet and Deployment controllers
      // stop creating pods for it), so that its pods are not created again while it goes.
      if (auto obj = ctx.store.get_shared(*k.rt, k.ns, k.name);
          obj && (*obj)["metadata"].contains("deletionTimestamp"))
        return;
      for (Controller* c : it->second) c->reconcile(k.ns, k.name);
    } catch (const StatusError& e) {
      // A conflicting write or a vanished namespace: retry on the next change or tick.
      trainctl::log::debug("kubesim: reconcile {} {}/{}: {}", k.rt->plural, k.ns, k.name, e.message);
    } catch (const std::exception& e) {
      // Malformed objects are left alone, as a real controller would log and skip them.
      trainctl::log::debug("kubesim: reconcile {} {}/{}: {}", k.rt->plural, k.ns, k.name, e.what());
    }
  }

  // Holds the real clock at its current instant while a round runs.
  class RoundInstant {
   public:
    explicit RoundInstant(Impl& impl) : m_impl(impl) {
      const TimePoint t = impl.now();
      std::lock_guard<std::mutex> lock(impl.clock_mutex);
      if (!impl.ctx.options.manual_clock) impl.round_instant = t;
    }
    ~RoundInstant() {
      std::lock_guard<std::mutex> lock(m_impl.clock_mutex);
      m_impl.round_instant.reset();
    }
    RoundInstant(const RoundInstant&) = delete;
    RoundInstant& operator=(const RoundInstant&) = delete;

   private:
    Impl& m_impl;
  };

  // Runs controllers until nothing is left to do at the current time.
  void round() {
    const RoundInstant instant(*this);
    const TimePoint t = now();
    for (int iteration = 0; iteration < 200; ++iteration) {
      std::set<ObjectKey> batch;
      bool scheduling;
      {
        std::lock_guard<std::mutex> lock(queue_mutex);
        while (!timers.empty() && timers.begin()->first <= t) {
          dirty.insert(timers.begin()->second);
          timers.erase(timers.begin());
        }
        batch.swap(dirty);
        // Without a pod or node change, retry pending pods at most once per simulated second.
        scheduling = nodes_or_pods_changed || (iteration == 0 && t - last_retry >= seconds(1));
        if (scheduling) last_retry = t;
        nodes_or_pods_changed = false;
      }
      const bool collecting = gc.has_work();
      if (batch.empty() && !scheduling && !collecting) return;
      for (const auto& k : batch) dispatch(k);
      if (collecting) gc.run();
      if (scheduling && scheduler.has_pending()) {
        try {
          scheduler.schedule();
        } catch (const std::exception&) {
        }
      }
      if (batch.empty() && !gc.has_work()) {
        std::lock_guard<std::mutex> lock(queue_mutex);
        if (dirty.empty()) return;
      }
    }
  }

  TimePoint next_timer() {
    std::lock_guard<std::mutex> lock(queue_mutex);
    return timers.empty() ? TimePoint::max() : timers.begin()->first;
  }

  void resync() {
    // Objects that existed before the simulation started (seed files, generated clusters).
    for (const auto& [rt, list] : handlers) {
      (void)list;
      auto res = ctx.store.list(*rt, "");
      for (const auto& obj : res.items) enqueue(ObjectKey{rt, meta_ns(*obj), meta_name(*obj)});
    }
    if (ctx.pods) {
      auto res = ctx.store.list(*ctx.pods, "", [](const json& p) {
        if (pod_terminal(p)) return false;
        const std::string phase = p.value("status", json::object()).value("phase", "");
        return phase != "Running" || annotation(p, kOutcomeAnnotation) != "run-forever";
      });
      for (const auto& obj : res.items) enqueue(ObjectKey{ctx.pods, meta_ns(*obj), meta_name(*obj)});
    }
  }

  void loop() {
    auto last_resync = steady_clock::now();
    while (running) {
      {
        std::lock_guard<std::mutex> lock(round_mutex);
        if (steady_clock::now() - last_resync >= seconds(2)) {
          last_resync = steady_clock::now();
          gc.resync();
        }
        round();
      }
      std::unique_lock<std::mutex> lock(queue_mutex);
      auto wait = ctx.options.tick;
      const TimePoint next = timers.empty() ? TimePoint::max() : timers.begin()->first;
      if (next != TimePoint::max()) {
        auto sim_wait = next - now();
        auto real_wait = duration_cast<milliseconds>(sim_wait / std::max(ctx.options.speed, 1e-6));
        if (real_wait < wait) wait = std::max(real_wait, milliseconds(1));
      }
      queue_cv.wait_for(lock, wait, [&] { return !running || !dirty.empty() || gc.has_work(); });
    }
  }
};

Simulation::Simulation(Store& store, LogStore& logs, SimulationOptions options) {
  ensure_types(store);
  m = std::make_unique<Impl>(store, logs, std::move(options));
  const auto wall = system_clock::now();
  m->manual_now = m->ctx.options.manual_start_unix ? TimePoint(seconds(m->ctx.options.manual_start_unix))
                                                   : time_point_cast<seconds>(wall);
  m->sim_base = wall;
  m->real_base = steady_clock::now();
  Impl* impl = m.get();
  m->ctx.clock = [impl] { return impl->now(); };
  // Object timestamps (creationTimestamp, Table ages, sinceSeconds) follow the simulated clock.
  store.set_clock([impl] { return impl->now(); });
  m->ctx.wake_at = [impl](const ObjectKey& k, TimePoint t) {
    std::lock_guard<std::mutex> lock(impl->queue_mutex);
    for (auto it = impl->timers.lower_bound(t); it != impl->timers.end() && it->first == t; ++it)
      if (!(it->second < k) && !(k < it->second)) return;
    impl->timers.emplace(t, k);
    impl->queue_cv.notify_all();
  };
  m->controllers.push_back(std::make_unique<PyTorchJobController>(m->ctx));
  m->controllers.push_back(std::make_unique<TFJobController>(m->ctx));
  m->controllers.push_back(std::make_unique<MpiJobController>(m->ctx));
  m->controllers.push_back(std::make_unique<VolcanoJobController>(m->ctx));
  m->controllers.push_back(std::make_unique<VolcanoQueueController>(m->ctx));
  m->controllers.push_back(std::make_unique<VolcanoCommandController>(m->ctx));
  m->controllers.push_back(std::make_unique<BatchJobController>(m->ctx));
  m->controllers.push_back(std::make_unique<DeploymentController>(m->ctx));
  m->controllers.push_back(std::make_unique<ReplicaSetController>(m->ctx));
  m->controllers.push_back(std::make_unique<ServiceController>(m->ctx));
  // Kubeflow Trainer v2 and JobSet (trainjob.h, jobset.h).
  const TrainerOptions trainer{m->ctx.options.trainjob_status};
  m->controllers.push_back(std::make_unique<TrainJobController>(m->ctx, trainer));
  m->controllers.push_back(std::make_unique<JobSetController>(m->ctx));
  // Kueue (when its CRDs are served): after the operators, so that they see a job suspended.
  // A disabled integration has no reconciler (jobframework/setup.go setupControllers).
  for (const ResourceType* rt : {m->ctx.pytorchjobs, m->ctx.tfjobs, m->ctx.mpijobs, m->ctx.jobs})
    if (rt && m->ctx.options.kueue.manages(*rt))
      m->controllers.push_back(std::make_unique<KueueJobController>(m->ctx, rt));
  if (m->ctx.options.kueue.manages_trainjobs())
    m->controllers.push_back(std::make_unique<KueueTrainJobController>(m->ctx, trainer));
  const KueueTypes kueue = KueueTypes::find(store);
  for (const ResourceType* rt : {kueue.cluster_queues, kueue.local_queues, kueue.workloads})
    m->controllers.push_back(std::make_unique<KueueQueueController>(m->ctx, rt));
  for (const auto& c : m->controllers)
    if (c->primary()) m->handlers[c->primary()].push_back(c.get());
  ensure_default_queues(m->ctx);  // volcano-scheduler creates them at start
  // Current state first (owners, node capacity, usage), then changes from the watch.
  m->watch_handle = store.watch(nullptr, [impl](const WatchEvent& ev) {
    // The store drops a watcher that throws: the controllers would then see no change again.
    try {
      impl->on_event(ev);
    } catch (const std::exception& e) {
      trainctl::log::warn("kubesim: simulation: {} event of {}: {}", ev.resource->plural, ev.object ? meta_name(*ev.object) : "", e.what());
    }
    return true;
  });
  for (const ResourceType* rt : store.types()) {
    if (rt == m->ctx.events) continue;
    auto res = store.list(*rt, "");
    for (const auto& obj : res.items) {
      WatchEvent ev{EventType::Added, rt, obj, 0};
      m->ctx.owners.observe(ev);
      m->gc.observe(ev);
      if (rt == m->ctx.pods || rt == m->ctx.nodes) m->scheduler.observe(ev);
    }
  }
  m->resync();
}

Simulation::~Simulation() {
  stop();
  m->ctx.store.unwatch(m->watch_handle);
  m->ctx.store.set_clock(nullptr);
}

void Simulation::ensure_types(Store& store) { register_builtin_crds(store); }

void Simulation::start() {
  if (m->ctx.options.manual_clock || m->running.exchange(true)) return;
  m->thread = std::thread([this] { m->loop(); });
}

void Simulation::stop() {
  if (!m->running.exchange(false)) return;
  m->queue_cv.notify_all();
  if (m->thread.joinable()) m->thread.join();
}

void Simulation::step(milliseconds d) {
  std::lock_guard<std::mutex> lock(m->round_mutex);
  if (!m->ctx.options.manual_clock) {
    m->round();
    return;
  }
  TimePoint target;
  {
    std::lock_guard<std::mutex> clock(m->clock_mutex);
    target = m->manual_now + d;
  }
  m->round();
  for (int guard = 0; guard < 10'000'000; ++guard) {
    const TimePoint next = m->next_timer();
    {
      std::lock_guard<std::mutex> clock(m->clock_mutex);
      if (next > target) {
        m->manual_now = target;
      } else if (next > m->manual_now) {
        m->manual_now = next;
      }
    }
    m->round();
    if (next > target) break;
  }
}

void Simulation::settle() { step(milliseconds(0)); }

system_clock::time_point Simulation::now() const { return m->now(); }

const SimulationOptions& Simulation::options() const { return m->ctx.options; }

}  // namespace kubesim
