use super::*;
use crate::state::tests::state;
use crate::state::Action;
use crate::state::DraftAction;
use yew::Reducible;

#[test]
fn an_invalid_edit_keeps_the_text_and_names_the_field() {
    let s = state(2);
    assert!(s.draft.valid);
    let uid = s.draft.uids[1];
    let key = FieldKey::job(uid, "ps_bandwidth_gbps");
    let s = s.reduce(Action::Draft(DraftAction::Edit(key.clone(), "0".into())));
    assert!(!s.draft.valid);
    let e: Vec<_> = s.draft.errors_of(&key).collect();
    assert_eq!(e.len(), 1, "{:?}", s.draft.errors);
    assert!(e[0].message.contains("must be > 0"), "{}", e[0].message);
    let s = s.reduce(Action::Draft(DraftAction::Edit(key.clone(), "1x".into())));
    assert_eq!(s.draft.text(&key), "1x");
    assert!(s
        .draft
        .errors_of(&key)
        .next()
        .unwrap()
        .message
        .contains("number"));
    let rev = s.draft.revision;
    let s = s.reduce(Action::Draft(DraftAction::Edit(key.clone(), "12".into())));
    assert!(s.draft.valid);
    assert_eq!(s.draft.revision, rev + 1);
    assert_eq!(s.draft.scenario.jobs[1].ps_bandwidth_gbps, 12.0);
}

#[test]
fn a_version_2_field_makes_the_draft_version_2() {
    let s = state(2);
    assert_eq!(s.draft.scenario.version, 1);
    let s = s.reduce(Action::Draft(DraftAction::Edit(
        FieldKey::top("params.gpu_sharing"),
        "heuristic".into(),
    )));
    assert_eq!(s.draft.scenario.version, MAX_VERSION);
    assert_eq!(
        s.draft.scenario.params.gpu_sharing,
        Some(smd_core::scenario::GpuSharing::Heuristic)
    );
    assert!(s.draft.valid, "{:?}", s.draft.errors);
    let s = state(2);
    let key = FieldKey::top("params.collision_prob");
    let s = s.reduce(Action::Draft(DraftAction::Edit(key.clone(), "1.5".into())));
    assert_eq!(s.draft.scenario.version, MAX_VERSION);
    let e: Vec<_> = s.draft.errors_of(&key).collect();
    assert!(e[0].message.contains("(0, 1)"), "{}", e[0].message);
    assert_eq!(s.draft.text(&key), "1.5");
    let s = state(2);
    let key = FieldKey::job(s.draft.uids[0], "gpu_mem_mean_gb");
    let s = s.reduce(Action::Draft(DraftAction::Edit(key, "4".into())));
    assert_eq!(s.draft.scenario.version, MAX_VERSION);
    assert_eq!(s.draft.scenario.jobs[0].gpu_mem_mean_gb, Some(4.0));
}

#[test]
fn the_saved_draft_brings_back_what_was_typed() {
    let s = state(2);
    let key = FieldKey::job(s.draft.uids[0], "iterations");
    let s = s.reduce(Action::Draft(DraftAction::Edit(key, "lots".into())));
    let d = s.draft.to_saved();
    assert_eq!(
        d.raw,
        vec![(Some(0), "iterations".to_string(), "lots".to_string())]
    );
    let back = State::new(Draft::from_json(&d.to_json()).unwrap());
    assert_eq!(
        back.draft
            .text(&FieldKey::job(back.draft.uids[0], "iterations")),
        "lots"
    );
    assert!(!back.draft.valid);
}

