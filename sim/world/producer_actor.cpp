// File: ProducerActor (see producer_actor.h).
#include "sim/world/producer_actor.h"

#include <algorithm>
#include <string>
#include <variant>

#include "nameserver_core/remoting.h"
#include "sim/world/net.h"
#include "sim/world/simgrid_clock.h"

namespace nssim::sim {

namespace {
constexpr std::int64_t kAdvancePeriodMs = 5000;  // how often sends are evaluated (bounds memory)
}  // namespace

ProducerActor::ProducerActor(Net& net, NodeId self, std::uint32_t epoch, core::Profile profile,
                             const ProducerSpec& spec, std::string name,
                             std::vector<NodeId> nameservers, const AddressBook& addresses,
                             const RouteHistory& routes, std::uint64_t seed,
                             ProducerObserver& observer, EventLog& log, std::int64_t end_ms)
    : NodeActor(net, self, epoch),
      profile_(profile),
      spec_(spec),
      name_(std::move(name)),
      log_(log),
      rng_(Rng::derive(seed, "client/" + name_)),
      selector_(std::move(nameservers), rng_),
      nameserver_history_(selector_),
      model_(spec, profile, self, name_, net.history(), addresses,
             RouteQuerySources{routes, nameserver_history_}, Rng::derive(seed, "producer/" + name_),
             observer, now_ms()),
      client_(net, self, epoch, profile, spec.config.connect_timeout_millis,
              spec.config.client_close_socket_if_timeout,
              [this](std::int64_t t, std::function<void()> fn) { at(t, std::move(fn)); }),
      executor_([this](std::int64_t t, std::function<void()> fn) { at(t, std::move(fn)); },
                [] { return now_ms(); }),
      end_ms_(end_ms) {
  client_.set_channel_listener([this](NodeId server, std::optional<std::uint32_t> server_epoch) {
    nameserver_history_.record_channel(now_ms(), server, server_epoch);
  });
}

// Java: MQClientInstance#startScheduledTask — the route poll after 10 ms, then every
// pollNameServerInterval, on the client's single scheduler thread. Deviation: the broker
// heartbeat task (cleanOfflineBroker + sendHeartbeatToAllBrokerWithLock, every
// heartbeatBrokerInterval) is not modelled; upstream runs it on the same thread, where a connect
// timeout to a dead broker can delay a route poll by seconds (spec 11(b)).
void ProducerActor::on_start() {
  const std::int64_t now = now_ms();
  executor_.schedule_at_fixed_rate(
      now + 10, spec_.config.poll_name_server_interval,
      [this](SerialExecutor::Done done) { poll_routes(0, std::move(done)); });
  every(now + kAdvancePeriodMs, kAdvancePeriodMs, [this] { advance(); });
}

void ProducerActor::on_envelope(const Envelope& envelope) { client_.on_envelope(envelope); }

// NetworkHistory, RouteHistory and this actor's NameServerClientHistory are appended as the world
// runs, so now they hold everything before now (changes at now itself may still come). The model
// evaluates only events at or before now - lag, and each looks at most max(connectTimeoutMillis,
// sendMsgTimeout, mqClientApiTimeout) + kTimedWaitOverrunMs ahead, which is below lag: it never
// reads an instant the world has not finished.
void ProducerActor::advance() { model_.advance_to(std::min(end_ms_, now_ms() - model_.lag_ms())); }

void ProducerActor::finish(std::int64_t until_ms) {
  model_.advance_to(std::min(end_ms_, until_ms));
}

void ProducerActor::poll_routes(std::size_t index, SerialExecutor::Done done) {
  if (index == spec_.topics.size()) return done();
  const std::string& topic = spec_.topics[index];
  auto request = std::make_shared<core::RemotingRequest>();
  request->code = core::request_code::kGetRouteinfoByTopic;
  request->version = core::default_request_version(profile_);
  request->ext_fields = {{"topic", topic}};
  const std::size_t tries = profile_ == core::Profile::kV4_9 ? selector_.size() : 1;
  invoke_nameserver(
      request, now_ms(), tries,
      [this, index, done = std::move(done)](
          InvokeFailure failure, const core::RemotingResponse* response, RouteQuery query) mutable {
        const std::string& polled = spec_.topics[index];
        if (failure != InvokeFailure::kNone) {
          log_.add(now_ms(), name_, "route_poll_failed",
                   {{"topic", polled}, {"cause", invoke_failure_name(failure)}});
        }
        deliver_route_answer(polled, failure, response, std::move(query));
        if (failure != InvokeFailure::kNone) return done();
        poll_routes(index + 1, std::move(done));
      });
}

namespace {

// What the trace calls a route query's end (trace_sink.h RouteQuery::outcome).
std::string route_outcome(InvokeFailure failure, const core::RemotingResponse* response) {
  if (failure != InvokeFailure::kNone) return invoke_failure_name(failure);
  if (response->code == core::response_code::kSuccess &&
      std::holds_alternative<std::shared_ptr<const core::TopicRouteData>>(response->body)) {
    return "ok";
  }
  if (response->code == core::response_code::kTopicNotExist) return "topic_not_exist";
  return "response_code_" + std::to_string(response->code);
}

}  // namespace

void ProducerActor::deliver_route_answer(const std::string& topic, InvokeFailure failure,
                                         const core::RemotingResponse* response, RouteQuery query) {
  const std::int64_t now = now_ms();
  query.outcome = route_outcome(failure, response);
  if (failure != InvokeFailure::kNone) {
    model_.on_route_failed(topic, now, query);
    return;
  }
  const auto* route = std::get_if<std::shared_ptr<const core::TopicRouteData>>(&response->body);
  if (response->code == core::response_code::kSuccess && route != nullptr) {
    model_.on_route(topic, **route, now, query);
  } else {
    model_.on_route(topic, std::nullopt, now, query);  // e.g. TOPIC_NOT_EXIST: keep the old route
  }
}

// Java: NettyRemotingClient#invokeSync(null, ...). 4.9 tries the next NameServer within the
// same call when a connect fails (getAndCreateNameserverChannel's loop); 5.x fails the call and
// moves on at the next one. The time already spent counts against the timeout either way.
void ProducerActor::invoke_nameserver(std::shared_ptr<const core::RemotingRequest> request,
                                      std::int64_t begin_ms, std::size_t tries_left,
                                      RouteCallback callback) {
  const auto channel_ok = [this](NodeId n) { return client_.channel_ok(n); };
  const std::optional<NodeId> chosen = selector_.chosen();
  const bool keeps_chosen = chosen && channel_ok(*chosen);
  const NodeId ns = selector_.choose(channel_ok);
  const std::int64_t now = now_ms();
  if (!keeps_chosen) nameserver_history_.record_choice(now, selector_);
  const std::int64_t timeout = spec_.config.mq_client_api_timeout - (now - begin_ms);
  client_.invoke(
      ns, request, kRouteRequestBytes, timeout, false,
      [this, request, begin_ms, tries_left, ns, now, callback = std::move(callback)](
          InvokeFailure failure, const core::RemotingResponse* response) mutable {
        const bool connect_failed =
            failure == InvokeFailure::kConnectRefused || failure == InvokeFailure::kConnectTimeout;
        if (connect_failed &&
            tries_left > 1) {  // the failed one's channel is not OK: choose moves on
          return invoke_nameserver(request, begin_ms, tries_left - 1, std::move(callback));
        }
        callback(failure, response, RouteQuery{net_.history().name(ns), now, {}});
      });
}

}  // namespace nssim::sim
