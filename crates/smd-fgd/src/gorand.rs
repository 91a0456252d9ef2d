//! Go's `math/rand` global source, bit for bit (docs/MODEL.md §26.2).
//!
//! The reference simulator draws every random choice — the pod shuffle, the clones, the
//! node rank — from Go's global `math/rand` source, so reproducing a published seed means
//! reproducing that generator: an additive lagged Fibonacci generator of 607 words with tap
//! 273, `x[n] = x[n−607] + x[n−273] (mod 2^63)`, whose state is seeded by a Lehmer generator
//! (`x ← 48271·x mod (2^31−1)`, Schrage's method) XORed with Go's 607 "cooked" values
//! ([`crate::gorand_table`]). The derived draws follow Go's definitions: `Int31n` by
//! rejection on `Int31`, the unexported `int31n` (used by `Shuffle`) by Lemire's
//! multiply-shift with rejection on `Uint32`, `Perm` forward with `j = Intn(i+1)`.

use crate::gorand_table::COOKED;

const LEN: usize = 607;
const TAP: usize = 273;
const MASK: u64 = (1 << 63) - 1;
const LEHMER_A: i32 = 48271;
const LEHMER_M: i64 = (1 << 31) - 1;
const LEHMER_Q: i32 = 44488;
const LEHMER_R: i32 = 3399;

/// One step of the Lehmer seeding generator, `48271·x mod (2^31 − 1)` without overflow.
fn seedrand(x: i32) -> i32 {
    let hi = x / LEHMER_Q;
    let lo = x % LEHMER_Q;
    let v = LEHMER_A
        .wrapping_mul(lo)
        .wrapping_sub(LEHMER_R.wrapping_mul(hi));
    if v < 0 {
        v + LEHMER_M as i32
    } else {
        v
    }
}

/// Go's `math/rand` source and the draws the experiment uses.
#[derive(Clone)]
pub struct GoRand {
    tap: usize,
    feed: usize,
    vec: Box<[u64; LEN]>,
}

impl std::fmt::Debug for GoRand {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GoRand")
            .field("tap", &self.tap)
            .field("feed", &self.feed)
            .finish()
    }
}

impl GoRand {
    /// A source seeded like Go's `rand.Seed(seed)`.
    pub fn new(seed: i64) -> Self {
        let mut rng = GoRand {
            tap: 0,
            feed: LEN - TAP,
            vec: Box::new([0; LEN]),
        };
        rng.seed(seed);
        rng
    }

    /// Go's `Seed`: reduce the seed modulo 2^31 − 1 (0 becomes 89482311), run the Lehmer
    /// generator 20 steps, then fill each word from three more steps XOR the cooked value.
    pub fn seed(&mut self, seed: i64) {
        self.tap = 0;
        self.feed = LEN - TAP;
        let mut s = seed % LEHMER_M;
        if s < 0 {
            s += LEHMER_M;
        }
        if s == 0 {
            s = 89_482_311;
        }
        let mut x = s as i32;
        for _ in 0..20 {
            x = seedrand(x);
        }
        for (slot, cooked) in self.vec.iter_mut().zip(COOKED.iter()) {
            x = seedrand(x);
            let mut u = (x as i64) << 40;
            x = seedrand(x);
            u ^= (x as i64) << 20;
            x = seedrand(x);
            u ^= x as i64;
            u ^= *cooked;
            *slot = (u as u64) & MASK;
        }
    }

    /// A non-negative 63-bit value (Go's `Int63`).
    pub fn int63(&mut self) -> i64 {
        self.tap = if self.tap == 0 { LEN - 1 } else { self.tap - 1 };
        self.feed = if self.feed == 0 {
            LEN - 1
        } else {
            self.feed - 1
        };
        let x = self.vec[self.feed].wrapping_add(self.vec[self.tap]) & MASK;
        self.vec[self.feed] = x;
        x as i64
    }

    /// Go's `Int` on a 64-bit platform: the same value as `Int63`.
    pub fn int(&mut self) -> i64 {
        self.int63()
    }

    /// Go's `Uint32`: the top 32 of the 63 bits.
    pub fn uint32(&mut self) -> u32 {
        (self.int63() >> 31) as u32
    }

    /// Go's `Int31`: the top 31 of the 63 bits.
    pub fn int31(&mut self) -> i32 {
        (self.int63() >> 32) as i32
    }

