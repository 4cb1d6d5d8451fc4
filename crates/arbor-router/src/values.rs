//! The values of a match: a fixed array of `(start, end)` pairs, which a lookup fills without
//! allocating.

/// Most parameters plus regex capture groups one route may have (bounds the fixed-size value
/// arrays of the lookup, which therefore never allocates).
pub const MAX_VALUES: usize = 32;

/// The values of a match in a fixed array rather than a `Vec`: a route has at most
/// [`MAX_VALUES`] of them, and a fixed address lets a host read them in place.
#[derive(Debug)]
pub(crate) struct Values {
    pub(crate) slots: [u32; 2 * MAX_VALUES],
    pub(crate) len: usize,
}

impl Default for Values {
    fn default() -> Self {
        Values {
            slots: [0; 2 * MAX_VALUES],
            len: 0,
        }
    }
}

impl Values {
    #[inline(always)]
    pub(crate) fn clear(&mut self) {
        self.len = 0;
    }

    /// Appends a `(start, end)` pair; a pair past the capacity is dropped (a route never has
    /// that many values: registration refuses it).
    #[inline(always)]
    pub(crate) fn push_pair(&mut self, start: u32, end: u32) {
        if let Some([s, e]) = self.slots.get_mut(self.len..self.len + 2) {
            *s = start;
            *e = end;
            self.len += 2;
        }
    }

    /// Replaces the values with the first `len` of `other` (all of them if it has fewer).
    #[inline(always)]
    pub(crate) fn copy_prefix(&mut self, other: &Values, len: usize) {
        let len = len.min(other.len);
        if let (Some(dst), Some(src)) = (self.slots.get_mut(..len), other.slots.get(..len)) {
            dst.copy_from_slice(src);
            self.len = len;
        }
    }

    #[inline(always)]
    pub(crate) fn as_slice(&self) -> &[u32] {
        self.slots.get(..self.len).unwrap_or_default()
    }

    pub(crate) fn len(&self) -> usize {
        self.len
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }
}
