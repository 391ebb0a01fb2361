// File: the send side of a producer as upstream's DefaultMQProducerImpl keeps it: its
// MQFaultStrategy, the sends in flight (the locals of each sendDefaultImpl call, in a ring by id),
// the application's threads that make them, and by spec topic the publish info a send starts
// with. The client instance it sends through (tables, lockNamesrv, channels) is apart, in
// mq_client_instance.h, so that other clients can share it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/invariant.h"
#include "nameserver_core/profile.h"
#include "sim/client/mq_client_instance.h"
#include "sim/client/mq_fault_strategy.h"
#include "sim/client/publish_info.h"
#include "sim/client/send_thread_pool.h"
#include "sim/record/send_record.h"

namespace nssim::sim {

// Java: DefaultMQProducerImpl (mqFaultStrategy, sendDefaultImpl's sends).
struct DefaultMQProducerImpl {
  using PublishEntry = MQClientInstance::PublishEntry;

  // Java: the locals of one DefaultMQProducerImpl#sendDefaultImpl call, from its arrival to its
  // report. Plain values, so that a ring slot becomes a fresh send by one assignment of a
  // SendState (new_send): every field has its start value here and none can be missed.
  struct SendState {
    std::uint64_t id = 0;
    bool live = false;
    std::uint32_t thread = 0;        // the send_threads thread it runs on, arrival to end
    std::size_t topic_position = 0;  // index into the spec's topics, which record.topic views
    std::size_t topic_slot = 0;      // index into info_by_slot
    PublishEntry* info = nullptr;    // fixed for the whole send, as upstream's local (hold_info)
    int times = 0;
    int times_total = 0;
    // The last queue selected: one of info's queues, or Send::mq_picked (4.9's pickOneAtLeast
    // makes one up); null before the first. mq_broker is its broker id.
    const MessageQueue* mq = nullptr;
    std::uint32_t mq_broker = 0;
    SendCause exception = SendCause::kOk;  // the last attempt's failure
    std::uint64_t token = 0;               // bumped whenever its pending event is replaced
    // The running attempt.
    std::int64_t attempt_begin_ms = 0;
    std::int64_t attempt_timeout_ms = 0;
    std::uint32_t addr = 0;  // address id
    std::uint64_t channel = 0;
    // The planned end of the running attempt, or of the running route query's request.
    std::int64_t planned_end_ms = 0;
    SendCause planned_cause = SendCause::kOk;
    bool planned_close = false;
    std::int64_t planned_processed_ms = kNotProcessed;  // when the broker processes the request
    // tryToFindTopicPublishInfo is on its second update, for the default topic TBW102.
    bool query_default = false;
  };
  // A send: its state, and two buffers a slot keeps from send to send, each written before it is
  // read: the report (topic and start at the arrival, end and cause in finish_send, attempts
  // cleared there) and the queue pickOneAtLeast makes up (filled by each selection that uses it).
  struct Send : SendState {
    SendRecord record;
    MessageQueue mq_picked;
  };

  // `topics`: the spec's, in order; each name gets one topic slot. The producers of one client
  // instance share one id space: this one's send ids are (n << id_bits) | index, n from 0.
  DefaultMQProducerImpl(const std::vector<std::string>& topics, MqFaultStrategy fault_strategy,
                        unsigned id_bits = 0, std::uint64_t index = 0);

  std::uint64_t take_send_id() { return (sends_started++ << id_bits) | index; }
  Send* find_send(std::uint64_t id) {
    Send& s = send_ring[slot_of(id, send_ring.size())];
    return s.live && s.id == id ? &s : nullptr;
  }
  Send& send_at(std::uint64_t id) {
    Send* s = find_send(id);
    NSSIM_CHECK(s != nullptr, "unknown send");
    return *s;
  }
  // Send `id` in its ring slot, fresh and live (the ring grows while the slot is taken).
  Send& new_send(std::uint64_t id);

  // The sends in flight, in a ring indexed by id (grown when an id's slot is still in use).
  std::vector<Send> send_ring;
  std::size_t live_sends = 0;
  unsigned id_bits;
  std::uint64_t index;
  std::uint64_t sends_started = 0;
  // The application threads that make the sends. Upstream leaves them to the application; the
  // model takes Executors#newCachedThreadPool, one per producer: open-loop arrivals, none queued.
  CachedThreadPool send_threads;
  MqFaultStrategy mq_fault_strategy;
  // Per spec topic (the first position of each name): the publish info sends start with.
  std::vector<std::size_t> topic_slot_of_position;
  std::unordered_map<std::string, std::size_t> topic_slots;
  std::vector<std::shared_ptr<PublishEntry>> info_by_slot;

 private:
  std::size_t slot_of(std::uint64_t id, std::size_t ring_size) const {
    return (id >> id_bits) & (ring_size - 1);
  }
};

}  // namespace nssim::sim