    /// Go's `Int63n` (`n > 0`; other `n` give 0 instead of Go's panic).
    pub fn int63n(&mut self, n: i64) -> i64 {
        if n <= 0 {
            return 0;
        }
        if n & (n - 1) == 0 {
            return self.int63() & (n - 1);
        }
        let max = ((1u64 << 63) - 1 - (1u64 << 63) % n as u64) as i64;
        let mut v = self.int63();
        while v > max {
            v = self.int63();
        }
        v % n
    }

    /// Go's `Int31n` (`n > 0`; other `n` give 0 instead of Go's panic).
    pub fn int31n(&mut self, n: i32) -> i32 {
        if n <= 0 {
            return 0;
        }
        if n & (n - 1) == 0 {
            return self.int31() & (n - 1);
        }
        let max = ((1u32 << 31) - 1 - (1u32 << 31) % n as u32) as i32;
        let mut v = self.int31();
        while v > max {
            v = self.int31();
        }
        v % n
    }

    /// Go's unexported `int31n`: multiply-shift on `Uint32` with rejection of the biased
    /// low products. `Shuffle` uses this one, not `Int31n`.
    fn int31n_fast(&mut self, n: i32) -> i32 {
        let n = n.max(1) as u32;
        let mut prod = self.uint32() as u64 * n as u64;
        let mut low = prod as u32;
        if low < n {
            let thresh = n.wrapping_neg() % n;
            while low < thresh {
                prod = self.uint32() as u64 * n as u64;
                low = prod as u32;
            }
        }
        (prod >> 32) as i32
    }

    /// Go's `Intn` (`n > 0`; other `n` give 0 instead of Go's panic).
    pub fn intn(&mut self, n: usize) -> usize {
        if n == 0 {
            return 0;
        }
        if n <= i32::MAX as usize {
            self.int31n(n as i32) as usize
        } else {
            self.int63n(n.min(i64::MAX as usize) as i64) as usize
        }
    }

    /// Go's `Float64` in [0, 1): one `Int63` scaled by 2^−63, redrawn at 1.0.
    pub fn float64(&mut self) -> f64 {
        loop {
            let f = self.int63() as f64 / (1u64 << 63) as f64;
            if f < 1.0 {
                return f;
            }
        }
    }

    /// Go's `Shuffle(n, swap)`: Fisher–Yates from the end, `j` drawn with `int31n(i+1)`.
    pub fn shuffle<F: FnMut(usize, usize)>(&mut self, n: usize, mut swap: F) {
        let mut i = n.saturating_sub(1);
        while i > (i32::MAX - 1) as usize {
            let j = self.int63n(i as i64 + 1) as usize;
            swap(i, j);
            i -= 1;
        }
        while i > 0 {
            let j = self.int31n_fast(i as i32 + 1) as usize;
            swap(i, j);
            i -= 1;
        }
    }

    /// Go's `Perm(n)`: built forward, `j = Intn(i+1)`, `m[i] = m[j]`, `m[j] = i`.
    pub fn perm(&mut self, n: usize) -> Vec<usize> {
        let mut m = vec![0; n];
        for i in 0..n {
            let j = self.intn(i + 1);
            m[i] = m[j];
            m[j] = i;
        }
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_seed_one_first_value() {
        // Go's documented first value of the default-seeded (seed 1) global source.
        assert_eq!(GoRand::new(1).int63(), 5577006791947779410);
    }

    #[test]
    fn go_seed_42_first_int() {
        assert_eq!(GoRand::new(42).int(), 3440579354231278675);
    }

    #[test]
    fn seed_zero_is_the_documented_substitute() {
        let a = GoRand::new(0).int63();
        let b = GoRand::new(89_482_311).int63();
        assert_eq!(a, b);
    }

    #[test]
    fn perm_is_a_permutation() {
        let mut r = GoRand::new(7);
        let mut p = r.perm(100);
        p.sort_unstable();
        assert_eq!(p, (0..100).collect::<Vec<_>>());
    }

    #[test]
    fn bounded_draws_stay_in_range_and_bad_bounds_do_not_panic() {
        let mut r = GoRand::new(3);
        for n in [1usize, 2, 3, 7, 100, 8152, 1 << 20] {
            for _ in 0..200 {
                assert!(r.intn(n) < n);
            }
        }
        assert_eq!(r.intn(0), 0);
        assert_eq!(r.int31n(-5), 0);
        assert_eq!(r.int63n(0), 0);
        let f = r.float64();
        assert!((0.0..1.0).contains(&f));
    }
}
