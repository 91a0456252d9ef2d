//! The solver's Web Worker (Trunk's `data-bin="smd-worker" data-type="worker"`).

fn main() {
    smd_web::solver::worker_main();
}
