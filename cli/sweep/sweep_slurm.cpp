// File: `nssim sweep ... --slurm`: the sweep as a Slurm job array (cli/slurm_jobs.h), one task
// per shard of the plan, each shard file checked against the plan, a missing one named by its
// seed range; then the shards merged into the sweep's documents.
#include "cli/refusal.h"
#include "cli/slurm_jobs.h"
#include "cli/sweep/sweep_command.h"
#include "cli/sweep/sweep_shards.h"

namespace nssim::cli {

namespace {

SlurmWork sweep_work(const SweepCommandOptions& options, const LoadedSweep& sweep) {
  SlurmWork work;
  work.command = "sweep";
  work.name = sweep.plan.scenario["name"].get<std::string>();
  work.arguments = plan_arguments(options.sweep, sweep.plan);
  for (auto& arg : cost_limit_arguments(options.limits)) work.arguments.push_back(std::move(arg));
  work.jobs = options.jobs;
  work.shards = slurm_task_count(options.slurm, sweep.plan.run_count());
  const nlohmann::json identity = shard_identity(sweep);
  work.finished = [identity](const std::string& path) {
    return read_shard_file(path).identity == identity;
  };
  const std::size_t shards = work.shards;
  work.covers = [&sweep, shards](std::size_t shard) {
    const ShardRange range = shard_range(shard, shards, sweep.plan.run_count());
    std::string text =
        "runs " + std::to_string(range.first_run) + ".." + std::to_string(range.end_run);
    if (range.end_run > range.first_run) {
      text += " (seeds " + std::to_string(seed_of_run(sweep.plan, range.first_run)) + ".." +
              std::to_string(seed_of_run(sweep.plan, range.end_run - 1)) + ")";
    }
    return text;
  };
  return work;
}

}  // namespace

int run_sweep_on_slurm(const SweepCommandOptions& options, const LoadedSweep& sweep,
                       const std::string& out) {
  in_context("--slurm: ", [&] { check_slurm_usable(options.slurm, sweep.shard.has_value()); });
  // Checked before anything is submitted; the merge swaps the documents in with shards/, slurm/
  // and sweep.sbatch kept.
  StagedFolder staged = in_context("--out: ", [&] { return prepare_sweep_folder("sweep", out); });
  const SlurmWork work = sweep_work(options, sweep);
  const std::string dir = slurm_folder(out);
  // Its Refusals are about the job, so they name --slurm.
  if (!in_context("--slurm: ", [&] { return run_slurm_job(options.slurm, work, dir); })) return 0;
  const MergedSweep merged = in_context("--slurm: ", [&] {
    std::vector<ShardFile> shards;
    for (std::size_t shard = 1; shard <= work.shards; ++shard) {
      shards.push_back(read_shard_file(shard_path(dir, shard, work.shards)));
    }
    return merge_shards(std::move(shards));
  });
  return write_sweep(staged, out, merged.plan, merged.records);
}

}  // namespace nssim::cli
