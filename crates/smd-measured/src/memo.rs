//! A bounded memo of a pure function, shared by the process: what the measured job model
//! computes again and again — the same job's curve at every slot, the same placement's
//! step, a learner's fit of the same profile — is remembered by its inputs' bits. A value
//! remembered is the value computed, so a result never depends on what was remembered;
//! only its time does. The memo is cleared whole when it reaches its limit (a cache, not a
//! record), which bounds its memory; a poisoned lock only costs the memo.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::sync::{Mutex, OnceLock};

/// A multiply-rotate hash of the words written (the keys are bits of numbers the process
/// made, never an adversary's): a memo's look-up is on the hot path of a simulation, where
/// the standard library's SipHash cost more than some of what it remembers.
#[derive(Default)]
struct WordHasher(u64);

impl Hasher for WordHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    fn write_u64(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x517c_c1b7_2722_0a95);
    }

    fn write_u8(&mut self, n: u8) {
        self.write_u64(u64::from(n));
    }

    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// Values of `V` by key `K`, at most `limit` of them.
pub struct Memo<K, V> {
    map: OnceLock<Mutex<HashMap<K, V, BuildHasherDefault<WordHasher>>>>,
    limit: usize,
}

impl<K: Hash + Eq, V: Clone> Memo<K, V> {
    /// An empty memo of at most `limit` values (for a `static`).
    pub const fn new(limit: usize) -> Memo<K, V> {
        Memo {
            map: OnceLock::new(),
            limit,
        }
    }

    /// The value of `key`: remembered, else `make`'s, remembered.
    pub fn get_or(&self, key: K, make: impl FnOnce() -> V) -> V {
        let Ok(v) = self.get_or_try(key, || Ok::<V, std::convert::Infallible>(make()));
        v
    }

    /// The value of `key`: remembered, else `make`'s, remembered when it is `Ok` (an
    /// error is computed again next time).
    pub fn get_or_try<E>(&self, key: K, make: impl FnOnce() -> Result<V, E>) -> Result<V, E> {
        let map = self.map.get_or_init(Default::default);
        if let Some(hit) = map.lock().ok().and_then(|m| m.get(&key).cloned()) {
            return Ok(hit);
        }
        let made = make()?;
        if let Ok(mut m) = map.lock() {
            if m.len() >= self.limit {
                m.clear();
            }
            m.insert(key, made.clone());
        }
        Ok(made)
    }

    /// How many values it holds.
    pub fn len(&self) -> usize {
        self.map
            .get()
            .and_then(|m| m.lock().ok().map(|m| m.len()))
            .unwrap_or(0)
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    /// A value is made once while remembered, an error every time, and the memo never
    /// holds more than its limit (cleared whole when full: the next key starts it again).
    #[test]
    fn remembers_values_not_errors_within_its_limit() {
        let memo: Memo<u32, u32> = Memo::new(3);
        let calls = Cell::new(0);
        let square = |k: u32| {
            calls.set(calls.get() + 1);
            k * k
        };
        assert_eq!(memo.get_or(2, || square(2)), 4);
        assert_eq!(memo.get_or(2, || square(2)), 4);
        assert_eq!(calls.get(), 1);
        assert_eq!(memo.get_or_try(7, || Err::<u32, &str>("no")), Err("no"));
        assert_eq!(memo.get_or_try(7, || Ok::<u32, &str>(8)), Ok(8));
        assert_eq!(memo.len(), 2);
        memo.get_or(3, || square(3));
        assert_eq!(memo.len(), 3);
        assert_eq!(memo.get_or(4, || square(4)), 16);
        assert_eq!(memo.len(), 1, "cleared when full, then the new value");
        assert_eq!(memo.get_or(2, || square(2)), 4);
        assert_eq!(calls.get(), 4);
    }
}
