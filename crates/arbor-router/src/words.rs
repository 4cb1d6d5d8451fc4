//! Word-at-a-time byte helpers of the hot path: 8-byte loads that never read past a slice (no
//! `unsafe`, no indexing: an out-of-range load is zero), label compares without `memcmp`, and the
//! SWAR byte search that finds the next `/`.

#[inline(always)]
pub(crate) fn load8(bytes: &[u8], at: usize) -> u64 {
    match bytes.get(at..at + 8) {
        Some(b) => u64::from_le_bytes(<[u8; 8]>::try_from(b).unwrap_or([0; 8])),
        None => 0,
    }
}

#[inline(always)]
pub(crate) fn load4(bytes: &[u8], at: usize) -> u32 {
    match bytes.get(at..at + 4) {
        Some(b) => u32::from_le_bytes(<[u8; 4]>::try_from(b).unwrap_or([0; 4])),
        None => 0,
    }
}

/// Whether `label` occurs in `path` at `pos`. Compares 8 bytes at a time, the last word overlapping
/// the previous one, so no call to `memcmp` (which costs more than the compare for short labels).
#[inline]
pub(crate) fn label_at(path: &[u8], pos: usize, label: &[u8]) -> bool {
    let n = label.len();
    let Some(window) = path.get(pos..pos + n) else {
        return false;
    };
    if n >= 8 {
        let mut i = 0;
        while i + 8 < n {
            if load8(window, i) != load8(label, i) {
                return false;
            }
            i += 8;
        }
        load8(window, n - 8) == load8(label, n - 8)
    } else if n >= 4 {
        load4(window, 0) == load4(label, 0) && load4(window, n - 4) == load4(label, n - 4)
    } else {
        window.iter().zip(label).all(|(a, b)| a == b)
    }
}

pub(crate) const LO: u64 = 0x0101_0101_0101_0101;
pub(crate) const HI: u64 = 0x8080_8080_8080_8080;

/// Non-zero where a byte of `w` equals `b` (the lowest such byte is exact).
#[inline(always)]
pub(crate) fn has_byte(w: u64, b: u8) -> u64 {
    let x = w ^ (LO * u64::from(b));
    x.wrapping_sub(LO) & !x & HI
}

/// End of the segment starting at `pos`: the next `/` or the end of the path. 8 bytes at a time.
#[inline]
pub(crate) fn segment_end(path: &[u8], pos: usize) -> usize {
    let mut i = pos;
    while i + 8 <= path.len() {
        let hit = has_byte(load8(path, i), b'/');
        if hit != 0 {
            return i + (hit.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    match path.get(i..) {
        Some(rest) => rest
            .iter()
            .position(|&b| b == b'/')
            .map_or(path.len(), |k| i + k),
        None => path.len(),
    }
}

/// 8 bytes of `path` from `pos`, zero-padded past its end.
#[inline(always)]
pub(crate) fn word_at(path: &[u8], pos: usize) -> u64 {
    if let Some(b) = path.get(pos..pos + 8) {
        return u64::from_le_bytes(<[u8; 8]>::try_from(b).unwrap_or([0; 8]));
    }
    let n = path.len();
    if n >= 8 && pos < n {
        // The last word of the path, shifted down: no byte loop near the end.
        let shift = 8 * (pos + 8 - n) as u32;
        return load8(path, n - 8) >> shift;
    }
    let mut buf = [0u8; 8];
    for (d, s) in buf.iter_mut().zip(path.get(pos..).unwrap_or_default()) {
        *d = *s;
    }
    u64::from_le_bytes(buf)
}

/// The mask of the first `n` bytes of a little-endian word.
#[inline(always)]
pub(crate) fn mask_of(n: usize) -> u64 {
    match n {
        0 => 0,
        n if n >= 8 => u64::MAX,
        n => u64::MAX >> (64 - 8 * n as u32),
    }
}
