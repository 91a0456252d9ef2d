//! Words and symbols in plain language (issue 27): the glossary every view offers from its
//! bar, and a "?" beside a term where a view uses it. The symbols are docs/MODEL.md's.

use yew::prelude::*;

/// Each term and what it means, in the order a reader meets them.
pub const GLOSSARY: [(&str, &str); 25] = [
    ("JCT", "Job completion time: from a job's arrival to its finish, waiting included."),
    ("p95 JCT", "The 95th percentile of the JCTs: 95 % of the jobs finish within it."),
    ("queueing", "A job's wait from its arrival to its first start."),
    ("GPU-hours", "GPUs held × hours held, summed over the run: what the cluster spent."),
    ("cost", "What renting the cluster costs until the last job finishes: each machine group's count × its hourly price (hourly_usd; catalog types carry their cloud's on-demand price, the on-premises ones none: give it in the file) × the run's length. Lower is better, but more machines cost more per hour: the answer is the cheapest size."),
    ("utility", "How much a job's plan is worth, μ(π) = γ1 / (1 + exp(γ2 (π − γ3))): high while the job finishes in time, falling steeply after, like a deadline. It has no unit; total utility is the sum over the admitted jobs, each worth at most its γ1."),
    ("w, p", "A job's workers and parameter servers (PS); an all-reduce job has workers only."),
    ("T, π", "T(w, p): a job's completion time with w workers and p PS (docs/MODEL.md §2); π is T in the planner's time unit."),
    ("Ω", "A job's region: the (w, p) with w, p ≥ 1 that fit its limit ϑ · instance."),
    ("ϑ", "A job's limit in instances: it may use at most ϑ times the instance in every resource."),
    ("γ1, γ2, γ3", "The utility's shape: γ1 its height (the job's worth), γ2 how steeply it falls, γ3 the π at which it is worth half."),
    ("ε", "Algorithm 1's grid step: SMD finds T within (1 + ε) of a job's fastest allocation. Smaller is more exact and slower."),
    ("M_δ", "Algorithm 2's rounding damping: x̄ is rounded from 1 + (x̄ − 1)/M_δ, M_δ ≥ 1."),
    ("q, outer depth", "The depth of the Frieze–Clarke admission: it guarantees q/(q + 4) of the best knapsack; 0 … 3."),
    ("Frieze–Clarke", "An approximation scheme for the multi-dimensional knapsack that admits jobs: try every set of up to q jobs, fill the rest by an LP."),
    ("rounding, polish", "How SMD turns its fractional allocation into whole workers and PS (random, as the paper, or the best corner); polish replaces p̄ by the exact best p first."),
    ("seed", "The seed of the random rounding: the same seed gives the same plan, here and natively."),
    ("global", "The joint optimum: every job's size and the admitted set chosen together; proven optimal or within the gap shown."),
    ("bound", "An upper bound on any policy's total utility: no plan (or, over time, no schedule) can be worth more."),
    ("knee", "The smallest cluster size at which the best policy reaches 95 % of the utility it has at the largest size swept: more capacity adds little after it."),
    ("ρ", "A placement's locality factor (docs/MODEL.md §14): it scales T's communication term — 1 when no worker shares a machine with a PS of its job, β = B / local_gbps with every task on one machine (below 1 where a machine moves data faster than the network)."),
    ("cluster unit, instance", "A pool's capacity is units × cluster unit; the instance is the size a job's limit ϑ counts in (one machine when the cluster is catalog machines)."),
    ("slot length Δ", "How often the policies decide over time: every Δ seconds each arrived job's allocation is chosen again."),
    ("restart time", "Seconds without progress when a job starts or its allocation or machines change."),
    ("admitted", "Given resources in this plan; a job not admitted waits (over time) or is left out (in one plan)."),
];

/// What `term` means, if the glossary has it.
pub fn meaning(term: &str) -> Option<&'static str> {
    GLOSSARY.iter().find(|(t, _)| *t == term).map(|(_, m)| *m)
}

/// The whole glossary behind a button (a disclosure: keyboard and screen readers work).
#[function_component]
pub fn Glossary() -> Html {
    html! {
        <details class="glossary" data-testid="glossary">
            <summary>{"Glossary"}</summary>
            <dl tabindex="0" aria-label="Glossary">
                { for GLOSSARY.iter().map(|(t, m)| html! { <><dt>{ *t }</dt><dd>{ *m }</dd></> }) }
            </dl>
        </details>
    }
}

/// What [`Term`] explains.
#[derive(Properties, PartialEq)]
pub struct TermProps {
    /// The glossary's term.
    pub term: AttrValue,
}

/// A "?" beside a term: its meaning on demand.
#[function_component]
pub fn Term(p: &TermProps) -> Html {
    let Some(m) = meaning(&p.term) else {
        return html! {};
    };
    html! {
        <details class="term" data-term={p.term.clone()}>
            <summary aria-label={format!("What is {}?", p.term)}>{"?"}</summary>
            <span class="meaning" role="note">{ m }</span>
        </details>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_terms_the_issue_names_are_explained_once() {
        for t in [
            "ε",
            "M_δ",
            "q, outer depth",
            "Frieze–Clarke",
            "ϑ",
            "γ1, γ2, γ3",
            "bound",
            "knee",
            "ρ",
            "utility",
            "cluster unit, instance",
            "slot length Δ",
        ] {
            assert!(meaning(t).is_some(), "{t}");
        }
        for (i, (a, _)) in GLOSSARY.iter().enumerate() {
            assert!(GLOSSARY[i + 1..].iter().all(|(b, _)| b != a), "{a} twice");
        }
    }
}
