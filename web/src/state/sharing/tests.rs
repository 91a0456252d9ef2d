//! The "GPU sharing" part of the state.

use super::*;
use crate::state::tests::state;
use crate::state::{Action, View};
use yew::Reducible;

fn bundled() -> Rc<Bundled> {
    Rc::new(Bundled {
        nodes: "sn,cpu_milli,memory_mib,gpu,model\nn1,32000,131072,2,V100M16\n".into(),
        pods: "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec\np1,1000,1024,1,500,\n".into(),
        published: ["a".into(), "b".into(), "c".into()],
    })
}

/// Seeds read as a range (any dash) or a list; bad ones say what is wrong.
#[test]
fn seeds_read_as_ranges_or_lists() {
    assert_eq!(parse_seeds("42–44").unwrap(), vec![42, 43, 44]);
    assert_eq!(parse_seeds("42-44").unwrap(), vec![42, 43, 44]);
    assert_eq!(parse_seeds("42:43").unwrap(), vec![42, 43]);
    assert_eq!(parse_seeds("42, 47").unwrap(), vec![42, 47]);
    assert_eq!(parse_seeds("-3").unwrap(), vec![-3]);
    assert!(parse_seeds("44–42").is_err());
    assert!(parse_seeds("x").is_err());
    assert!(parse_seeds("1–5000").is_err());
    // Any i64 ends: no overflow, an error.
    assert!(parse_seeds("-9223372036854775808:9223372036854775807").is_err());
    assert_eq!(
        parse_seeds("9223372036854775807:9223372036854775807").unwrap(),
        vec![i64::MAX]
    );
}

/// Run before the bundled lists came: it waits, then starts when they come, with the
/// published tables at target 1.3 and seeds in 42–51; Cancel stops it.
#[test]
fn a_run_waits_for_the_bundled_lists_then_starts_and_cancels() {
    let s = state(1).reduce(Action::View(crate::state::ViewAction::Show(View::Sharing)));
    let s = s.reduce(Action::Sharing(SharingAction::Start));
    assert!(s.sharing.start_when_fetched && !s.sharing.run.is_running());
    let s = s.reduce(Action::Sharing(SharingAction::Fetched(Ok(bundled()))));
    let r = s.sharing.run.running.as_ref().expect("started");
    assert_eq!(r.request.task.seeds, (42..=51).collect::<Vec<_>>());
    assert!(r.request.task.published.is_some());
    assert_eq!(r.request.task.policies.len(), Policy::ALL.len());
    assert!(s.tasks().contains(&r.id));
    let s = s.reduce(Action::Sharing(SharingAction::Cancel));
    assert!(!s.sharing.run.is_running());
    assert!(!s.sharing.start_when_fetched);
}

/// Another target or a seed outside 42–51 is not compared with the published tables.
#[test]
fn only_the_published_settings_are_compared() {
    let mut st = (*state(1)).clone();
    st.sharing.bundled = Some(bundled());
    st.sharing.form.target = "1.2".into();
    let compared = |st: &State| {
        st.sharing
            .study()
            .unwrap()
            .unwrap()
            .task
            .published
            .is_some()
    };
    assert!(!compared(&st));
    st.sharing.form.target = "1.3".into();
    st.sharing.form.seeds = "50–52".into();
    assert!(!compared(&st));
    st.sharing.form.seeds = "".into();
    assert_eq!(st.sharing.study().unwrap_err().0, "seeds");
    st.sharing.form.seeds = "42".into();
    st.sharing.form.policies.clear();
    assert_eq!(st.sharing.study().unwrap_err().0, "policies");
}

/// A bad file keeps the previous list and names the file, row and column; a good one is
/// taken and is not compared with the published tables.
#[test]
fn a_bad_file_keeps_the_previous_list() {
    let mut sh = SharingState {
        bundled: Some(bundled()),
        ..SharingState::default()
    };
    sh.choose("nodes", "good.csv".into(), bundled().nodes.clone());
    assert_eq!(sh.nodes.as_ref().unwrap().name, "good.csv");
    sh.choose(
        "nodes",
        "bad.csv".into(),
        "sn,cpu_milli,memory_mib,gpu,model\nn1,x,131072,2,V100M16\n".into(),
    );
    let e = sh.file_error.clone().unwrap();
    assert!(
        e.starts_with("bad.csv: ") && e.contains("row") && e.contains("cpu_milli"),
        "{e}"
    );
    assert_eq!(sh.nodes.as_ref().unwrap().name, "good.csv");
    assert!(sh.study().unwrap().unwrap().task.published.is_none());
}

/// The study runs in the worker (through JSON, as the page gets it): every policy's mean
/// and the bound come back, and the map of a moment has a square per GPU.
#[test]
fn the_worker_runs_the_study_and_draws_the_map() {
    use crate::solver::{worker, Reply, Request};
    let perform = |task: Task| {
        let mut out = None;
        worker::handle(Request { id: 1, task }, &mut |r| {
            let text = serde_json::to_string(&r).unwrap();
            if let Reply::Event {
                event: Event::Done { output, .. },
                ..
            } = serde_json::from_str::<Reply>(&text).unwrap()
            {
                out = Some(output);
            }
        });
        out.expect("done")
    };
    let mut st = (*state(1)).clone();
    st.sharing.bundled = Some(Rc::new(Bundled {
        nodes: "sn,cpu_milli,memory_mib,gpu,model\nn1,32000,131072,2,V100M16\nn2,32000,131072,1,T4\n"
            .into(),
        pods: "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec\np1,1000,1024,1,500,\np2,1000,1024,1,1000,\np3,1000,1024,1,250,\n"
            .into(),
        published: ["".into(), "".into(), "".into()],
    }));
    st.sharing.form.seeds = "42–43".into();
    st.sharing.form.target = "1.2".into();
    let study = st.sharing.study().unwrap().unwrap();
    let Output::Fgd(out) = perform(study.task()) else {
        panic!("not a study")
    };
    assert_eq!(out.policies.len(), Policy::ALL.len());
    assert!(out
        .policies
        .iter()
        .all(|p| !p.points.is_empty() && p.verdict.is_none()));
    assert!(!out.bound.is_empty());
    assert_eq!((out.gpus, out.nodes, out.pods), (3, 2, 3));
    let map = Mapping {
        task: study.task.clone(),
        policy: Policy::Fgd,
        seed: 42,
        x: 100,
    };
    let Output::FgdMap(m) = perform(map.task()) else {
        panic!("not a map")
    };
    let gpus: usize = m.groups.iter().flat_map(|g| g.1.iter()).map(Vec::len).sum();
    assert_eq!(gpus, 3);
    assert_eq!(m.groups[0].0, "V100M16");
}
