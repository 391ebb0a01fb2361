// File: plan_json and plan_from_json (see sweep_document.h): a sweep's plan travels inside each
// shard file, so `nssim sweep merge` rebuilds the documents from the shards alone and can refuse
// shards whose plans differ.
#include "reports/sweep/sweep_document.h"

namespace nssim::reports {

namespace {

using nlohmann::json;

std::vector<std::string> strings(const json& list) { return list.get<std::vector<std::string>>(); }

}  // namespace

json plan_json(const SweepPlan& plan) {
  json grid = json::array();
  for (const auto& axis : plan.grid) grid.push_back({{"path", axis.path}, {"values", axis.values}});
  json points = json::array();
  for (const auto& point : plan.points) {
    points.push_back({{"label", point.label},
                      {"grid_values", point.grid_values},
                      {"profile", point.profile},
                      {"command", point.command}});
  }
  json expectations = json::array();
  for (const auto& e : plan.expectations) {
    expectations.push_back({{"figure", e.figure},
                            {"stat", e.stat},
                            {"op", e.op},
                            {"value", e.value},
                            {"source", e.source}});
  }
  return {{"nssim_version", plan.nssim_version},
          {"scenario", plan.scenario},
          {"first_seed", plan.first_seed},
          {"last_seed", plan.last_seed},
          {"set", plan.set},
          {"grid", std::move(grid)},
          {"points", std::move(points)},
          {"expectations", std::move(expectations)}};
}

std::optional<SweepPlan> plan_from_json(const json& document) {
  try {
    SweepPlan plan;
    plan.nssim_version = document.at("nssim_version").get<std::string>();
    plan.scenario = document.at("scenario");
    plan.first_seed = document.at("first_seed").get<std::uint64_t>();
    plan.last_seed = document.at("last_seed").get<std::uint64_t>();
    plan.set = strings(document.at("set"));
    for (const auto& axis : document.at("grid")) {
      plan.grid.push_back({axis.at("path").get<std::string>(), strings(axis.at("values"))});
    }
    for (const auto& point : document.at("points")) {
      plan.points.push_back({point.at("label").get<std::string>(), strings(point.at("grid_values")),
                             point.at("profile").get<std::string>(),
                             point.at("command").get<std::string>()});
    }
    for (const auto& e : document.at("expectations")) {
      plan.expectations.push_back({e.at("figure").get<std::string>(),
                                   e.at("stat").get<std::string>(), e.at("op").get<std::string>(),
                                   e.at("value").get<std::string>(),
                                   e.at("source").get<std::string>()});
    }
    if (plan.points.empty() || plan.first_seed > plan.last_seed) return std::nullopt;
    return plan;
  } catch (const json::exception&) {
    return std::nullopt;
  }
}

}  // namespace nssim::reports
