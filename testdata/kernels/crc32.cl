// Tests: CRC-32 (reflected, poly 0xEDB88320) over byte messages: bitwise loop, a __constant-free table built in local memory, and a ulong-wide variant.
#define POLY 0xEDB88320u

static uint crc32_byte_bitwise(uint crc, uchar b)
{
    crc ^= b;
    for (int k = 0; k < 8; ++k)
        crc = (crc >> 1) ^ (POLY & (0u - (crc & 1u)));
    return crc;
}

/* One message of msg_len bytes per work-item. */
kernel void crc32_bitwise(global const uchar *msgs, uint msg_len, global uint *crcs)
{
    size_t m = get_global_id(0);
    global const uchar *p = msgs + m * msg_len;
    uint crc = 0xffffffffu;
    for (uint k = 0; k < msg_len; ++k)
        crc = crc32_byte_bitwise(crc, p[k]);
    crcs[m] = ~crc;
}

/* Table-driven CRC on messages read as ulong words (msg_words words each). */
kernel void crc32_table_u64(global const ulong *msgs, uint msg_words, global uint *crcs)
{
    local uint table[256];
    for (uint t = get_local_id(0); t < 256; t += get_local_size(0)) {
        uint c = t;
        for (int k = 0; k < 8; ++k)
            c = (c & 1u) ? (c >> 1) ^ POLY : c >> 1;
        table[t] = c;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    size_t m = get_global_id(0);
    uint crc = 0xffffffffu;
    for (uint w = 0; w < msg_words; ++w) {
        ulong word = msgs[m * msg_words + w];
        for (int b = 0; b < 8; ++b) {
            crc = table[(crc ^ (uint)(word & 0xffUL)) & 0xffu] ^ (crc >> 8);
            word >>= 8;
        }
    }
    crcs[m] = ~crc;
}
