use super::*;
use crate::codec::Draft;
use crate::state::tests::state;
use crate::state::Action;
use crate::state::{AppsAction, DraftAction};
use smd_apps::preset::{measured, preset, MeasuredOptions, PresetOptions};
use std::rc::Rc;
use yew::Reducible;

#[test]
fn a_preset_job_is_added_with_a_unique_id_and_fills_a_job() {
    let s = state(2);
    assert_eq!(
        s.draft.preset.architecture,
        Architecture::Allreduce,
        "the default"
    );
    let s = s.reduce(Action::Apps(AppsAction::PresetField(
        "architecture",
        "ps".into(),
    )));
    let s = s.reduce(Action::Apps(AppsAction::PresetField("app", "bert".into())));
    assert_eq!(s.draft.preset.batch, "12", "the initial batch");
    let s = s.reduce(Action::Apps(AppsAction::PresetField("batch", "384".into())));
    let s = s.reduce(Action::Apps(AppsAction::AddFromApp));
    let s = s.reduce(Action::Apps(AppsAction::AddFromApp));
    let jobs = &s.draft.scenario.jobs;
    assert_eq!(jobs.len(), 4);
    let mut want = preset(App::Bert, &PresetOptions::batch(384.0)).unwrap();
    assert_eq!(jobs[2], want);
    want.id = "bert-384-2".into();
    assert_eq!(jobs[3], want);
    assert_eq!(s.view.selected, Some(s.draft.uids[3]));
    assert!(s.draft.valid, "{:?}", s.draft.errors);
    // Fill the first job; its arrival stays; undo brings the job back.
    let mut sc = (*s.draft.scenario).clone();
    sc.version = 2;
    sc.jobs[0].arrival_s = Some(5.0);
    let s = s.reduce(Action::Draft(DraftAction::Load(Box::new(sc), "".into())));
    let before = s.draft.scenario.jobs[0].clone();
    let u = s.draft.uids[0];
    let s = s.reduce(Action::Apps(AppsAction::PresetField("app", "ncf".into())));
    let s = s.reduce(Action::Apps(AppsAction::FillFromApp(u)));
    let j = &s.draft.scenario.jobs[0];
    let mut want = preset(App::Ncf, &PresetOptions::batch(256.0)).unwrap();
    want.arrival_s = Some(5.0);
    assert_eq!(*j, want);
    let s = s.reduce(Action::Apps(AppsAction::Undo));
    assert_eq!(s.draft.scenario.jobs[0], before);
    assert!(s.draft.undo.is_none());
}

#[test]
fn a_measured_job_is_the_default_with_the_batch_the_planners_choice() {
    let s = state(1);
    let s = s.reduce(Action::Apps(AppsAction::PresetField("app", "bert".into())));
    assert_eq!(s.draft.preset.batch, "", "the planner's choice");
    let s = s.reduce(Action::Apps(AppsAction::AddFromApp));
    let s = s.reduce(Action::Apps(AppsAction::PresetField("batch", "96".into())));
    let s = s.reduce(Action::Apps(AppsAction::PresetField(
        "max_workers",
        "4".into(),
    )));
    let s = s.reduce(Action::Apps(AppsAction::AddFromApp));
    let jobs = &s.draft.scenario.jobs;
    assert_eq!(jobs.len(), 3);
    let want = measured(
        App::Bert,
        &MeasuredOptions {
            id: Some("bert".into()),
            ..MeasuredOptions::default()
        },
    )
    .unwrap();
    assert_eq!(jobs[1], want);
    let want = measured(
        App::Bert,
        &MeasuredOptions {
            id: Some("bert-96".into()),
            batch_size: Some(96.0),
            max_workers: Some(4.0),
        },
    )
    .unwrap();
    assert_eq!(jobs[2], want);
    assert!(s.draft.valid, "{:?}", s.draft.errors);
    // A bad number stays at its field.
    let s = s.reduce(Action::Apps(AppsAction::PresetField(
        "max_workers",
        "x".into(),
    )));
    let s = s.reduce(Action::Apps(AppsAction::AddFromApp));
    assert_eq!(s.draft.preset.error.as_ref().unwrap().0, "max_workers");
    assert_eq!(s.draft.scenario.jobs.len(), 3);
}

