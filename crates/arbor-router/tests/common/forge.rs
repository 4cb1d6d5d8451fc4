//! The snapshot's checksum (`src/router/snapshot.rs`: FNV-1a over little-endian 64-bit words, then the
//! length), written out again so that the snapshot tests and the fuzz target can forge payloads that
//! pass it. If the real one changes, the forged payloads stop loading and those tests say so.

/// Recomputes the checksum of a snapshot whose payload (`bytes[24..]`) was altered, in its header.
pub fn reseal(bytes: &mut [u8]) {
    let sum = checksum(&bytes[24..]);
    bytes[16..24].copy_from_slice(&sum.to_le_bytes());
}

fn checksum(bytes: &[u8]) -> u64 {
    let step = |h: u64, word: &[u8]| {
        let mut w = [0u8; 8];
        w[..word.len()].copy_from_slice(word);
        (h ^ u64::from_le_bytes(w)).wrapping_mul(0x0100_0000_01b3)
    };
    let h = bytes.chunks(8).fold(0xcbf2_9ce4_8422_2325, step);
    (h ^ bytes.len() as u64).wrapping_mul(0x0100_0000_01b3)
}
