//! The page's entry point (Trunk's `data-bin="smd-web"`).

fn main() {
    smd_web::start();
}
