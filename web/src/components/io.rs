//! Import and export (JSON of SCENARIO.md, CSV of docs/CSV.md) and the share link (at the
//! top of the Plan view).

use super::use_app;
use crate::codec;
use crate::state::{Action, Notice, State};
use crate::state::{DraftAction, ViewAction};
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{HtmlInputElement, HtmlTextAreaElement};
use yew::prelude::*;

/// `text` as a blob of type `mime`.
pub fn text_blob(mime: &str, text: &str) -> Result<web_sys::Blob, String> {
    let parts = js_sys::Array::of1(&text.into());
    let bag = web_sys::BlobPropertyBag::new();
    bag.set_type(mime);
    web_sys::Blob::new_with_str_sequence_and_options(&parts, &bag).map_err(|e| format!("{e:?}"))
}

/// Offers `text` as a file download.
pub fn download(name: &str, mime: &str, text: &str) -> Result<(), String> {
    download_blob(name, &text_blob(mime, text)?)
}

/// Offers `blob` as a file download.
pub fn download_blob(name: &str, blob: &web_sys::Blob) -> Result<(), String> {
    let url = web_sys::Url::create_object_url_with_blob(blob).map_err(|e| format!("{e:?}"))?;
    let document = gloo_utils_document().ok_or("no document")?;
    let a: web_sys::HtmlAnchorElement = document
        .create_element("a")
        .map_err(|e| format!("{e:?}"))?
        .unchecked_into();
    a.set_href(&url);
    a.set_download(name);
    a.click();
    let _ = web_sys::Url::revoke_object_url(&url);
    Ok(())
}

fn gloo_utils_document() -> Option<web_sys::Document> {
    web_sys::window()?.document()
}

/// A file input's `change` handler: reads the picked file as text and hands its name and
/// text to `then`; a file that cannot be read becomes a warning. The input is cleared, so
/// that picking the same file again reads it again.
pub fn read_picked_file(
    d: UseReducerDispatcher<State>,
    then: impl Fn(&UseReducerDispatcher<State>, String, String) + 'static,
) -> Callback<Event> {
    let then = std::rc::Rc::new(then);
    Callback::from(move |e: Event| {
        let input: HtmlInputElement = e.target_unchecked_into();
        let Some(file) = input.files().and_then(|f| f.get(0)) else {
            return;
        };
        let (d, then) = (d.clone(), then.clone());
        wasm_bindgen_futures::spawn_local(async move {
            match JsFuture::from(file.text()).await {
                Ok(t) => then(&d, file.name(), t.as_string().unwrap_or_default()),
                Err(e) => d.dispatch(Action::View(ViewAction::Notify(Notice::warning(format!(
                    "Could not read the file: {e:?}"
                ))))),
            }
        });
        input.set_value("");
    })
}

/// The page's address with the scenario in its hash.
pub fn share_link(s: &smd_core::Scenario) -> String {
    link_with(&codec::share_fragment(s))
}

/// The page's address (without its hash) with `hash`.
pub fn link_with(hash: &str) -> String {
    let base = web_sys::window()
        .and_then(|w| w.location().href().ok())
        .map(|h| h.split('#').next().unwrap_or("").to_owned())
        .unwrap_or_default();
    format!("{base}#{hash}")
}

/// "Share link" (the draft's scenario in the page's address, copied to the clipboard where
/// allowed) and the link once made: in the Plan view's bar, beside its exports.
#[function_component]
pub fn ShareLink() -> Html {
    let state = use_app();
    let share = {
        let d = state.dispatcher();
        let draft = state.draft.scenario.clone();
        Callback::from(move |_: MouseEvent| {
            let link = share_link(&draft);
            if let Some(w) = web_sys::window() {
                let _ = w.navigator().clipboard().write_text(&link);
            }
            d.dispatch(Action::Draft(DraftAction::ShareLink(link)));
        })
    };
    html! {
        <>
            <button onclick={share} data-action="share" title="A link to this page with the scenario in it, copied to the clipboard where allowed.">{"Share link"}</button>
            if let Some(link) = &state.draft.share_link {
                <label class="share">
                    <span class="label">{"link, copied where allowed:"}</span>
                    <input type="text" readonly=true value={link.clone()} data-testid="share-link" onclick={Callback::from(|e: MouseEvent| {
                        if let Some(i) = e.target_dyn_into::<HtmlInputElement>() { i.select(); }
                    })} />
                </label>
            }
        </>
    }
}

/// The import/export panel.
#[function_component]
pub fn ImportExport() -> Html {
    let state = use_app();
    let d = state.dispatcher();
    let act = |a: Action| {
        let d = d.clone();
        Callback::from(move |_: MouseEvent| d.dispatch(a.clone()))
    };
    let export_json = {
        let d = d.clone();
        let draft = state.draft.scenario.clone();
        Callback::from(move |_: MouseEvent| {
            d.dispatch(Action::Draft(DraftAction::ExportJson));
            if let Err(e) = download("scenario.json", "application/json", &draft.to_json()) {
                d.dispatch(Action::View(ViewAction::Notify(Notice::warning(format!(
                    "Download failed: {e}"
                )))));
            }
        })
    };
    let export_csv = {
        let d = d.clone();
        let draft = state.draft.scenario.clone();
        Callback::from(move |_: MouseEvent| {
            d.dispatch(Action::Draft(DraftAction::ExportCsv));
            let (csv, _) = codec::jobs_to_csv(&draft.jobs);
            if let Err(e) = download("jobs.csv", "text/csv", &csv) {
                d.dispatch(Action::View(ViewAction::Notify(Notice::warning(format!(
                    "Download failed: {e}"
                )))));
            }
        })
    };
    let on_text = {
        let d = d.clone();
        Callback::from(move |e: InputEvent| {
            let v = e.target_unchecked_into::<HtmlTextAreaElement>().value();
            d.dispatch(Action::Draft(DraftAction::IoText(v)));
        })
    };
    let on_file = read_picked_file(d.clone(), |d, name, text| {
        let csv = name.to_lowercase().ends_with(".csv");
        let is_csv = csv || !text.trim_start().starts_with('{');
        d.dispatch(Action::Draft(DraftAction::IoText(text)));
        d.dispatch(if is_csv {
            Action::Draft(DraftAction::ImportCsv)
        } else {
            Action::Draft(DraftAction::ImportJson)
        });
    });
    html! {
        <section class="card" id="io">
            <h2>{"Import · export"}</h2>
            <div class="row buttons">
                <button onclick={export_json} data-action="export-json">{"Export JSON"}</button>
                <button onclick={export_csv} data-action="export-csv">{"Export CSV"}</button>
                <label class="file">{"Open file… "}<input type="file" accept=".json,.csv,application/json,text/csv" onchange={on_file} data-action="open-file" /></label>
            </div>
            <label class="field">
                <span class="label">{"Scenario JSON (SCENARIO.md) or jobs CSV (docs/CSV.md): paste, then import"}</span>
                <textarea rows="5" value={state.draft.io_text.clone()} oninput={on_text} data-field="io.text" spellcheck="false" />
            </label>
            <div class="row buttons">
                <button onclick={act(Action::Draft(DraftAction::ImportJson))} data-action="import-json">{"Import JSON"}</button>
                <button onclick={act(Action::Draft(DraftAction::ImportCsv))} data-action="import-csv">{"Import CSV (jobs)"}</button>
            </div>
            if let Some(e) = &state.draft.io_error {
                <p class="msg block" data-testid="error" role="alert">{ e }</p>
            }
        </section>
    }
}
