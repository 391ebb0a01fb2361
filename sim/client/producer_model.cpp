// File: ProducerModel's event loop, its open-loop arrivals, and the route answers it applies to
// its client instance's tables (mq_client_instance.h).
#include "sim/client/producer_model.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "common/invariant.h"
#include "nameserver_core/ids.h"
#include "sim/client/producer_model_impl.h"

namespace nssim::sim {

ProducerModel::Impl::Impl(const ProducerSpec& spec_in, core::Profile profile_in, NodeId self_in,
                          std::string name_in, const NetworkHistory& network_in,
                          const AddressBook& addresses_in, RouteQuerySources sources_in, Rng rng,
                          ProducerObserver& observer_in, std::int64_t start_ms_in)
    : spec(spec_in),
      profile(profile_in),
      self(self_in),
      name(std::move(name_in)),
      network(network_in),
      routes(sources_in.routes),
      log(sources_in.log),
      observer(observer_in),
      arrival_rng(rng.next_u64()),
      choice_rng(rng.next_u64()),
      start_ms(start_ms_in),
      client(profile_in, NettyRemotingClient(profile_in, self_in, network_in, addresses_in,
                                             {spec_in.config.connect_timeout_millis,
                                              spec_in.config.client_close_socket_if_timeout},
                                             std::move(sources_in.nameservers))),
      producer(spec_in.topics, MqFaultStrategy(profile_in, spec_in.config.send_latency_fault_enable,
                                               spec_in.config.start_detector_enable)) {
  if (spec.rate_per_s > 0.0 && !spec.topics.empty()) schedule_arrival(0);
}

void ProducerModel::Impl::schedule(std::int64_t t_ms, EventKind kind, std::uint64_t a,
                                   std::uint64_t b) {
  events.push(Event{t_ms, next_seq++, kind, a, b});
}

void ProducerModel::Impl::run(const Event& event) {
  switch (event.kind) {
    case EventKind::kArrival:
      on_arrival(event.t_ms);
      return;
    case EventKind::kRoute: {
      auto node = route_answers.extract(event.a);
      RouteAnswer& answer = node.mapped();
      if (answer.answered) {
        on_route_answer(answer.topic, answer.route ? &*answer.route : nullptr, event.t_ms,
                        answer.query);
      } else {
        report_route_update(answer.topic, answer.query, event.t_ms, {}, {});
      }
      return;
    }
    case EventKind::kAttemptDone:
      on_attempt_done(event.a, event.b, event.t_ms);
      return;
    case EventKind::kConnectDone:
      on_connect_done(event.a, event.t_ms);
      return;
    case EventKind::kLockTimeout:
      on_lock_timeout(event.a, static_cast<std::int64_t>(event.b), event.t_ms);
      return;
    case EventKind::kQueryConnectDone:
      on_query_connect_done(event.t_ms);
      return;
    case EventKind::kQueryDone:
      on_query_done(event.t_ms);
      return;
    case EventKind::kScheduledRun:
      on_scheduled_run(event.t_ms);
      return;
    case EventKind::kHeartbeatDone:
      on_heartbeat_done(event.a, event.t_ms);
      return;
  }
}

// Arrival k of an open-loop process starting at start_ms. Fixed: start + floor(k * 1000 / rate).
// Poisson: exponential gaps accumulated in double, floored to the millisecond. An arrival later
// than any clock value (a rate such as 1e-16/s puts the second one ~1e19 ms out) is never
// scheduled: the run ends first, and casting it to int64 would overflow.
void ProducerModel::Impl::schedule_arrival(std::uint64_t k) {
  double offset_ms = 0.0;
  if (spec.arrival == Arrival::kFixed) {
    offset_ms = std::floor(static_cast<double>(k) * 1000.0 / spec.rate_per_s);
  } else {
    poisson_clock_ms += arrival_rng.exponential(spec.rate_per_s / 1000.0);
    offset_ms = std::floor(poisson_clock_ms);
  }
  constexpr double kBeyondAnyClockMs = 0x1p62;  // ~146 million years, exact in double and int64
  if (!(offset_ms < kBeyondAnyClockMs - static_cast<double>(start_ms))) return;
  next_arrival =
      Event{start_ms + static_cast<std::int64_t>(offset_ms), next_seq++, EventKind::kArrival};
}

std::optional<ProducerModel::Impl::Event> ProducerModel::Impl::take_due(std::int64_t t_ms) {
  const bool heap_due = !events.empty() && events.top().t_ms <= t_ms;
  if (next_arrival && next_arrival->t_ms <= t_ms &&
      (!heap_due || Later{}(events.top(), *next_arrival))) {
    return std::exchange(next_arrival, std::nullopt);
  }
  if (!heap_due) return std::nullopt;
  const Event event = events.top();
  events.pop();
  return event;
}

void ProducerModel::Impl::on_arrival(std::int64_t t_ms) {
  schedule_arrival(++arrivals);
  const std::uint64_t id = producer.next_send_id++;
  Send& send = producer.new_send(id);
  send.record.topic = spec.topics[next_topic];
  send.topic_position = next_topic;
  send.topic_slot = producer.topic_slot_of_position[next_topic];
  next_topic = (next_topic + 1) % spec.topics.size();
  send.record.start_ms = t_ms;
  send.thread = producer.send_threads.take(t_ms);
  begin_send(id, t_ms);
}

void ProducerModel::Impl::on_route_answer(const std::string& topic,
                                          const core::TopicRouteData* route, std::int64_t t_ms,
                                          const RouteQuery& query) {
  MQClientInstance::RouteApplied applied;
  if (route) {
    applied = client.apply_route(topic, *route);
    if (applied.info != nullptr) {
      observer.on_publish_info(topic, t_ms, applied.info->brokers);
      if (const auto slot = producer.topic_slots.find(topic); slot != producer.topic_slots.end()) {
        producer.info_by_slot[slot->second] = applied.info;
      }
    }
  }
  // A nullopt answer keeps the cached route and publish info (TOPIC_NOT_EXIST is only logged).
  report_route_update(topic, query, t_ms, std::move(applied.gained), std::move(applied.lost));
}

void ProducerModel::Impl::report_route_update(const std::string& topic, const RouteQuery& query,
                                              std::int64_t t_ms, std::vector<std::string> gained,
                                              std::vector<std::string> lost) {
  observer.on_route_update(RouteUpdate{topic, query, t_ms, std::move(gained), std::move(lost)});
}

std::int64_t ProducerModel::Impl::report_frontier(std::int64_t t_ms) const {
  // A send's lines end at or after its start; sends yet to arrive start after t_ms, and route
  // answers yet to be applied are applied at or after it.
  std::int64_t frontier = t_ms;
  if (producer.live_sends == 0) return frontier;
  for (const Send& send : producer.send_ring) {
    if (send.live) frontier = std::min(frontier, send.record.start_ms);
  }
  return frontier;
}

ProducerModel::ProducerModel(const ProducerSpec& spec, core::Profile profile, NodeId self,
                             std::string name, const NetworkHistory& network,
                             const AddressBook& addresses, RouteQuerySources sources, Rng rng,
                             ProducerObserver& observer, std::int64_t start_ms)
    : impl_(std::make_unique<Impl>(spec, profile, self, std::move(name), network, addresses,
                                   std::move(sources), rng, observer, start_ms)) {}

ProducerModel::~ProducerModel() = default;

void ProducerModel::start_scheduled_task() { impl_->start_scheduled_task(); }

void ProducerModel::on_route(const std::string& topic, std::optional<core::TopicRouteData> route,
                             std::int64_t t_ms, const RouteQuery& query) {
  NSSIM_CHECK(!impl_->advanced_ms || t_ms >= *impl_->advanced_ms,
              "on_route: the answer precedes the model's present");
  const std::uint64_t id = impl_->next_route_answer++;
  impl_->route_answers.emplace(id, Impl::RouteAnswer{topic, std::move(route), query, true});
  impl_->schedule(t_ms, Impl::EventKind::kRoute, id);
}

void ProducerModel::on_route_failed(const std::string& topic, std::int64_t t_ms,
                                    const RouteQuery& query) {
  NSSIM_CHECK(!impl_->advanced_ms || t_ms >= *impl_->advanced_ms,
              "on_route_failed: the failure precedes the model's present");
  const std::uint64_t id = impl_->next_route_answer++;
  impl_->route_answers.emplace(id, Impl::RouteAnswer{topic, std::nullopt, query, false});
  impl_->schedule(t_ms, Impl::EventKind::kRoute, id);
}

void ProducerModel::advance_to(std::int64_t t_ms) {
  NSSIM_CHECK(!impl_->advanced_ms || t_ms >= *impl_->advanced_ms,
              "advance_to: time goes backwards");
  impl_->advanced_ms = t_ms;
  while (const auto event = impl_->take_due(t_ms)) impl_->run(*event);
  impl_->observer.on_advanced(impl_->report_frontier(t_ms));
}

std::int64_t ProducerModel::lag_ms() const {
  const ProducerConfig& config = impl_->spec.config;
  return config.connect_timeout_millis +
         std::max(config.send_msg_timeout, config.mq_client_api_timeout) + 2 * kTimedWaitOverrunMs;
}

const std::string& ProducerModel::name() const { return impl_->name; }

std::size_t ProducerModel::in_flight_sends() const { return impl_->producer.live_sends; }

const TopicPublishInfo* ProducerModel::publish_info(const std::string& topic) const {
  const auto& table = impl_->client.topic_publish_info_table;
  const auto it = table.find(topic);
  return it == table.end() ? nullptr : &it->second->info;
}

}  // namespace nssim::sim
