#!/usr/bin/env python3
"""The joint optimum `global` beside a general MIP solver (docs/BENCHMARKS.md §5).

Benchmark only: the planner never depends on this script, and CI installs nothing for it.
Needs `highspy` (pip install --user highspy) and numpy.

    scripts/bench-highs.py DIR [--only NAME] [--time-limit S] [--no-lp] [--json OUT]

DIR is what `cargo run --release -p smd-bench --bin joint -- --export DIR` wrote: one
`NAME.json` per instance (smd_core::joint_problem: capacity, jobs' options, complete) and
`planner.json` (the planner's rows: time, proven, total utility and its choice per job).

Each instance is solved with HiGHS as the 0/1 program

    max  Σ_ik utility_ik · x_ik
    s.t. Σ_k x_ik ≤ 1                                   per job i
         Σ_ik demand_ikr · x_ik ≤ capacity_r (+ 1e-9·max(capacity_r, 1))   per resource r
         x_ik ∈ {0, 1}

(the tolerance is the planner's own `fits`), mip_rel_gap 1e-9, feasibility tolerances 1e-9.
Only `Highs.run()` is timed (not reading JSON nor building the model); the LP relaxation is
solved and timed separately. The objectives are compared: where both are proven optimal they
must agree to 1e-9 relative, and a mismatch makes the script exit 1 (with the instance file).
Prints one Markdown table with the ratio HiGHS time / planner time ("LP gap" is the LP
relaxation's integrality gap, (LP − HiGHS's objective) / HiGHS's objective).
"""

import argparse
import json
import os
import sys
import time

import numpy as np

try:
    import highspy
except ImportError:  # pragma: no cover - benchmark only
    sys.exit("bench-highs.py needs highspy: pip install --user highspy")

TOL = 1e-9  # smd_core::omega::TOL, the planner's relative capacity tolerance
AGREE = 1e-9  # relative agreement required between proven objectives


def highs_version():
    """HiGHS's version; its banner (printed once, on stdout) is swallowed here."""
    sys.stdout.flush()
    saved, null = os.dup(1), os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    try:
        return highspy.Highs().version()
    finally:
        os.dup2(saved, 1)
        os.close(saved)
        os.close(null)


def build(problem, integer):
    """The model as a HighsLp (CSC), and the (job, option) of each column."""
    cap = problem["capacity"]
    jobs = problem["jobs"]
    n_jobs = len(jobs)
    n_res = len(cap)
    cols = [(i, k) for i, opts in enumerate(jobs) for k in range(len(opts))]
    n = len(cols)
    cost = np.empty(n)
    start = [0]
    index = []
    value = []
    for c, (i, k) in enumerate(cols):
        o = jobs[i][k]
        cost[c] = o["utility"]
        index.append(i)
        value.append(1.0)
        for r in range(n_res):
            if o["demand"][r] != 0.0:
                index.append(n_jobs + r)
                value.append(o["demand"][r])
        start.append(len(index))
    lp = highspy.HighsLp()
    lp.num_col_ = n
    lp.num_row_ = n_jobs + n_res
    lp.sense_ = highspy.ObjSense.kMaximize
    lp.col_cost_ = cost
    lp.col_lower_ = np.zeros(n)
    lp.col_upper_ = np.ones(n)
    lp.row_lower_ = np.full(n_jobs + n_res, -highspy.kHighsInf)
    lp.row_upper_ = np.array([1.0] * n_jobs + [c + TOL * max(abs(c), 1.0) for c in cap])
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_ = np.array(start, dtype=np.int32)
    lp.a_matrix_.index_ = np.array(index, dtype=np.int32)
    lp.a_matrix_.value_ = np.array(value)
    if integer:
        lp.integrality_ = [highspy.HighsVarType.kInteger] * n
    return lp, cols


def solve(problem, integer, time_limit):
    """(status, objective, bound, seconds of run(), x, cols, nodes) of the MIP or its LP."""
    lp, cols = build(problem, integer)
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("mip_rel_gap", 1e-9)
    h.setOptionValue("mip_abs_gap", 1e-9)
    h.setOptionValue("mip_feasibility_tolerance", 1e-9)
    h.setOptionValue("primal_feasibility_tolerance", 1e-9)
    h.setOptionValue("time_limit", float(time_limit))
    h.passModel(lp)
    t0 = time.perf_counter()
    h.run()
    seconds = time.perf_counter() - t0
    status = h.modelStatusToString(h.getModelStatus())
    info = h.getInfo()
    objective = info.objective_function_value
    bound = info.mip_dual_bound if integer else objective
    x = np.array(h.getSolution().col_value) if len(cols) else np.zeros(0)
    nodes = info.mip_node_count if integer else 0
    return status, objective, bound, seconds, x, cols, nodes


