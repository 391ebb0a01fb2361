// File: StopSignals (see stop_signals.h).
#include "cli/posix/stop_signals.h"

#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstring>
#include <iostream>

namespace nssim::cli {

namespace {

// SIGCHLD last: it only wakes the wait, it is no stop signal.
constexpr int kSignals[4] = {SIGINT, SIGTERM, SIGHUP, SIGCHLD};

volatile std::sig_atomic_t g_received = 0;

void note_stop(int signal) {
  if (g_received == 0) g_received = signal;
}

void wake_only(int) {}

// The mask to wait under: the one before the guard, with the handled signals let through.
sigset_t wait_mask(const sigset_t& mask_before) {
  sigset_t mask = mask_before;
  for (const int signal : kSignals) sigdelset(&mask, signal);
  return mask;
}

}  // namespace

StopSignals::StopSignals() {
  g_received = 0;
  sigset_t all;
  sigemptyset(&all);
  for (const int signal : kSignals) sigaddset(&all, signal);
  sigprocmask(SIG_BLOCK, &all, &mask_before_);
  sigemptyset(&handled_);
  for (int i = 0; i < 4; ++i) {
    struct sigaction action {};
    action.sa_handler = kSignals[i] == SIGCHLD ? wake_only : note_stop;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0;  // no SA_RESTART: the wait returns EINTR
    sigaction(kSignals[i], &action, &actions_before_[i]);
    if (actions_before_[i].sa_handler == SIG_IGN && kSignals[i] != SIGCHLD) {
      sigaction(kSignals[i], &actions_before_[i], nullptr);  // ignored before: stays ignored
    } else {
      sigaddset(&handled_, kSignals[i]);
    }
  }
}

StopSignals::~StopSignals() {
  for (int i = 0; i < 4; ++i) sigaction(kSignals[i], &actions_before_[i], nullptr);
  sigprocmask(SIG_SETMASK, &mask_before_, nullptr);
}

int StopSignals::received() const { return g_received; }

void StopSignals::wait_for_event() const {
  const sigset_t mask = wait_mask(mask_before_);
  sigsuspend(&mask);
}

int StopSignals::poll(pollfd* fds, nfds_t count) const {
  const sigset_t mask = wait_mask(mask_before_);
  return ::ppoll(fds, count, nullptr, &mask);
}

void StopSignals::restore_in_child() const {
  for (int i = 0; i < 4; ++i) sigaction(kSignals[i], &actions_before_[i], nullptr);
  sigprocmask(SIG_SETMASK, &mask_before_, nullptr);
}

void StopSignals::stop_after_children(int signal) {
  std::cout.flush();
  std::cerr << "nssim: stopped by SIG" << sigabbrev_np(signal)
            << "; every child was stopped and reaped\n";
  std::fflush(nullptr);
  std::signal(signal, SIG_DFL);
  sigset_t only;
  sigemptyset(&only);
  sigaddset(&only, signal);
  sigprocmask(SIG_UNBLOCK, &only, nullptr);
  ::raise(signal);
  _exit(128 + signal);  // if the signal was ignored when nssim started
}

}  // namespace nssim::cli
