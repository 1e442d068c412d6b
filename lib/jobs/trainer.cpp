#include "jobs/trainer.h"

#include <array>
#include <utility>

#include "core/errors.h"

namespace trainctl::jobs {

namespace {

constexpr std::array<std::pair<Trainer, std::string_view>, 6> kTrainerNames = {{
    {Trainer::PyTorch, "pytorchjob"},
    {Trainer::MPI, "mpijob"},
    {Trainer::Volcano, "volcanojob"},
    {Trainer::PyTorchNoOperator, "batchjob"},
    {Trainer::TF, "tfjob"},
    {Trainer::TrainJob, "trainjob"},
}};

}  // namespace

const JobKind& kind_for(Trainer trainer) {
  for (const auto& [t, name] : kTrainerNames)
    if (t == trainer) return kind_named(name);
  throw Error("unknown trainer");
}

Trainer trainer_of(const JobKind& kind) {
  for (const auto& [t, name] : kTrainerNames)
    if (name == kind.name) return t;
  throw Error("the " + kind.title + " kind has no jobs::Trainer");
}

}  // namespace trainctl::jobs
