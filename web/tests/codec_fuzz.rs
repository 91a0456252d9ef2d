//! Native: the page's own decoders under the fuzzer's text mutations (crate smd-fuzz) — the
//! CSV import (docs/CSV.md) and the share link — never panic, answer in bounded time and
//! memory, and reject with a short message that says where (a row, a column, the link).
#![cfg(not(target_arch = "wasm32"))]

use smd_core::rng::Stream;
use smd_core::{generate, GenerateOptions};
use smd_web::codec::{jobs_from_csv, jobs_to_csv, parse_share_fragment, share_fragment};
use std::time::{Duration, Instant};

const INPUTS: u64 = 3000;

fn guarded<T>(label: &str, f: impl FnOnce() -> T) -> T {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f))
        .unwrap_or_else(|_| panic!("{label}: panicked"))
}

#[test]
fn csv_import_survives_mutations() {
    let (mut ok, mut rejected) = (0, 0);
    for i in 0..INPUTS {
        let mut rng = Stream::new(17, i);
        let s = generate(&GenerateOptions {
            jobs: rng.int(1, 5) as usize,
            seed: i,
            ..Default::default()
        });
        let (mut text, _) = jobs_to_csv(&s.jobs);
        let mut done = Vec::new();
        for _ in 0..rng.int(1, 3) {
            // Besides the shared text mutations, the CSV's own: a huge layer count.
            if rng.unit() < 0.15 {
                let big = ["1000000000000", "99999999", "-1", "1e9", "0"][rng.int(0, 4) as usize];
                let row = text.lines().nth(1).unwrap_or("").to_owned();
                let cells: Vec<&str> = row.split(',').collect();
                if cells.len() > 23 {
                    let mut c = cells.clone();
                    c[23] = big;
                    text = text.replacen(&row, &c.join(","), 1);
                }
                done.push("layers: huge");
            } else {
                done.push(smd_fuzz::mutate_text(&mut text, &mut rng));
            }
        }
        let label = format!("csv input {i} [{}]", done.join(", "));
        let t0 = Instant::now();
        match guarded(&label, || jobs_from_csv(&text)) {
            Ok(jobs) => {
                ok += 1;
                assert!(jobs
                    .iter()
                    .all(|j| j.layers.len() <= smd_web::codec::MAX_CSV_LAYERS));
            }
            Err(m) => {
                rejected += 1;
                assert!(!m.trim().is_empty(), "{label}: empty message");
                assert!(m.len() < 600, "{label}: a {}-byte message", m.len());
            }
        }
        assert!(
            t0.elapsed() < Duration::from_secs(5),
            "{label}: {:?}",
            t0.elapsed()
        );
    }
    assert!(ok > 100 && rejected > 100, "{ok} read, {rejected} rejected");
}

#[test]
fn share_links_survive_mutations() {
    let (mut ok, mut rejected) = (0, 0);
    for i in 0..INPUTS {
        let mut rng = Stream::new(23, i);
        // Either a damaged link, or an intact link to a damaged scenario text.
        let link = if rng.unit() < 0.5 {
            let s = generate(&GenerateOptions {
                jobs: rng.int(1, 4) as usize,
                seed: i,
                ..Default::default()
            });
            let mut f = share_fragment(&s);
            smd_fuzz::mutate_text(&mut f, &mut rng);
            f
        } else {
            let inp = smd_fuzz::input(29, i);
            let packed = miniz_oxide_deflate(inp.text.as_bytes());
            format!("s={packed}")
        };
        let label = format!("link input {i}");
        let t0 = Instant::now();
        match guarded(&label, || parse_share_fragment(&link)) {
            Ok(_) => ok += 1,
            Err(m) => {
                rejected += 1;
                assert!(!m.trim().is_empty(), "{label}: empty message");
                assert!(
                    m.len() < smd_fuzz::MAX_MESSAGE_BYTES,
                    "{label}: {} bytes: {}",
                    m.len(),
                    &m[..m.len().min(300)]
                );
            }
        }
        assert!(t0.elapsed() < Duration::from_secs(5), "{label}");
    }
    assert!(ok > 100 && rejected > 100, "{ok} read, {rejected} rejected");
}

/// A link's payload for arbitrary text, made the page's way (through a scenario it cannot
/// be, since the text may not parse): deflate + base64url, as `share_fragment` does.
fn miniz_oxide_deflate(bytes: &[u8]) -> String {
    smd_web::codec::pack(bytes)
}
