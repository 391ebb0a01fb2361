// File: DefaultMQProducerImpl's send ring and topic slots.
#include "sim/client/default_mq_producer_impl.h"

#include <type_traits>
#include <utility>

namespace nssim::sim {

DefaultMQProducerImpl::DefaultMQProducerImpl(const std::vector<std::string>& topics,
                                             MqFaultStrategy fault_strategy, unsigned id_bits_in,
                                             std::uint64_t index_in)
    : id_bits(id_bits_in), index(index_in), mq_fault_strategy(std::move(fault_strategy)) {
  // A few sends in flight at a time; the ring doubles when more are.
  send_ring.resize(4);
  topic_slot_of_position.reserve(topics.size());
  for (const std::string& topic : topics) {
    const auto [it, inserted] = topic_slots.emplace(topic, topic_slots.size());
    topic_slot_of_position.push_back(it->second);
  }
  info_by_slot.resize(topic_slots.size());
}

DefaultMQProducerImpl::Send& DefaultMQProducerImpl::new_send(std::uint64_t id) {
  while (send_ring[slot_of(id, send_ring.size())].live) {
    // The ring is full around this id: double it, keeping every live send at its new slot.
    std::vector<Send> bigger(send_ring.size() * 2);
    for (Send& old : send_ring) {
      if (!old.live) continue;
      Send& moved = bigger[slot_of(old.id, bigger.size())];
      // A queue that 4.9's pickOneAtLeast made up lives in the send itself: follow it.
      const bool made_up = old.mq == &old.mq_picked;
      moved = std::move(old);
      if (made_up) moved.mq = &moved.mq_picked;
    }
    send_ring = std::move(bigger);
  }
  Send& send = send_ring[slot_of(id, send_ring.size())];
  // A slot is free once finish_send has let go of its publish info and cleared its attempts.
  // A fresh send is one assignment of plain values: a few stores, no Send constructed.
  static_assert(std::is_trivially_copyable_v<SendState>);
  static_cast<SendState&>(send) = SendState{};
  send.id = id;
  send.live = true;
  ++live_sends;
  return send;
}

}  // namespace nssim::sim
