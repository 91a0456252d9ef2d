//! The page's entry point (Trunk's `data-bin="smd-web"`). The solver is a module of its own
//! (`src/solver_main.rs`) that only the page's Web Workers load.

fn main() {
    smd_web::start();
}