#[test]
fn a_preset_error_stays_at_its_field_and_changes_nothing() {
    let s = state(1);
    let s = s.reduce(Action::Apps(AppsAction::PresetField(
        "batch",
        "99999".into(),
    )));
    let edits = s.draft.edits;
    let s = s.reduce(Action::Apps(AppsAction::AddFromApp));
    let (field, message) = s.draft.preset.error.clone().unwrap();
    assert_eq!(field, "batch");
    assert!(message.contains("between 128 and 4096"), "{message}");
    assert_eq!(s.draft.preset.batch, "99999");
    assert_eq!(s.draft.scenario.jobs.len(), 1);
    assert_eq!(s.draft.edits, edits);
    let s = s.reduce(Action::Apps(AppsAction::PresetField(
        "architecture",
        "ps".into(),
    )));
    let s = s.reduce(Action::Apps(AppsAction::PresetField("batch", "256".into())));
    let s = s.reduce(Action::Apps(AppsAction::PresetField(
        "minibatch",
        "x".into(),
    )));
    let s = s.reduce(Action::Apps(AppsAction::AddFromApp));
    assert_eq!(s.draft.preset.error.as_ref().unwrap().0, "minibatch");
}

#[test]
fn machines_set_the_cluster_and_are_recognised() {
    let s = state(1);
    assert!(machines_in_force(&s.draft.scenario.cluster).is_none());
    let s = s.reduce(Action::Draft(DraftAction::Edit(
        FieldKey::top("cluster.unit.gpu"),
        "x".into(),
    )));
    let s = s.reduce(Action::Apps(AppsAction::MachinesField(
        "type",
        "a100x8".into(),
    )));
    let s = s.reduce(Action::Apps(AppsAction::MachinesField("count", "3".into())));
    let s = s.reduce(Action::Apps(AppsAction::SetMachines));
    let c = &s.draft.scenario.cluster;
    let a100 = machines::machine_type("a100x8").unwrap();
    assert_eq!(*c, machines::pool(a100, 3.0));
    assert_eq!(machines_in_force(c), Some((a100, 3.0)));
    assert_eq!(
        s.draft.text(&FieldKey::top("cluster.unit.gpu")),
        "8",
        "the typed text gave way to the machine's"
    );
    let s = s.reduce(Action::Apps(AppsAction::MachinesField(
        "count",
        "2.5".into(),
    )));
    let s = s.reduce(Action::Apps(AppsAction::SetMachines));
    assert!(s.draft.machines.error.is_some());
    let s = s.reduce(Action::Draft(DraftAction::Edit(
        FieldKey::top("cluster.units"),
        "4".into(),
    )));
    assert_eq!(
        machines_in_force(&s.draft.scenario.cluster),
        Some((a100, 4.0))
    );
}

#[test]
fn a_bundled_trace_loads_as_version_2_and_undo_brings_the_jobs_back() {
    let s = state(3);
    let s = s.reduce(Action::Draft(DraftAction::Edit(
        FieldKey::top("params.seed"),
        "7".into(),
    )));
    let k = FieldKey::job(s.draft.uids[0], "iterations");
    let s = s.reduce(Action::Draft(DraftAction::Edit(k, "lots".into())));
    let before = s.draft.to_saved();
    let s = s.reduce(Action::Apps(AppsAction::LoadWorkload));
    let sc = &s.draft.scenario;
    assert_eq!(sc.version, 2);
    assert_eq!(sc.jobs.len(), 160);
    assert_eq!(sc.params.seed, 7, "the parameters are kept");
    // One cluster, stated once: the trace's machines, whatever the draft's cluster was.
    let t4 = &CATALOG[0];
    assert_eq!(sc.cluster, machines::cluster(t4, 16.0, t4.capacity));
    let text = trace::workload("workload-1").unwrap();
    let arrivals = trace::parse(text).unwrap();
    for (j, a) in sc.jobs.iter().zip(&arrivals) {
        assert_eq!(j.arrival_s, Some(a.time_s));
        assert_eq!(j.id, a.name);
    }
    assert!(s.draft.valid, "{:?}", s.draft.errors);
    assert!(s.view.notice.as_ref().unwrap().text.contains("160 jobs"));
    // Round trips: the saved draft, JSON, the share link.
    let saved = s.draft.to_saved();
    assert_eq!(Draft::from_json(&saved.to_json()).unwrap(), saved);
    assert_eq!(&crate::codec::parse_lenient(&sc.to_json()).unwrap(), &**sc);
    let link = crate::codec::share_fragment(sc);
    assert_eq!(&crate::codec::parse_share_fragment(&link).unwrap(), &**sc);
    // Undo: the draft before, with what was typed.
    let s = s.reduce(Action::Apps(AppsAction::Undo));
    assert_eq!(s.draft.to_saved(), before);
    assert!(s
        .view
        .notice
        .as_ref()
        .unwrap()
        .text
        .starts_with("Undone: loading workload-1"));
}

