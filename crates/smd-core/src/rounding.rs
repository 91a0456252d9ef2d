//! docs/MODEL.md §7, Algorithm 2: randomized rounding of Algorithm 1's real point x̄ to an
//! integer allocation in Ω.

use crate::model::JobModel;
use crate::observe::{Event, Observer};
use crate::rng::Stream;
use crate::scenario::Rounding;

/// An integer allocation and how it was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Rounded {
    /// Workers.
    pub w: u64,
    /// Parameter servers.
    pub p: u64,
    /// Draws made (1 for best corner).
    pub attempts: u32,
    /// True if the cap was hit and ⌊x̃⌋ was taken.
    pub fallback: bool,
}

/// x̃ = 1 + (x̄ − 1)/M_δ: the relaxed point scaled toward the minimum allocation.
pub fn scaled(x: [f64; 2], m_delta: f64) -> [f64; 2] {
    x.map(|v| 1.0 + (v - 1.0) / m_delta)
}

/// Rounds x̄ with the chosen rule. `x̄` must be in Ω (then ⌊x̃⌋ is too). Heard by no one
/// (the planner calls [`round_observed`]).
#[cfg(test)]
pub fn round(
    model: &JobModel,
    x: [f64; 2],
    m_delta: f64,
    max_attempts: u32,
    rule: Rounding,
    rng: &mut Stream,
) -> Rounded {
    round_observed(
        model,
        x,
        m_delta,
        max_attempts,
        rule,
        rng,
        &mut crate::observe::Quiet,
    )
}

/// [`round`], telling `obs` about x̃, every draw (or corner) and the result (docs/MODEL.md
/// §20); the result and the stream's use are the same whatever the observer.
pub(crate) fn round_observed<O: Observer>(
    model: &JobModel,
    x: [f64; 2],
    m_delta: f64,
    max_attempts: u32,
    rule: Rounding,
    rng: &mut Stream,
    obs: &mut O,
) -> Rounded {
    let r = round_inner(model, x, m_delta, max_attempts, rule, rng, obs);
    if O::LISTENS && obs.on() {
        obs.event(Event::Rounded {
            w: r.w,
            p: r.p,
            attempts: r.attempts,
            fallback: r.fallback,
            omitted: 0,
        });
    }
    r
}

fn round_inner<O: Observer>(
    model: &JobModel,
    x: [f64; 2],
    m_delta: f64,
    max_attempts: u32,
    rule: Rounding,
    rng: &mut Stream,
    obs: &mut O,
) -> Rounded {
    let xt = scaled(x, m_delta);
    let fl = xt.map(f64::floor);
    if O::LISTENS && obs.on() {
        obs.event(Event::Scaled {
            x,
            m_delta,
            scaled: xt,
            rule,
        });
    }
    let floor = Rounded {
        w: fl[0] as u64,
        p: fl[1] as u64,
        attempts: max_attempts,
        fallback: true,
    };
    match rule {
        Rounding::Paper => {
            let frac = [xt[0] - fl[0], xt[1] - fl[1]];
            for attempt in 1..=max_attempts {
                // Draw both coordinates every time, so the stream's use does not depend on x̃.
                let coins = [rng.unit(), rng.unit()];
                let up = [coins[0] < frac[0], coins[1] < frac[1]];
                let w = fl[0] + f64::from(u8::from(up[0]));
                let p = fl[1] + f64::from(u8::from(up[1]));
                let inside = model.omega.contains(w, p);
                if O::LISTENS && obs.on() {
                    obs.event(Event::Draw {
                        attempt,
                        coins,
                        up,
                        w: w as u64,
                        p: p as u64,
                        inside,
                    });
                }
                if inside {
                    return Rounded {
                        w: w as u64,
                        p: p as u64,
                        attempts: attempt,
                        fallback: false,
                    };
                }
            }
            floor
        }
        Rounding::BestCorner => {
            let mut best: Option<(f64, f64, f64)> = None;
            for (dw, dp) in [(0.0, 0.0), (0.0, 1.0), (1.0, 0.0), (1.0, 1.0)] {
                let (w, p) = (fl[0] + dw, fl[1] + dp);
                let beyond = (dw > 0.0 && fl[0] == xt[0]) || (dp > 0.0 && fl[1] == xt[1]);
                let inside = !beyond && model.omega.contains(w, p);
                if O::LISTENS && obs.on() && !beyond {
                    obs.event(Event::Corner {
                        w: w as u64,
                        p: p as u64,
                        inside,
                        t: inside.then(|| model.t(w, p)),
                    });
                }
                if !inside {
                    continue;
                }
                let t = model.t(w, p);
                if best.is_none_or(|b| t < b.2) {
                    best = Some((w, p, t));
                }
            }
            match best {
                Some((w, p, _)) => Rounded {
                    w: w as u64,
                    p: p as u64,
                    attempts: 1,
                    fallback: false,
                },
                None => Rounded {
                    attempts: 1,
                    ..floor
                },
            }
        }
    }
}

#[cfg(test)]
mod tests;
