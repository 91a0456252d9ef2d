//! The exact admission (docs/MODEL.md §8): branch and bound over the items with LP bounds,
//! for the `exact` policy and `params.outer = exact`. Split from `knapsack.rs`, whose
//! items, selection and LP relaxation it shares.

// Resource loops index several parallel [f64; R] arrays at once.
#![allow(clippy::needless_range_loop)]

use super::{add, eligible, fits_all, relax, Item, Selection};
use crate::error::Error;
use crate::kp_lp;
use crate::observe::{Event, NodeOutcome, Observer};

/// Default node limit of [`branch_and_bound`].
pub const NODE_LIMIT: u64 = 200_000;

/// When the exact search stops early.
#[derive(Clone, Copy, Default)]
pub struct Limits<'a> {
    /// Most nodes to expand.
    pub nodes: u64,
    /// Wall-clock budget in ms, measured with `clock`.
    pub time_ms: Option<f64>,
    /// A clock in ms (needed for `time_ms`).
    pub clock: Option<&'a dyn Fn() -> f64>,
}

/// Exact branch and bound with LP bounds; reports the gap if `node_limit` is hit.
#[cfg(test)]
pub fn branch_and_bound<const R: usize>(
    items: &[Item<R>],
    cap: &[f64; R],
    node_limit: u64,
) -> Result<Selection, Error> {
    branch_and_bound_with(
        items,
        cap,
        &Limits {
            nodes: node_limit,
            ..Limits::default()
        },
    )
}

/// Branch and bound: depth first, LP bound (the simplex of `kp_lp`) at every node,
/// reduced-cost fixing, branching on a fractional item of the LP, and an incumbent from
/// the LP's rounding plus a greedy fill. Stops at `limits`, reporting the gap. Heard by no
/// one (the planner calls [`branch_and_bound_observed`]).
#[cfg(any(test, feature = "internals"))]
pub fn branch_and_bound_with<const R: usize>(
    items: &[Item<R>],
    cap: &[f64; R],
    limits: &Limits,
) -> Result<Selection, Error> {
    branch_and_bound_observed(items, cap, limits, &mut crate::observe::Quiet)
}

/// [`branch_and_bound_with`], telling `obs` about every node it expands (docs/MODEL.md
/// §20); the selection is the same whatever the observer.
pub(crate) fn branch_and_bound_observed<const R: usize, O: Observer>(
    items: &[Item<R>],
    cap: &[f64; R],
    limits: &Limits,
    obs: &mut O,
) -> Result<Selection, Error> {
    let elig = eligible(items, cap);
    let search = BranchAndBound {
        items,
        cap,
        order: greedy_order(items, cap, &elig),
        elig,
    };
    let mut sel = Selection {
        chosen: vec![false; items.len()],
        value: 0.0,
        lp_solves: 0,
        guarantee: 0.0,
        proven_optimal: false,
        gap: None,
        nodes: 0,
    };
    let mut root = vec![0i8; items.len()];
    for &i in &search.elig {
        root[i] = FREE;
    }
    let mut stack = vec![Node {
        fixed: root,
        value: 0.0,
        used: [0.0; R],
        bound: f64::INFINITY,
    }];
    let start = limits.clock.map(|c| c());
    let out_of_time = || match (limits.time_ms, limits.clock, start) {
        (Some(ms), Some(c), Some(t0)) => c() - t0 > ms,
        _ => false,
    };
    while let Some(node) = stack.pop() {
        if node.bound <= sel.value + tol(sel.value) {
            continue;
        }
        // The root is always expanded: a spent budget still gets its LP rounding and fill.
        if sel.nodes >= limits.nodes || (sel.nodes > 0 && sel.nodes % 64 == 0 && out_of_time()) {
            stack.push(node);
            break;
        }
        sel.nodes += 1;
        search.expand(node, &mut sel, &mut stack, obs);
    }
    let open = stack.iter().map(|n| n.bound).fold(sel.value, f64::max);
    if open <= sel.value + tol(sel.value) {
        sel.proven_optimal = true;
        sel.guarantee = 1.0;
    } else {
        sel.gap = Some((open - sel.value) / open);
        sel.guarantee = sel.value / open;
    }
    Ok(sel)
}

/// An item's status on a branch-and-bound path: free, or fixed to 0 or 1.
const FREE: i8 = -1;