/// `global`'s time budget is a field like the others: checked (a positive number of
/// seconds), kept as typed with its message when wrong (nothing is solved meanwhile),
/// kept through an import, and saved with the draft.
#[test]
fn the_global_budget_is_checked_kept_as_typed_and_saved() {
    let s = state(2);
    let key = FieldKey::top(fields::GLOBAL_BUDGET);
    assert_eq!(s.draft.text(&key), "3");
    assert_eq!(s.draft.settings, Settings::default());
    let rev = s.draft.revision;
    let s = s.reduce(Action::Draft(DraftAction::Edit(key.clone(), "-1".into())));
    assert!(!s.draft.valid);
    assert_eq!(s.draft.text(&key), "-1");
    let e: Vec<_> = s.draft.errors_of(&key).collect();
    assert_eq!(e.len(), 1, "{:?}", s.draft.errors);
    assert!(e[0].message.contains("must be > 0"), "{}", e[0].message);
    assert!(s.shown_inline(e[0]), "the message is next to the field");
    assert!(s.draft.only_epsilon_wrong, "the jobs are fine");
    assert_eq!(s.draft.revision, rev, "nothing new to solve");
    assert_eq!(s.draft.settings.global_budget_s, 3.0);
    let reloaded = |s: &State| State::new(Draft::from_json(&s.draft.to_saved().to_json()).unwrap());
    let back = reloaded(&s);
    assert_eq!(back.draft.text(&key), "-1");
    assert!(!back.draft.valid);
    // An import replaces the scenario, not what was typed into the page's settings.
    let mut other = (*s.draft.scenario).clone();
    other.jobs.truncate(1);
    let s = s.reduce(Action::Draft(DraftAction::Load(
        Box::new(other),
        "imported".into(),
    )));
    assert_eq!(s.draft.text(&key), "-1");
    assert!(!s.draft.valid);
    let s = s.reduce(Action::Draft(DraftAction::Edit(key.clone(), "0.5".into())));
    assert!(s.draft.valid);
    assert!(s.draft.revision > rev, "a new budget is solved again");
    assert_eq!(s.draft.settings.global_budget_s, 0.5);
    let back = reloaded(&s);
    assert_eq!(back.draft.settings.global_budget_s, 0.5);
    assert_eq!(back.draft.text(&key), "0.5");
    assert!(back.draft.valid);
    // A draft saved before the setting existed opens with the default.
    let old = format!(
        "{{\"scenario\":{},\"raw\":[]}}",
        serde_json::to_string(&*s.draft.scenario).unwrap()
    );
    assert_eq!(
        Draft::from_json(&old).unwrap().settings,
        Settings::default()
    );
}

#[test]
fn duplicate_ids_and_jobs_edits() {
    let s = state(2);
    let u = s.draft.uids[0];
    let s = s.reduce(Action::Draft(DraftAction::DuplicateJob(u)));
    let jobs = &s.draft.scenario.jobs;
    assert_eq!(jobs.len(), 3);
    assert_eq!(jobs[1].id, format!("{}-copy", jobs[0].id));
    assert_eq!(
        s.view.selected,
        Some(s.draft.uids[1]),
        "the copy is selected"
    );
    let id0 = jobs[0].id.clone();
    let k = FieldKey::job(s.draft.uids[1], "id");
    let s = s.reduce(Action::Draft(DraftAction::Edit(k, id0)));
    assert!(!s.draft.valid);
    assert_eq!(s.draft.errors.len(), 2, "{:?}", s.draft.errors);
    let u = s.draft.uids[1];
    let s = s.reduce(Action::Draft(DraftAction::DeleteJob(u)));
    assert!(s.draft.valid);
    assert_eq!(
        s.view.selected,
        Some(s.draft.uids[1]),
        "the job in its place"
    );
    let s = s.reduce(Action::Draft(DraftAction::AddJob));
    assert_eq!(s.draft.scenario.jobs.len(), 3);
    assert_eq!(s.view.selected, Some(s.draft.uids[2]));
    assert!(s.draft.valid);
}

#[test]
fn generate_form_checks_its_numbers() {
    let s = state(1);
    let s = s.reduce(Action::Draft(DraftAction::GenerateField(
        "jobs",
        "0".into(),
    )));
    let s = s.reduce(Action::Draft(DraftAction::Generate));
    assert!(s.draft.generate.error.is_some());
    let s = s.reduce(Action::Draft(DraftAction::GenerateField(
        "jobs",
        "7".into(),
    )));
    let s = s.reduce(Action::Draft(DraftAction::Generate));
    assert_eq!(s.draft.scenario.jobs.len(), 7);
    assert_eq!(s.draft.scenario.params.epsilon, 0.2, "parameters are kept");
}

/// A page opened with nothing saved has the default draft, which is not kept (its next
/// visit paints the prerendered first plan); any edit, a setting's included, is kept, and
/// an edit typed back to the default value is the default again.
#[test]
fn only_a_draft_other_than_the_default_is_kept() {
    let fresh = State::new(Draft::of(crate::defaults::default_scenario()));
    assert!(fresh.draft.to_saved().is_default());
    let epsilon = FieldKey::top("epsilon");
    let was = fresh.draft.text(&epsilon);
    let edited = Rc::new(fresh).reduce(Action::Draft(DraftAction::Edit(
        epsilon.clone(),
        "0.2".into(),
    )));
    assert!(!edited.draft.to_saved().is_default());
    let typed = edited.reduce(Action::Draft(DraftAction::Edit(
        epsilon.clone(),
        "0.2x".into(),
    )));
    assert!(!typed.draft.to_saved().is_default(), "a typed text is kept");
    let back = typed.reduce(Action::Draft(DraftAction::Edit(epsilon, was)));
    assert!(back.draft.to_saved().is_default());
    let budget = FieldKey::top(fields::GLOBAL_BUDGET);
    let setting = back.reduce(Action::Draft(DraftAction::Edit(budget, "9".into())));
    assert!(!setting.draft.to_saved().is_default(), "a setting is kept");
}
