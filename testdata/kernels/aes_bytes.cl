// Tests: AES-like byte operations on uchar/uchar16: S-box lookups from a __constant table, ShiftRows shuffle, xtime/MixColumns and AddRoundKey.
constant uchar sbox_lo[16] = { 0x63, 0x7c, 0x77, 0x7b, 0xf2, 0x6b, 0x6f, 0xc5,
                               0x30, 0x01, 0x67, 0x2b, 0xfe, 0xd7, 0xab, 0x76 };

static uchar sub_byte(uchar b)
{
    /* toy S-box: table for the low nibble mixed with the high nibble */
    return sbox_lo[b & 15] ^ (uchar)((b >> 4) * 0x1b);
}

static uchar xtime(uchar b)
{
    return (uchar)((b << 1) ^ ((b & 0x80) ? 0x1b : 0x00));
}

kernel void aes_round(global const uchar16 *states, global uchar16 *out, uchar16 round_key)
{
    size_t i = get_global_id(0);
    uchar16 s = states[i];
    uchar t[16];
    for (int k = 0; k < 16; ++k)
        t[k] = sub_byte(s[k]);
    uchar16 sub = vload16(0, t);
    /* ShiftRows on a column-major 4x4 state */
    uchar16 sh = shuffle(sub, (uchar16)(0, 5, 10, 15, 4, 9, 14, 3, 8, 13, 2, 7, 12, 1, 6, 11));
    uchar m[16];
    for (int c = 0; c < 4; ++c) {
        uchar a0 = sh[4 * c], a1 = sh[4 * c + 1], a2 = sh[4 * c + 2], a3 = sh[4 * c + 3];
        uchar all = a0 ^ a1 ^ a2 ^ a3;
        m[4 * c + 0] = a0 ^ all ^ xtime(a0 ^ a1);
        m[4 * c + 1] = a1 ^ all ^ xtime(a1 ^ a2);
        m[4 * c + 2] = a2 ^ all ^ xtime(a2 ^ a3);
        m[4 * c + 3] = a3 ^ all ^ xtime(a3 ^ a0);
    }
    out[i] = vload16(0, m) ^ round_key;
}
