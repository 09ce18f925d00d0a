// Tests: goto-like control flow expressed with nested loops, flag variables, multi-level breaks and an early exit from a search.
/* Find the first (row, col) of a 3x3 pattern inside an 8x8 tile of bytes. */
kernel void find_pattern(global const uchar *tiles, constant uchar *pattern, global int *pos)
{
    size_t t = get_global_id(0);
    global const uchar *tile = tiles + 64 * t;
    int found = -1;
    for (int r = 0; r <= 5 && found < 0; ++r) {
        for (int c = 0; c <= 5; ++c) {
            int ok = 1;
            for (int dr = 0; dr < 3 && ok; ++dr) {
                for (int dc = 0; dc < 3; ++dc) {
                    if (tile[(r + dr) * 8 + c + dc] != pattern[dr * 3 + dc]) {
                        ok = 0;
                        break;          /* leave the inner compare loop */
                    }
                }
            }
            if (ok) {
                found = r * 8 + c;
                break;                  /* leave the column loop; row loop sees found */
            }
        }
    }
    pos[t] = found;
}

/* A state machine loop that exits from several places. */
kernel void parse_digits(global const uchar *text, uint len, global int *out)
{
    size_t t = get_global_id(0);
    global const uchar *s = text + len * t;
    int value = 0, sign = 1, state = 0;
    for (uint k = 0; k < len; ++k) {
        uchar ch = s[k];
        if (state == 0) {
            if (ch == ' ') continue;
            state = 1;
            if (ch == '-') { sign = -1; continue; }
        }
        if (ch < '0' || ch > '9')
            break;
        value = value * 10 + (ch - '0');
        if (value > 100000)
            goto done;
    }
    out[t] = sign * value;
    return;
done:
    out[t] = sign * 100000;
}
