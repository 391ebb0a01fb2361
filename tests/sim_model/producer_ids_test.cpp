// NameIds gives dense first-seen ids that never change; SlotTable's handles stay unique when a
// slot is reused, and its values keep their addresses while others are inserted.
#include "sim/client/producer_ids.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace nssim::sim {
namespace {

TEST(NameIds, GivesDenseIdsInFirstSeenOrder) {
  NameIds ids;
  EXPECT_EQ(ids.intern("broker-b"), 0u);
  EXPECT_EQ(ids.intern("broker-a"), 1u);
  EXPECT_EQ(ids.intern("broker-b"), 0u);
  EXPECT_EQ(ids.size(), 2u);
  EXPECT_EQ(ids.name(0), "broker-b");
  EXPECT_EQ(ids.name(1), "broker-a");
  EXPECT_EQ(ids.find("broker-a"), 1u);
  EXPECT_EQ(ids.find("broker-c"), std::nullopt);
}

TEST(NameIds, NamesStayValidAsMoreAreInterned) {
  NameIds ids;
  const std::string& first = ids.name(ids.intern("10.0.0.1:10911"));
  for (int i = 0; i < 1000; ++i) ids.intern("10.0.1." + std::to_string(i) + ":10911");
  EXPECT_EQ(first, "10.0.0.1:10911");
  EXPECT_EQ(ids.name(500), "10.0.1.499:10911");
}

TEST(SlotTable, HandlesFindTheirOwnValueOnly) {
  SlotTable<int> table;
  const auto a = table.emplace();
  const auto b = table.emplace();
  EXPECT_NE(a, 0u);
  EXPECT_NE(a, b);
  *table.find(a) = 1;
  *table.find(b) = 2;
  EXPECT_EQ(*table.find(a), 1);
  EXPECT_EQ(*table.find(b), 2);
  EXPECT_EQ(table.find(0), nullptr);
  EXPECT_EQ(table.find(b + 1), nullptr);  // a slot never given out
  EXPECT_EQ(table.size(), 2u);
}

TEST(SlotTable, AReusedSlotDoesNotAnswerItsOldHandle) {
  SlotTable<int> table;
  const auto old = table.emplace();
  *table.find(old) = 7;
  table.erase(old);
  EXPECT_EQ(table.find(old), nullptr);
  EXPECT_EQ(table.size(), 0u);
  const auto reused = table.emplace();
  EXPECT_NE(reused, old);
  EXPECT_EQ(reused & 0xFFFFFFFFu, old & 0xFFFFFFFFu);  // the same slot, a new generation
  EXPECT_EQ(*table.find(reused), 0);                   // a fresh value, not the old one
  EXPECT_EQ(table.find(old), nullptr);
  table.erase(old);  // a stale erase leaves the new value alone
  EXPECT_NE(table.find(reused), nullptr);
}

TEST(SlotTable, ValuesKeepTheirAddressWhileOthersAreInserted) {
  SlotTable<std::vector<int>> table;
  const auto first = table.emplace();
  std::vector<int>* held = table.find(first);
  held->push_back(42);
  for (int i = 0; i < 10000; ++i) table.emplace();
  EXPECT_EQ(table.find(first), held);
  EXPECT_EQ(held->at(0), 42);
}

}  // namespace
}  // namespace nssim::sim
