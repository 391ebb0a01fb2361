// File: stopping a command that waits on children. While a StopSignals guard lives, SIGINT,
// SIGTERM and SIGHUP do not kill this process at once: they are noted, the waiting loop forwards
// the signal to every child, reaps them all, and then stop_after_children() ends this process by
// the same signal, so its parent sees "killed by SIGTERM" (a shell: exit 128+N), never exit 1,
// which means "an expectation failed". A child is never left running on, writing later.
//
// Race-free by construction: the signals (and SIGCHLD) are blocked while the guard lives and only
// let through inside wait_for_event() / the mask ppoll() takes, so none arrives between the
// loop's check and its wait.
#pragma once

#include <poll.h>
#include <signal.h>

namespace nssim::cli {

class StopSignals {
 public:
  StopSignals();
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  // The stop signal received since the guard began, or 0.
  int received() const;

  // Sleeps until a child changes state or a stop signal arrives.
  void wait_for_event() const;

  // poll() that wakes on the same signals. Returns what ppoll returns.
  int poll(pollfd* fds, nfds_t count) const;

  // What a child must start with: the signal mask this process had before the guard, and the
  // signals whose disposition goes back to the default (those the guard handles; one ignored
  // when nssim started, as SIGINT is for a background job of a script, stays ignored).
  const sigset_t& mask_before() const { return mask_before_; }
  const sigset_t& handled() const { return handled_; }
  // In a forked child: back to the mask and dispositions of before the guard.
  void restore_in_child() const;

  // Ends this process by `signal`, after one line on stderr saying so.
  [[noreturn]] static void stop_after_children(int signal);

 private:
  sigset_t mask_before_;
  sigset_t handled_;
  struct sigaction actions_before_[4];
};

}  // namespace nssim::cli