#[test]
fn a_bad_trace_names_row_and_column_and_changes_nothing() {
    let s = state(2);
    let edits = s.draft.edits;
    let bad = "name,time,application,num_replicas,batch_size\na,0,bert,1,12\nb,10,bert,two,12\n";
    let s = s.reduce(Action::Apps(AppsAction::LoadTraceFile(
        "mine.csv".into(),
        bad.into(),
    )));
    let (field, m) = s.draft.trace.error.clone().unwrap();
    assert_eq!(field, "file");
    assert!(
        m.starts_with("mine.csv: row 2 (line 3), column \"num_replicas\""),
        "{m}"
    );
    assert_eq!(s.draft.edits, edits);
    assert_eq!(s.draft.scenario.jobs.len(), 2);
    // A machine without GPUs cannot hold the jobs: the row and the reason.
    let s = s.reduce(Action::Apps(AppsAction::TraceField(
        "type",
        "c4.8xlarge".into(),
    )));
    let s = s.reduce(Action::Apps(AppsAction::LoadWorkload));
    let m = s.draft.trace.error.clone().unwrap().1;
    assert!(m.contains("row 1 (line 2): the cluster has no GPU"), "{m}");
    let open = "name,time,application,num_replicas,batch_size\na,0,\"bert,1,12\n";
    let s = s.reduce(Action::Apps(AppsAction::LoadTraceFile(
        "open.csv".into(),
        open.into(),
    )));
    let m = s.draft.trace.error.clone().unwrap().1;
    assert_eq!(m, "open.csv: line 3: a quoted cell is not closed");
    let s = s.reduce(Action::Draft(DraftAction::IoText(
        trace::workload("workload-2-half").unwrap().into(),
    )));
    let s = s.reduce(Action::Draft(DraftAction::ImportCsv));
    let m = s.draft.io_error.clone().unwrap();
    assert!(m.contains("this is an arrival trace"), "{m}");
    let s = s.reduce(Action::Apps(AppsAction::TraceField("count", "0".into())));
    let s = s.reduce(Action::Apps(AppsAction::LoadWorkload));
    assert_eq!(s.draft.trace.error.as_ref().unwrap().0, "count");
}

#[test]
fn a_reload_keeps_the_other_kind_of_cluster_as_typed() {
    let units = FieldKey::top("cluster.units");
    let s = state(1).reduce(Action::Draft(DraftAction::Edit(units.clone(), "3x".into())));
    let s = s.reduce(Action::Apps(AppsAction::UseMachines(true)));
    // Saved and reloaded while on machines: the pool's text survives, with its message.
    let saved = crate::codec::Draft::from_json(&s.draft.to_saved().to_json()).unwrap();
    assert!(saved.other_cluster.is_some());
    let s = Rc::new(State::new(saved));
    assert!(s.draft.scenario.cluster.has_machines());
    let s = s.reduce(Action::Apps(AppsAction::UseMachines(false)));
    assert_eq!(s.draft.text(&units), "3x");
    assert!(s.draft.errors_of(&units).next().is_some());
    assert!(!s.draft.valid);
    // A draft saved before the field existed loads with no other cluster.
    let old = crate::codec::Draft::of(s.draft.scenario.as_ref().clone()).to_json();
    assert!(!old.contains("other_cluster"));
    assert!(crate::codec::Draft::from_json(&old)
        .unwrap()
        .other_cluster
        .is_none());
}