/// A bound within this of the incumbent `inc` cannot improve on it.
fn tol(inc: f64) -> f64 {
    1e-9 * inc.abs().max(1e-300)
}

/// A node of the branch and bound.
struct Node<const R: usize> {
    /// Per item: [`FREE`], 0 or 1.
    fixed: Vec<i8>,
    /// The value of the items fixed to 1.
    value: f64,
    /// Their demand.
    used: [f64; R],
    /// The LP bound of the node's parent (∞ at the root).
    bound: f64,
}

/// Eligible items in the greedy fill's order: value per unit of capacity-normalised demand,
/// descending (ties by index).
fn greedy_order<const R: usize>(items: &[Item<R>], cap: &[f64; R], elig: &[usize]) -> Vec<usize> {
    let weight = |i: usize| -> f64 {
        (0..R)
            .map(|r| {
                if cap[r] > 0.0 {
                    items[i].demand[r] / cap[r]
                } else {
                    0.0
                }
            })
            .sum::<f64>()
    };
    let mut order = elig.to_vec();
    order.sort_by(|&a, &b| {
        let ea = items[a].value / weight(a).max(1e-300);
        let eb = items[b].value / weight(b).max(1e-300);
        eb.total_cmp(&ea).then(a.cmp(&b))
    });
    order
}

/// One branch-and-bound search's fixed data.
struct BranchAndBound<'a, const R: usize> {
    items: &'a [Item<R>],
    cap: &'a [f64; R],
    /// Items worth admitting at all.
    elig: Vec<usize>,
    /// `elig` in the greedy fill's order.
    order: Vec<usize>,
}

