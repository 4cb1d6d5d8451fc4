//! The snapshot's byte codec: a writer of little-endian numbers and length-prefixed bytes, and the
//! reader that checks every length against what is left.

use crate::error::SnapshotError;

#[derive(Default)]
pub(crate) struct Writer(pub(crate) Vec<u8>);

impl Writer {
    pub(crate) fn u8(&mut self, v: u8) {
        self.0.push(v);
    }
    pub(crate) fn u16(&mut self, v: u16) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    pub(crate) fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    pub(crate) fn u64(&mut self, v: u64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    pub(crate) fn len(&mut self, n: usize) {
        self.u32(u32::try_from(n).unwrap_or(u32::MAX));
    }
    pub(crate) fn bytes(&mut self, b: &[u8]) {
        self.len(b.len());
        self.0.extend_from_slice(b);
    }
    pub(crate) fn str(&mut self, s: &str) {
        self.bytes(s.as_bytes());
    }
    pub(crate) fn opt_str(&mut self, s: Option<&str>) {
        match s {
            Some(s) => {
                self.u8(1);
                self.str(s);
            }
            None => self.u8(0),
        }
    }
    pub(crate) fn u32s(&mut self, v: &[u32]) {
        self.len(v.len());
        for &x in v {
            self.u32(x);
        }
    }
}

/// A little-endian `u32` from four bytes (0 from any other length: callers pass `chunks_exact(4)`).
pub(crate) fn u32_at(bytes: &[u8]) -> u32 {
    <[u8; 4]>::try_from(bytes).map_or(0, u32::from_le_bytes)
}

pub(crate) struct Reader<'a> {
    pub(crate) bytes: &'a [u8],
    pub(crate) pos: usize,
}

pub(crate) fn corrupt(reason: &str) -> SnapshotError {
    SnapshotError::Corrupt {
        reason: reason.to_owned(),
    }
}

// The readers are inlined: a snapshot makes a call per number it holds, and a `Result` returned
// through memory costs more than the read.
impl<'a> Reader<'a> {
    #[inline]
    pub(crate) fn take(&mut self, n: usize) -> Result<&'a [u8], SnapshotError> {
        let end = self
            .pos
            .checked_add(n)
            .ok_or_else(|| corrupt("length overflow"))?;
        let out = self
            .bytes
            .get(self.pos..end)
            .ok_or_else(|| corrupt("unexpected end of payload"))?;
        self.pos = end;
        Ok(out)
    }
    #[inline]
    pub(crate) fn u8(&mut self) -> Result<u8, SnapshotError> {
        Ok(self.take(1)?.first().copied().unwrap_or(0))
    }
    #[inline]
    pub(crate) fn u16(&mut self) -> Result<u16, SnapshotError> {
        let b = self.take(2)?;
        Ok(<[u8; 2]>::try_from(b).map_or(0, u16::from_le_bytes))
    }
    #[inline]
    pub(crate) fn u32(&mut self) -> Result<u32, SnapshotError> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes(
            <[u8; 4]>::try_from(b).map_err(|_| corrupt("u32"))?,
        ))
    }
    #[inline]
    pub(crate) fn u64(&mut self) -> Result<u64, SnapshotError> {
        let b = self.take(8)?;
        Ok(u64::from_le_bytes(
            <[u8; 8]>::try_from(b).map_err(|_| corrupt("u64"))?,
        ))
    }
    /// A count of items each at least `min_size` bytes long (so a forged count cannot make us
    /// allocate more than the payload could hold).
    #[inline]
    pub(crate) fn count(&mut self, min_size: usize) -> Result<usize, SnapshotError> {
        let n = self.u32()? as usize;
        let remaining = self.bytes.len().saturating_sub(self.pos);
        if n.saturating_mul(min_size.max(1)) > remaining {
            return Err(corrupt("count larger than the payload"));
        }
        Ok(n)
    }
    #[inline]
    pub(crate) fn bytes(&mut self) -> Result<Vec<u8>, SnapshotError> {
        Ok(self.take_counted()?.to_vec())
    }
    /// A length-prefixed run of bytes, borrowed from the payload.
    #[inline]
    pub(crate) fn take_counted(&mut self) -> Result<&'a [u8], SnapshotError> {
        let n = self.count(1)?;
        self.take(n)
    }
    #[inline]
    pub(crate) fn str(&mut self) -> Result<String, SnapshotError> {
        let bytes = self.take_counted()?;
        String::from_utf8(bytes.to_vec()).map_err(|_| corrupt("invalid UTF-8 string"))
    }
    /// A string of the route metadata: its bytes are checked at load only for their length (see
    /// `check_metadata`), so a byte that is not UTF-8, which only a forged snapshot holds, reads as
    /// U+FFFD instead of failing a decode that must not fail.
    #[inline]
    pub(crate) fn text(&mut self) -> Result<String, SnapshotError> {
        Ok(String::from_utf8_lossy(self.take_counted()?).into_owned())
    }
    #[inline]
    pub(crate) fn opt_text(&mut self) -> Result<Option<String>, SnapshotError> {
        match self.u8()? {
            0 => Ok(None),
            1 => Ok(Some(self.text()?)),
            _ => Err(corrupt("invalid option tag")),
        }
    }
    #[inline]
    pub(crate) fn skip_text(&mut self) -> Result<(), SnapshotError> {
        self.take_counted().map(drop)
    }
    #[inline]
    pub(crate) fn skip_opt_text(&mut self) -> Result<(), SnapshotError> {
        match self.u8()? {
            0 => Ok(()),
            1 => self.skip_text(),
            _ => Err(corrupt("invalid option tag")),
        }
    }
    #[inline]
    pub(crate) fn bool(&mut self) -> Result<bool, SnapshotError> {
        match self.u8()? {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(corrupt("invalid boolean")),
        }
    }
    #[inline]
    pub(crate) fn u32s(&mut self) -> Result<Vec<u32>, SnapshotError> {
        let n = self.count(4)?;
        // At once, not number by number: see `flat::read_segments`.
        Ok(self.take(n * 4)?.chunks_exact(4).map(u32_at).collect())
    }
}
