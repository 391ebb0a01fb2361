// File: the subcommands of nssim. Each add_*_command registers one subcommand on the app; its
// callback runs after parsing and stores the process exit code (0 success, 2 bad input).
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace nssim::cli {

// Exit code for input the user must fix (bad flags, unreadable or malformed files).
inline constexpr int kExitBadInput = 2;
// Exit code for a run whose expectations did not all hold.
inline constexpr int kExitExpectationFailed = 1;

// This build's version: `nssim --version` prints it; shard files and sweep.json carry it, and a
// merge refuses shards of another (sweep_command.cpp).
const char* nssim_version();

// Makes `body` the command's callback: its return value is the exit code, and a Refusal (or a
// sim::ScenarioError) it throws is printed once as "nssim <command>: <message>" with exit code 2
// (refusal.h).
void run_refusing(CLI::App& command, int& exit_code, std::function<int()> body);

// `nssim replay [FILE|-] [--profile 4.9|5.x] [--config NAME=VALUE]...` (replay_command.cpp).
void add_replay_command(CLI::App& app, int& exit_code);

// `nssim serve [--listen HOST:PORT] [--profile 4.9|5.x] [--config NAME=VALUE]... [--log]`: one
// NameServer core over TCP until SIGINT or SIGTERM (serve_command.cpp).
void add_serve_command(CLI::App& app, int& exit_code);

// `nssim run SCENARIO [--seed N] [--out DIR] [--profile P] [--set PATH=VALUE]...`
// (run_command.cpp).
void add_run_command(CLI::App& app, int& exit_code);

// `nssim check [PATH...] [-j N] [--junit FILE] [--out DIR] [--seed N] [--verbose]`: every
// scenario as its own `nssim run` child; exit 1 if an expectation failed (check_command.cpp).
void add_check_command(CLI::App& app, int& exit_code);

// `nssim compare SCENARIO --a NAME=VALUE... --b NAME=VALUE...`: one scenario under two settings,
// compared side by side (compare_command.cpp).
void add_compare_command(CLI::App& app, int& exit_code);

// `nssim sweep SCENARIO [--seeds N|A..B] [--grid PATH=V1,V2]... [-j N] [--shard I/K] [--slurm]`
// and `nssim sweep merge DIR...`: distributions over seeds (sweep_command.cpp).
void add_sweep_command(CLI::App& app, int& exit_code);

// `nssim explore SCENARIO --runs N [-j J] [--out DIR] [--shrink-runs M]`: fault schedules drawn
// from the scenario's explore block, judged, and what broke a property shrunk to a scenario;
// exit 1 if a property broke (explore_command.cpp).
void add_explore_command(CLI::App& app, int& exit_code);

// `nssim import --namesrv 'HOST:PORT;...' [--topics REGEX] [--out FILE] [--producers COUNT@RATE]
// [--broker-config FILE]`: a scenario of a live cluster, asked of its NameServers
// (import/import_command.cpp).
void add_import_command(CLI::App& app, int& exit_code);

}  // namespace nssim::cli
