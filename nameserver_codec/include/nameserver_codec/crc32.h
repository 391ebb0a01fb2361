// File: CRC-32 (IEEE 802.3, the polynomial java.util.zip.CRC32 uses) over raw body bytes, for the
// bodyCrc32 check of REGISTER_BROKER.
#pragma once

#include <cstdint>
#include <string_view>

namespace nssim::codec {

// Java: java.util.zip.CRC32#getValue after update(bytes). UtilAll#crc32 then masks the top bit;
// the processor does that, not this function.
std::uint32_t crc32(std::string_view bytes);

}  // namespace nssim::codec