#[test]
fn machines_and_pool_switch_keeping_what_was_typed() {
    let s = state(1);
    let units = FieldKey::top("cluster.units");
    let s = s.reduce(Action::Draft(DraftAction::Edit(units.clone(), "3x".into())));
    let s = s.reduce(Action::Apps(AppsAction::UseMachines(true)));
    let c = &s.draft.scenario.cluster;
    assert_eq!(s.draft.scenario.version, 2);
    assert_eq!(c.machines, vec![machines::group(&CATALOG[0], 16.0)]);
    assert!(s.draft.valid, "{:?}", s.draft.errors);
    // Bad machine fields: messages at their fields, the text kept.
    let count = FieldKey::top("cluster.machines[0].count");
    let s = s.reduce(Action::Draft(DraftAction::Edit(
        count.clone(),
        "2.5".into(),
    )));
    let m = &s.draft.errors_of(&count).next().unwrap().message;
    assert!(m.contains("whole"), "{m}");
    assert_eq!(s.draft.text(&count), "2.5");
    let name = FieldKey::top("cluster.machines[0].name");
    let s = s.reduce(Action::Draft(DraftAction::Edit(name.clone(), "".into())));
    assert!(s.draft.errors_of(&name).next().is_some());
    let gpu = FieldKey::top("cluster.machines[0].capacity.gpu");
    let s = s.reduce(Action::Draft(DraftAction::Edit(gpu.clone(), "four".into())));
    assert!(s
        .draft
        .errors_of(&gpu)
        .next()
        .unwrap()
        .message
        .contains("number"));
    assert_eq!(s.draft.text(&gpu), "four");
    // Back to the pool: its text comes back; and machines again: theirs.
    let s = s.reduce(Action::Apps(AppsAction::UseMachines(false)));
    assert!(!s.draft.scenario.cluster.has_machines());
    assert_eq!(s.draft.text(&units), "3x");
    assert!(s.draft.errors_of(&count).next().is_none());
    let s = s.reduce(Action::Draft(DraftAction::Edit(units.clone(), "3".into())));
    assert!(s.draft.valid, "{:?}", s.draft.errors);
    let s = s.reduce(Action::Apps(AppsAction::UseMachines(true)));
    assert_eq!(s.draft.text(&count), "2.5");
    assert_eq!(s.draft.text(&gpu), "four");
    assert!(!s.draft.valid);
    // Groups: add two, remove the first; the typed text moves with its group.
    let s = s.reduce(Action::Draft(DraftAction::Edit(count.clone(), "4".into())));
    let s = s.reduce(Action::Draft(DraftAction::Edit(name.clone(), "a".into())));
    let s = s.reduce(Action::Draft(DraftAction::Edit(gpu.clone(), "4".into())));
    assert!(s.draft.valid, "{:?}", s.draft.errors);
    let s = s.reduce(Action::Apps(AppsAction::MachinesField("count", "2".into())));
    let s = s.reduce(Action::Apps(AppsAction::AddMachineGroup));
    let s = s.reduce(Action::Apps(AppsAction::AddMachineGroup));
    let names: Vec<&str> = s
        .draft
        .scenario
        .cluster
        .machines
        .iter()
        .map(|g| g.name.as_str())
        .collect();
    assert_eq!(names, ["a", "t4x4", "t4x4-g2"]);
    let c2 = FieldKey::top("cluster.machines[2].count");
    let s = s.reduce(Action::Draft(DraftAction::Edit(c2, "0".into())));
    assert!(!s.draft.valid);
    let s = s.reduce(Action::Apps(AppsAction::RemoveMachineGroup(0)));
    let c1 = FieldKey::top("cluster.machines[1].count");
    assert_eq!(s.draft.text(&c1), "0");
    assert!(s.draft.errors_of(&c1).next().is_some());
    assert_eq!(s.draft.scenario.cluster.machine_list().len(), 2);
    // The placement parameter.
    let p = FieldKey::top("params.placement");
    let s = s.reduce(Action::Draft(DraftAction::Edit(p, "dltap".into())));
    assert_eq!(
        s.draft.scenario.params.placement,
        Some(smd_core::scenario::Placement::Dltap)
    );
}