def check(problem, picks):
    """Value of a choice {job: option index} and whether it fits (the planner's tolerance)."""
    cap = problem["capacity"]
    used = [0.0] * len(cap)
    value = 0.0
    for i, k in picks.items():
        o = problem["jobs"][i][k]
        value += o["utility"]
        for r in range(len(cap)):
            used[r] += o["demand"][r]
    fits = all(used[r] <= cap[r] + TOL * max(abs(cap[r]), 1.0) for r in range(len(cap)))
    return value, fits


def planner_picks(problem, chosen):
    """The planner's choice as option indices; None if an allocation is not among the options."""
    picks = {}
    for i, wp in enumerate(chosen):
        if wp is None:
            continue
        ks = [
            k
            for k, o in enumerate(problem["jobs"][i])
            if o["workers"] == wp[0] and o["ps"] == wp[1]
        ]
        if not ks:
            return None
        picks[i] = ks[0]
    return picks


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--only", default="", help="instances whose name contains this")
    ap.add_argument("--time-limit", type=float, default=600.0, help="HiGHS limit per instance, s")
    ap.add_argument("--no-lp", action="store_true", help="skip the LP relaxation")
    ap.add_argument("--json", help="also write the rows here")
    args = ap.parse_args()

    with open(os.path.join(args.dir, "planner.json")) as f:
        planner = json.load(f)
    print(f"HiGHS {highs_version()}, time limit {args.time_limit:g} s", file=sys.stderr)
    print(
        "| instance | planner ms | proven | planner utility | HiGHS ms | HiGHS status "
        "| HiGHS objective | rel. diff | HiGHS nodes | HiGHS LP ms | LP gap | HiGHS / planner |"
    )
    print("|---|---:|---|---:|---:|---|---:|---:|---:|---:|---:|---:|")
    out = []
    bad = []
    for row in planner:
        if args.only not in row["name"]:
            continue
        path = os.path.join(args.dir, row["file"])
        with open(path) as f:
            problem = json.load(f)
        status, obj, bound, sec, x, cols, nodes = solve(problem, True, args.time_limit)
        lp_sec = lp_obj = None
        if not args.no_lp:
            _, lp_obj, _, lp_sec, _, _, _ = solve(problem, False, args.time_limit)
        highs_picks = {cols[c][0]: cols[c][1] for c in np.flatnonzero(x > 0.5)}
        h_value, h_fits = check(problem, highs_picks)
        p_picks = planner_picks(problem, row["chosen"])
        p_value, p_fits = check(problem, p_picks) if p_picks is not None else (None, False)
        u = row["utility"]
        diff = (h_value - u) / max(abs(u), 1.0)
        optimal = status == "Optimal"
        notes = []
        if not h_fits:
            notes.append("HiGHS's choice exceeds the capacity")
        if p_picks is None:
            notes.append("the planner's allocation is not among the exported options")
        elif not p_fits:
            notes.append("the planner's choice exceeds the capacity")
        elif abs(p_value - u) > AGREE * max(abs(u), 1.0):
            notes.append(f"the planner's choice is worth {p_value!r} in the export, plan says {u!r}")
        if not problem["complete"]:
            notes.append("the export is thinned (not the whole problem)")
        if optimal and row["proven"] and abs(diff) > AGREE and problem["complete"]:
            notes.append(f"OBJECTIVE MISMATCH: HiGHS {h_value!r} vs planner {u!r}")
        if optimal and not row["proven"] and diff < -AGREE:
            notes.append("HiGHS's proven optimum is below the planner's plan")
        if notes:
            bad.append((path, notes))
        ratio = sec * 1000.0 / row["ms"] if row["ms"] > 0 else float("inf")
        print(
            f"| {row['name']} | {row['ms']:.1f} | {'yes' if row['proven'] else 'no'} | {u:.6f} "
            f"| {sec * 1000:.1f} | {status} | {h_value:.6f} | {diff:.1e} | {nodes} "
            f"| {'–' if lp_sec is None else f'{lp_sec * 1000:.1f}'} "
            f"| {'–' if lp_obj is None else f'{(lp_obj - h_value) / max(abs(h_value), 1.0):.1e}'} "
            f"| {ratio:.2f} |",
            flush=True,
        )
        out.append(
            dict(
                name=row["name"],
                file=path,
                planner_ms=row["ms"],
                planner_proven=row["proven"],
                planner_utility=u,
                highs_ms=sec * 1000.0,
                highs_status=status,
                highs_objective=h_value,
                highs_reported_objective=obj,
                highs_bound=bound,
                highs_nodes=nodes,
                highs_lp_ms=None if lp_sec is None else lp_sec * 1000.0,
                highs_lp_objective=lp_obj,
                columns=len(cols),
                rel_diff=diff,
                ratio=ratio,
                notes=notes,
            )
        )
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    for path, notes in bad:
        print(f"\n{path}: " + "; ".join(notes), file=sys.stderr)
    if any("MISMATCH" in n or "exceeds" in n or "below" in n or "worth" in n or "not among" in n
           for _, notes in bad for n in notes):
        sys.exit(1)


if __name__ == "__main__":
    main()
