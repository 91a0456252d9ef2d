//! Starting GPU sharing's study, the bundled lists fetched first when it needs them: the
//! view's Run button and a link that asks for the view to run ([`super::export::ViewBar`])
//! both start it here.

use crate::state::sharing::{Bundled, BUNDLED_FILES};
use crate::state::{Action, SharingAction};
use std::rc::Rc;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use yew::prelude::*;

/// Fetches a file beside the page as text.
async fn fetch_text(path: &str) -> Result<String, String> {
    let window = web_sys::window().ok_or("no window")?;
    let resp = JsFuture::from(window.fetch_with_str(path))
        .await
        .map_err(|e| format!("{path}: {e:?}"))?;
    let resp: web_sys::Response = resp
        .dyn_into()
        .map_err(|_| format!("{path}: no response"))?;
    if !resp.ok() {
        return Err(format!("{path}: HTTP {}", resp.status()));
    }
    let text = JsFuture::from(resp.text().map_err(|e| format!("{path}: {e:?}"))?)
        .await
        .map_err(|e| format!("{path}: {e:?}"))?;
    Ok(text.as_string().unwrap_or_default())
}

/// Fetches the bundled lists and tables.
pub async fn fetch_bundled() -> Result<Bundled, String> {
    let mut texts = Vec::with_capacity(BUNDLED_FILES.len());
    for f in BUNDLED_FILES {
        texts.push(fetch_text(f).await?);
    }
    let mut it = texts.into_iter();
    let mut next = || it.next().unwrap_or_default();
    Ok(Bundled {
        nodes: next(),
        pods: next(),
        published: [next(), next(), next()],
    })
}

/// Runs the form's study, fetching the bundled lists first if it needs them (the Run
/// button, and a link that asks for the view to run).
pub fn start(state: &crate::state::State, d: &UseReducerDispatcher<crate::state::State>) {
    let sh = &state.sharing;
    let need = sh.bundled.is_none() && !(sh.nodes.is_some() && sh.pods.is_some());
    d.dispatch(Action::Sharing(SharingAction::Start));
    if need {
        let d = d.clone();
        wasm_bindgen_futures::spawn_local(async move {
            let r = fetch_bundled().await.map(Rc::new);
            d.dispatch(Action::Sharing(SharingAction::Fetched(r)));
        });
    }
}