#[test]
fn an_online_field_makes_the_draft_version_2() {
    let s = state(1);
    assert_eq!(s.draft.scenario.version, 1);
    let k = FieldKey::job(s.draft.uids[0], "arrival_s");
    assert_eq!(s.draft.text(&k), "");
    let s = s.reduce(Action::Draft(DraftAction::Edit(k.clone(), "30".into())));
    assert_eq!(s.draft.scenario.version, 2);
    assert_eq!(s.draft.scenario.jobs[0].arrival_s, Some(30.0));
    assert!(s.draft.valid);
    let s = s.reduce(Action::Draft(DraftAction::Edit(k.clone(), "-1".into())));
    assert!(s.draft.errors_of(&k).next().is_some());
    let s = s.reduce(Action::Draft(DraftAction::Edit(k.clone(), "".into())));
    assert_eq!(s.draft.scenario.jobs[0].arrival_s, None);
    assert!(s.draft.valid);
    let w = FieldKey::job(s.draft.uids[0], "requested_workers");
    let s = s.reduce(Action::Draft(DraftAction::Edit(w.clone(), "2.5".into())));
    assert!(s
        .draft
        .errors_of(&w)
        .next()
        .unwrap()
        .message
        .contains("whole"));
}

/// A message offers Undo only for the change it reports: an export after a load changes
/// nothing, so its message offers none (its Undo undid the load).
#[test]
fn only_the_message_of_a_change_offers_undo() {
    let s = state(3);
    let s = s.reduce(Action::Apps(AppsAction::LoadWorkload));
    let u = s.notice_undo().expect("the load's message offers Undo");
    assert_eq!(u.what, "loading workload-1");
    let exported = s
        .clone()
        .reduce(Action::View(crate::state::ViewAction::Notify(
            crate::state::Notice::info("Exported over-time.csv (100 bytes)."),
        )));
    assert!(exported.notice_undo().is_none(), "an export undoes nothing");
    assert!(
        exported.draft.undo.is_some(),
        "the load stays undoable in the draft"
    );
    let dismissed = s
        .clone()
        .reduce(Action::View(crate::state::ViewAction::DismissNotice));
    assert!(dismissed.notice_undo().is_none());
    // A later change that takes its own Undo: the load's message no longer offers one.
    let added = s.reduce(Action::Apps(AppsAction::AddFromApp));
    assert!(
        added.notice_undo().is_none(),
        "the message is the load's, not the job's"
    );
}

/// A trace the user opened stays named on the page, Load says which workload it loads
/// instead, and that replacement is undone from its message back to the file's jobs.
#[test]
fn a_loaded_file_is_named_and_load_says_what_replaces_it() {
    let s = state(3);
    let text = trace::workload("workload-1-half").unwrap();
    let s = s.reduce(Action::Apps(AppsAction::LoadTraceFile(
        "mine.csv".into(),
        text.into(),
    )));
    assert_eq!(s.draft.scenario.jobs.len(), 80);
    assert_eq!(
        s.draft.trace.loaded.as_deref(),
        Some("Loaded mine.csv: 80 jobs")
    );
    assert_eq!(s.draft.trace.load_label(), "Load workload-1");
    let file = s.draft.to_saved();
    let s = s.reduce(Action::Apps(AppsAction::LoadWorkload));
    assert_eq!(s.draft.scenario.jobs.len(), 160);
    assert_eq!(
        s.draft.trace.loaded.as_deref(),
        Some("Loaded workload-1: 160 jobs")
    );
    assert_eq!(s.notice_undo().unwrap().what, "loading workload-1");
    let s = s.reduce(Action::Apps(AppsAction::Undo));
    assert_eq!(s.draft.to_saved(), file, "the file's jobs are back");
    assert_eq!(
        s.draft.trace.loaded.as_deref(),
        Some("Loaded mine.csv: 80 jobs")
    );
    // Other jobs replace the trace's: no longer said to be loaded.
    let s = s.reduce(Action::Draft(DraftAction::Reset));
    assert_eq!(s.draft.trace.loaded, None);
}
