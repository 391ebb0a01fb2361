// File: the client's scheduled route poll (MQClientInstance#startScheduledTask ->
// updateTopicRouteInfoFromNameServer), a run of the scheduler thread
// (producer_scheduled_tasks.cpp) evaluated like a send's route query: the same channels and
// sticky NameServer choice, the same RouteHistory answers, under the same lockNamesrv.
#include "sim/client/producer_model_impl.h"

namespace nssim::sim {

// Java: MQClientInstance#updateTopicRouteInfoFromNameServer(): for each topic,
// updateTopicRouteInfoFromNameServer(topic) -> (topic, false, null), which takes lockNamesrv with
// tryLock(LOCK_TIMEOUT_MILLIS) as a send's query does. Deviation: upstream polls the keys of the
// producers' topicPublishInfoTables (their topics, and TBW102 put there at start) in hash order;
// the model polls every producer's spec topics, each once, in the order written.
void ProducerModel::Impl::on_poll_round(std::int64_t t_ms) {
  poll.position = 0;
  poll_topic(t_ms);
}

void ProducerModel::Impl::poll_topic(std::int64_t t_ms) {
  if (poll.position == poll_topics.size()) {
    end_scheduled_run(t_ms);
    return;
  }
  lock_namesrv(kRoutePollCaller, t_ms);
}

// The update for this topic returned (answered, or skipped on a tryLock timeout): the next one.
void ProducerModel::Impl::on_poll_topic_done(std::int64_t t_ms) {
  ++poll.position;
  poll_topic(t_ms);
}

// The IllegalStateException leaves the loop; the scheduled task logs it and the round ends.
void ProducerModel::Impl::on_poll_failed(std::int64_t t_ms, const std::string& topic,
                                         const char* cause) {
  if (log != nullptr) {
    log->add(t_ms, name, sim::EventKind::kRoutePollFailed, {{"topic", topic}, {"cause", cause}});
  }
  end_scheduled_run(t_ms);
}

}  // namespace nssim::sim