impl<const R: usize> BranchAndBound<'_, R> {
    /// Tells `obs` how node number `sel.nodes` ended (its LP `bound`, if solved), with the
    /// incumbent and the best bound over the nodes still open.
    fn tell<O: Observer>(
        &self,
        obs: &mut O,
        node: &Node<R>,
        sel: &Selection,
        stack: &[Node<R>],
        bound: Option<f64>,
        outcome: NodeOutcome,
    ) {
        // A branched node's children stay open with its bound.
        let children = match (outcome, bound) {
            (NodeOutcome::Branched { .. }, Some(b)) => b,
            _ => sel.value,
        };
        let open = stack
            .iter()
            .map(|n| n.bound)
            .filter(|b| b.is_finite())
            .fold(sel.value.max(children), f64::max);
        obs.event(Event::Node {
            number: sel.nodes,
            ones: node.fixed.iter().filter(|&&f| f == 1).count(),
            zeros: self.elig.iter().filter(|&&i| node.fixed[i] == 0).count(),
            bound,
            incumbent: sel.value,
            open_bound: open,
            outcome,
        });
    }

    /// Expands a node: its LP bound, an incumbent from the LP, reduced-cost fixing, and its
    /// children on `stack` unless the node is pruned.
    fn expand<O: Observer>(
        &self,
        mut node: Node<R>,
        sel: &mut Selection,
        stack: &mut Vec<Node<R>>,
        obs: &mut O,
    ) {
        let (items, cap) = (self.items, self.cap);
        let rest: [f64; R] = std::array::from_fn(|r| cap[r] - node.used[r]);
        // Free items that no longer fit alone are fixed to 0.
        for &i in &self.elig {
            if node.fixed[i] == FREE && !fits_all(&items[i].demand, &rest) {
                node.fixed[i] = 0;
            }
        }
        let free: Vec<usize> = self
            .elig
            .iter()
            .copied()
            .filter(|&i| node.fixed[i] == FREE)
            .collect();
        if free.is_empty() {
            if node.value > sel.value {
                sel.value = node.value;
                sel.chosen = node.fixed.iter().map(|&f| f == 1).collect();
            }
            if O::LISTENS && obs.on() {
                self.tell(obs, &node, sel, stack, None, NodeOutcome::Leaf);
            }
            return;
        }
        let rel = relax(items, &free, &rest);
        sel.lp_solves += 1;
        let bound = node.value + rel.value;
        self.improve_incumbent(&node, &free, &rel.x, sel);
        if bound <= sel.value + tol(sel.value) {
            if O::LISTENS && obs.on() {
                self.tell(obs, &node, sel, stack, Some(bound), NodeOutcome::Pruned);
            }
            return;
        }
        let mut fixed = node.fixed.clone();
        let frac = self.fix_by_reduced_costs(&free, &rel, bound, sel.value, &mut fixed);
        // Items fixed to 1 by reduced costs join the node's value and use.
        let (mut nvalue, mut nused) = (node.value, node.used);
        for &i in &free {
            if fixed[i] == 1 {
                nvalue += items[i].value;
                add(&mut nused, &items[i].demand);
            }
        }
        if !fits_all(&nused, cap) {
            // Round-off in the fixing: drop this node rather than exceed capacity.
            if O::LISTENS && obs.on() {
                self.tell(obs, &node, sel, stack, Some(bound), NodeOutcome::Pruned);
            }
            return;
        }
        let branch = match frac {
            Some(i) => i,
            None => {
                // Integral LP: its point is optimal for this subtree (already the incumbent
                // if it fits); otherwise branch on the first free item.
                match free.iter().copied().find(|&i| fixed[i] == FREE) {
                    Some(i) if bound > sel.value + tol(sel.value) => i,
                    _ => {
                        if O::LISTENS && obs.on() {
                            self.tell(obs, &node, sel, stack, Some(bound), NodeOutcome::Integral);
                        }
                        return;
                    }
                }
            }
        };
        let node = Node {
            fixed,
            value: nvalue,
            used: nused,
            bound,
        };
        if O::LISTENS && obs.on() {
            let outcome = NodeOutcome::Branched { item: branch };
            self.tell(obs, &node, sel, stack, Some(bound), outcome);
        }
        self.push_children(node, branch, stack);
    }

    /// The incumbent from a node: the LP's integral part (`x` over `free`), then a greedy
    /// fill in `order`; it replaces the best if it is better.
    fn improve_incumbent(&self, node: &Node<R>, free: &[usize], x: &[f64], sel: &mut Selection) {
        let items = self.items;
        let mut used = node.used;
        let mut value = node.value;
        let mut take = node.fixed.clone();
        let integral = free
            .iter()
            .enumerate()
            .filter(|&(k, _)| x[k] >= 1.0 - 1e-9)
            .map(|(_, &i)| i);
        for i in integral.chain(self.order.iter().copied()) {
            if take[i] == FREE {
                let mut u = used;
                add(&mut u, &items[i].demand);
                if fits_all(&u, self.cap) {
                    used = u;
                    value += items[i].value;
                    take[i] = 1;
                }
            }
        }
        if value > sel.value {
            sel.value = value;
            sel.chosen = take.iter().map(|&f| f == 1).collect();
        }
    }

    /// Reduced-cost fixing: a variable at a bound whose move would cost more than the slack
    /// between the node's `bound` and the incumbent `best` stays there in this subtree (set
    /// in `fixed`). Returns the most valuable fractional item of the LP, to branch on.
    fn fix_by_reduced_costs(
        &self,
        free: &[usize],
        rel: &kp_lp::Relaxation,
        bound: f64,
        best: f64,
        fixed: &mut [i8],
    ) -> Option<usize> {
        let items = self.items;
        let y = &rel.dual;
        let mut frac: Option<(usize, f64)> = None;
        for (k, &i) in free.iter().enumerate() {
            let d = items[i].value - (0..R).map(|r| y[r] * items[i].demand[r]).sum::<f64>();
            let x = rel.x[k];
            if x <= 1e-9 && bound + d <= best + tol(best) {
                fixed[i] = 0;
            } else if x >= 1.0 - 1e-9 && bound - d <= best + tol(best) {
                fixed[i] = 1;
            } else if x > 1e-9 && x < 1.0 - 1e-9 {
                // Branch on the most valuable fractional item.
                if frac.is_none_or(|(_, v)| items[i].value > v) {
                    frac = Some((i, items[i].value));
                }
            }
        }
        frac.map(|(i, _)| i)
    }

    /// Branches `node` on item `branch`: the child with it at 0, then (searched first) the
    /// child with it at 1 if it fits.
    fn push_children(&self, node: Node<R>, branch: usize, stack: &mut Vec<Node<R>>) {
        let item = &self.items[branch];
        let mut u = node.used;
        add(&mut u, &item.demand);
        let one = fits_all(&u, self.cap).then(|| {
            let mut fixed = node.fixed.clone();
            fixed[branch] = 1;
            Node {
                fixed,
                value: node.value + item.value,
                used: u,
                bound: node.bound,
            }
        });
        let mut zero = node;
        zero.fixed[branch] = 0;
        stack.push(zero);
        stack.extend(one);
    }
}
