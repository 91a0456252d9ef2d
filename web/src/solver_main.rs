//! The solver's entry point (Trunk's `data-bin="smd-solver"`, a worker module): the page's
//! Web Workers run it (web/solver-worker.js), and the page itself never loads it.

fn main() {
    smd_web::solver::worker_main();
}
