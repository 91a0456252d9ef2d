//! Carrying a [`Landscape`] from the worker to the page.
//!
//! `smd_core::Landscape` (and its `Search`, `Summand`, `Chosen`) derive `Serialize` but not
//! `Deserialize`, so the page reads the worker's JSON into these mirrors and rebuilds the
//! core types from their public fields. Delete this module once smd-core derives
//! `Deserialize` for them.

use serde::Deserialize;
use smd_core::inner::{Search, Summand};
use smd_core::landscape::{Chosen, Landscape};

#[derive(Deserialize)]
struct SummandW {
    name: String,
    lower: f64,
    upper: f64,
    dropped: bool,
    grid_size: Option<u64>,
}

#[derive(Deserialize)]
struct SearchW {
    constant: f64,
    summands: Vec<SummandW>,
    free: Option<usize>,
    winning_nu: Vec<Option<f64>>,
    epsilon: f64,
}

#[derive(Deserialize)]
struct ChosenW {
    policy: String,
    w: f64,
    p: f64,
    t: f64,
    admitted: bool,
}

#[derive(Deserialize)]
struct LandscapeW {
    id: String,
    w: Vec<f64>,
    p: Vec<f64>,
    t: Vec<Vec<f64>>,
    pi: Vec<Vec<f64>>,
    mu: Vec<Vec<f64>>,
    inside: Vec<Vec<bool>>,
    omega: Vec<[f64; 2]>,
    integer_optimum: Option<(u64, u64, f64)>,
    relaxed: Option<([f64; 2], f64)>,
    search: Option<SearchW>,
    chosen: Vec<ChosenW>,
}

/// The landscape as JSON (what the worker posts).
pub fn landscape_to_json(l: &Landscape) -> String {
    serde_json::to_string(l).expect("a landscape always serialises")
}

/// The landscape back from the worker's JSON.
pub fn landscape_from_json(text: &str) -> Result<Landscape, String> {
    let l: LandscapeW = serde_json::from_str(text).map_err(|e| e.to_string())?;
    Ok(Landscape {
        id: l.id,
        w: l.w,
        p: l.p,
        t: l.t,
        pi: l.pi,
        mu: l.mu,
        inside: l.inside,
        omega: l.omega,
        integer_optimum: l.integer_optimum,
        relaxed: l.relaxed,
        search: l.search.map(|s| Search {
            constant: s.constant,
            summands: s
                .summands
                .into_iter()
                .map(|m| Summand {
                    name: m.name,
                    lower: m.lower,
                    upper: m.upper,
                    dropped: m.dropped,
                    grid_size: m.grid_size,
                })
                .collect(),
            free: s.free,
            winning_nu: s.winning_nu,
            epsilon: s.epsilon,
        }),
        chosen: l
            .chosen
            .into_iter()
            .map(|c| Chosen {
                policy: c.policy,
                w: c.w,
                p: c.p,
                t: c.t,
                admitted: c.admitted,
            })
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use smd_core::{generate, GenerateOptions};

    #[test]
    fn a_landscape_survives_the_trip() {
        let mut s = generate(&GenerateOptions {
            jobs: 2,
            ..Default::default()
        });
        s.params.epsilon = 0.3;
        let plans = vec![smd_core::plan(&s, smd_core::Policy::Exact).unwrap()];
        let l = smd_core::landscape(&s, 0, 12, &plans).unwrap();
        assert_eq!(landscape_from_json(&landscape_to_json(&l)).unwrap(), l);
    }
}
