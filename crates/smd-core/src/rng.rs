//! Portable seeded randomness: ChaCha8 streams and explicit conversions to f64 and integers,
//! so the same seed gives the same numbers natively and in wasm, whatever `rand` version.

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

/// One independent random stream.
pub struct Stream(ChaCha8Rng);

impl Stream {
    /// Stream number `stream` of `seed`.
    pub fn new(seed: u64, stream: u64) -> Stream {
        let mut r = ChaCha8Rng::seed_from_u64(seed);
        r.set_stream(stream);
        Stream(r)
    }
    /// Uniform in [0, 1) with 53 random bits.
    pub fn unit(&mut self) -> f64 {
        (self.0.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
    /// Uniform in [lo, hi).
    pub fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }
    /// Uniform integer in lo..=hi.
    pub fn int(&mut self, lo: u64, hi: u64) -> u64 {
        let n = hi - lo + 1;
        lo + ((u128::from(self.0.next_u64()) * u128::from(n)) >> 64) as u64
    }
}

/// A stream number from a job id (FNV-1a), so reordering or adding jobs changes no other job.
pub fn stream_of(id: &str) -> u64 {
    id.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}
