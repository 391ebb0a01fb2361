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

namespace {

// The bits that number `count` producers (0 for one: its send ids are 0, 1, 2...).
unsigned bits_for(std::size_t count) {
  unsigned bits = 0;
  while ((std::size_t{1} << bits) < count) ++bits;
  return bits;
}

}  // namespace

ProducerModel::Impl::Impl(const std::vector<InstanceProducer>& producers_in,
                          core::Profile profile_in, NodeId self_in, std::string name_in,
                          const NetworkHistory& network_in, const AddressBook& addresses_in,
                          RouteQuerySources sources_in, Rng rng, std::int64_t start_ms_in)
    : client_spec(producers_in.at(0).spec),
      profile(profile_in),
      self(self_in),
      name(std::move(name_in)),
      network(network_in),
      routes(sources_in.routes),
      log(sources_in.log),
      observer(producers_in[0].observer),
      choice_rng(0),  // drawn below, after the first producer's arrival stream
      start_ms(start_ms_in),
      client(profile_in, NettyRemotingClient(profile_in, self_in, network_in, addresses_in,
                                             {client_spec.config.connect_timeout_millis,
                                              client_spec.config.client_close_socket_if_timeout},
                                             std::move(sources_in.nameservers))),
      id_bits(bits_for(producers_in.size())) {
  // The first producer's streams are drawn as a lone producer's always were (arrivals, then
  // choices), so an instance of one gives what it gave before instances could hold more.
  const std::uint64_t first_arrival_seed = rng.next_u64();
  choice_rng = Rng(rng.next_u64());
  producers.reserve(producers_in.size());  // Producer holds sends that point into themselves
  for (std::size_t i = 0; i < producers_in.size(); ++i) {
    const ProducerSpec& spec = producers_in[i].spec;
    producers.push_back(Producer{
        spec, producers_in[i].observer,
        DefaultMQProducerImpl(spec.topics,
                              MqFaultStrategy(profile_in, spec.config.send_latency_fault_enable,
                                              spec.config.start_detector_enable),
                              id_bits, i),
        Rng(i == 0 ? first_arrival_seed : rng.next_u64()), 0, 0.0, 0});
    for (const std::string& topic : spec.topics) {
      if (std::find(poll_topics.begin(), poll_topics.end(), topic) == poll_topics.end()) {
        poll_topics.push_back(topic);
      }
    }
  }
  for (Producer& producer : producers) {
    if (producer.spec.rate_per_s > 0.0 && !producer.spec.topics.empty()) {
      schedule_arrival(producer, 0);
    }
  }
}

void ProducerModel::Impl::schedule(std::int64_t t_ms, EventKind kind, std::uint64_t a,
                                   std::uint64_t b) {
  events.push(Event{t_ms, next_seq++, kind, a, b});
}

