// File: the small integer ids of a producer's send path. Broker names and addresses get dense ids
// in first-seen order (NameIds), so that per-send look-ups index vectors instead of hashing
// strings; channels live in a SlotTable, whose handles stay unique when a slot is reused, so an
// event naming a channel that is gone finds nothing instead of its successor.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace nssim::sim {

// Names to dense ids 0, 1, 2... in the order they are first interned; an id is never reused.
// The hash map is only searched, never iterated, so its order reaches nothing.
class NameIds {
 public:
  std::uint32_t intern(const std::string& name) {
    const auto [it, inserted] = ids_.try_emplace(name, static_cast<std::uint32_t>(names_.size()));
    if (inserted) names_.push_back(&it->first);  // unordered_map keys never move
    return it->second;
  }
  std::optional<std::uint32_t> find(const std::string& name) const {
    const auto it = ids_.find(name);
    if (it == ids_.end()) return std::nullopt;
    return it->second;
  }
  const std::string& name(std::uint32_t id) const { return *names_.at(id); }
  std::size_t size() const { return names_.size(); }

 private:
  std::unordered_map<std::string, std::uint32_t> ids_;
  std::vector<const std::string*> names_;
};

// Values addressed by handles: (generation << 32) | (slot + 1). A freed slot is reused under the
// next generation, so its old handles find nothing. Handle 0 is never given out. Values live in a
// deque: a reference stays valid while other values are inserted (a connect's waiters may open
// channels to other addresses while the loop over them holds its own channel).
template <typename T>
class SlotTable {
 public:
  using Handle = std::uint64_t;

  // A default-constructed value in a free slot, and its handle.
  Handle emplace() {
    std::uint32_t slot = 0;
    if (free_.empty()) {
      slot = static_cast<std::uint32_t>(slots_.size());
      slots_.emplace_back();
    } else {
      slot = free_.back();
      free_.pop_back();
    }
    Slot& s = slots_[slot];
    s.used = true;
    s.value = T{};
    return (static_cast<Handle>(s.generation) << 32) | (static_cast<Handle>(slot) + 1);
  }
  T* find(Handle handle) {
    const std::uint64_t low = handle & 0xFFFFFFFFu;
    if (low == 0 || low > slots_.size()) return nullptr;
    Slot& s = slots_[low - 1];
    return s.used && s.generation == static_cast<std::uint32_t>(handle >> 32) ? &s.value : nullptr;
  }
  // Frees the handle's slot; a handle that finds nothing is ignored.
  void erase(Handle handle) {
    if (find(handle) == nullptr) return;
    const auto slot = static_cast<std::uint32_t>((handle & 0xFFFFFFFFu) - 1);
    Slot& s = slots_[slot];
    s.used = false;
    s.value = T{};
    ++s.generation;
    free_.push_back(slot);
  }
  std::size_t size() const { return slots_.size() - free_.size(); }

 private:
  struct Slot {
    std::uint32_t generation = 0;
    bool used = false;
    T value{};
  };
  std::deque<Slot> slots_;
  std::vector<std::uint32_t> free_;
};

}  // namespace nssim::sim
