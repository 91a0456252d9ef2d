//! The page's entry point (Trunk's `data-bin="smd-web"`). The same module runs the solver in
//! the page's Web Workers (web/solver-worker.js), where `main` starts the worker's loop.

fn main() {
    if smd_web::solver::in_worker() {
        smd_web::solver::worker_main();
    } else {
        smd_web::start();
    }
}