void ProducerModel::Impl::run(const Event& event) {
  switch (event.kind) {
    case EventKind::kArrival:
      on_arrival(producers[event.a], event.t_ms);
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
void ProducerModel::Impl::schedule_arrival(Producer& producer, std::uint64_t k) {
  const ProducerSpec& spec = producer.spec;
  double offset_ms = 0.0;
  if (spec.arrival == Arrival::kFixed) {
    offset_ms = std::floor(static_cast<double>(k) * 1000.0 / spec.rate_per_s);
  } else {
    producer.poisson_clock_ms += producer.arrival_rng.exponential(spec.rate_per_s / 1000.0);
    offset_ms = std::floor(producer.poisson_clock_ms);
  }
  constexpr double kBeyondAnyClockMs = 0x1p62;  // ~146 million years, exact in double and int64
  if (!(offset_ms < kBeyondAnyClockMs - static_cast<double>(start_ms))) return;
  const std::int64_t at_ms = start_ms + static_cast<std::int64_t>(offset_ms);
  // Built in place: an Event built on the stack and then copied stalled on store forwarding.
  if (producer.impl.index == 0) {
    next_arrival = Event{at_ms, next_seq++, EventKind::kArrival, 0};
  } else {
    events.push(Event{at_ms, next_seq++, EventKind::kArrival, producer.impl.index});
  }
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

void ProducerModel::Impl::on_arrival(Producer& producer, std::int64_t t_ms) {
  schedule_arrival(producer, ++producer.arrivals);
  const std::vector<std::string>& topics = producer.spec.topics;
  const std::uint64_t id = producer.impl.take_send_id();
  Send& send = producer.impl.new_send(id);
  send.record.topic = topics[producer.next_topic];
  send.topic_position = producer.next_topic;
  send.topic_slot = producer.impl.topic_slot_of_position[producer.next_topic];
  producer.next_topic = (producer.next_topic + 1) % topics.size();
  send.record.start_ms = t_ms;
  send.thread = producer.impl.send_threads.take(t_ms);
  begin_send({producer, send}, t_ms);
}

void ProducerModel::Impl::on_route_answer(const std::string& topic,
                                          const core::TopicRouteData* route, std::int64_t t_ms,
                                          const RouteQuery& query) {
  MQClientInstance::RouteApplied applied;
  if (route) {
    applied = client.apply_route(topic, *route);
    if (applied.info != nullptr) {
      observer.on_publish_info(topic, t_ms, applied.info->brokers);
      for (Producer& producer : producers) {
        DefaultMQProducerImpl& impl = producer.impl;
        if (const auto slot = impl.topic_slots.find(topic); slot != impl.topic_slots.end()) {
          impl.info_by_slot[slot->second] = applied.info;
        }
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
  for (const Producer& producer : producers) {
    if (producer.impl.live_sends == 0) continue;
    for (const Send& send : producer.impl.send_ring) {
      if (send.live) frontier = std::min(frontier, send.record.start_ms);
    }
  }
  return frontier;
}

ProducerModel::ProducerModel(const std::vector<InstanceProducer>& producers, core::Profile profile,
                             NodeId self, std::string name, const NetworkHistory& network,
                             const AddressBook& addresses, RouteQuerySources sources, Rng rng,
                             std::int64_t start_ms)
    : impl_(std::make_unique<Impl>(producers, profile, self, std::move(name), network, addresses,
                                   std::move(sources), rng, start_ms)) {}

ProducerModel::ProducerModel(const ProducerSpec& spec, core::Profile profile, NodeId self,
                             std::string name, const NetworkHistory& network,
                             const AddressBook& addresses, RouteQuerySources sources, Rng rng,
                             ProducerObserver& observer, std::int64_t start_ms)
    : ProducerModel({InstanceProducer{spec, observer}}, profile, self, std::move(name), network,
                    addresses, std::move(sources), rng, start_ms) {}

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
  const std::int64_t frontier = impl_->report_frontier(t_ms);
  for (Impl::Producer& producer : impl_->producers) producer.observer.on_advanced(frontier);
}

std::int64_t ProducerModel::lag_ms() const {
  const ProducerConfig& client = impl_->client_spec.config;
  std::int64_t longest = client.mq_client_api_timeout;
  for (const Impl::Producer& producer : impl_->producers) {
    longest = std::max(longest, producer.spec.config.send_msg_timeout);
  }
  return client.connect_timeout_millis + longest + 2 * kTimedWaitOverrunMs;
}

const std::string& ProducerModel::name() const { return impl_->name; }

std::size_t ProducerModel::in_flight_sends() const {
  std::size_t live = 0;
  for (const Impl::Producer& producer : impl_->producers) live += producer.impl.live_sends;
  return live;
}

const TopicPublishInfo* ProducerModel::publish_info(const std::string& topic) const {
  const auto& table = impl_->client.topic_publish_info_table;
  const auto it = table.find(topic);
  return it == table.end() ? nullptr : &it->second->info;
}

}  // namespace nssim::sim
