//! One labelled input bound to a [`FieldKey`]: it shows the raw text the user typed and
//! every message that belongs to it (`data-testid="error"`).

use super::use_app;
use crate::fields::FieldKey;
use crate::state::Action;
use crate::state::DraftAction;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

/// Properties of [`Field`].
#[derive(Properties, PartialEq, Clone)]
pub struct FieldProps {
    /// Which field.
    pub k: FieldKey,
    /// Label text.
    pub label: AttrValue,
    /// docs/MODEL.md symbol, shown before the label.
    #[prop_or_default]
    pub symbol: AttrValue,
    /// Tooltip.
    #[prop_or_default]
    pub hint: AttrValue,
    /// Choices `(value, label)`: a select instead of a text input.
    #[prop_or_default]
    pub choices: Vec<(&'static str, String)>,
    /// Placeholder of an empty text input.
    #[prop_or_default]
    pub placeholder: AttrValue,
    /// The input's accessible name when the label alone does not tell it from its
    /// neighbours (a table's `GPU` of the cluster unit and of the instance: `cluster unit
    /// GPU`, `instance GPU`); empty: the label names it.
    #[prop_or_default]
    pub name: AttrValue,
}

/// The `data-field` attribute: `params.epsilon` or `job.worker.gpu` (the editor shows one
/// job at a time).
pub fn data_field(k: &FieldKey) -> String {
    match k.job {
        Some(_) => format!("job.{}", k.field),
        None => k.field.clone(),
    }
}

/// The messages of a field, each with `data-testid="error"`.
#[derive(Properties, PartialEq)]
pub struct MessagesProps {
    /// Which field.
    pub k: FieldKey,
}

/// Messages of one field.
#[function_component]
pub fn Messages(props: &MessagesProps) -> Html {
    let state = use_app();
    state
        .draft
        .errors_of(&props.k)
        .map(|e| html! { <span class="msg" data-testid="error" role="alert">{ &e.message }</span> })
        .collect()
}

/// A labelled input.
#[function_component]
pub fn Field(props: &FieldProps) -> Html {
    let state = use_app();
    let text = state.draft.text(&props.k);
    let invalid = state.draft.errors_of(&props.k).next().is_some();
    let key = props.k.clone();
    let dispatcher = state.dispatcher();
    let name = (!props.name.is_empty()).then(|| props.name.clone());
    let control = if props.choices.is_empty() {
        let oninput = Callback::from(move |e: InputEvent| {
            let v = e.target_unchecked_into::<HtmlInputElement>().value();
            dispatcher.dispatch(Action::Draft(DraftAction::Edit(key.clone(), v)));
        });
        html! {
            <input type="text" inputmode="decimal" value={text} {oninput}
                placeholder={props.placeholder.clone()} aria-label={name}
                aria-invalid={invalid.to_string()} data-field={data_field(&props.k)} />
        }
    } else {
        let onchange = Callback::from(move |e: Event| {
            let v = e.target_unchecked_into::<HtmlSelectElement>().value();
            dispatcher.dispatch(Action::Draft(DraftAction::Edit(key.clone(), v)));
        });
        html! {
            <select {onchange} data-field={data_field(&props.k)} aria-label={name} aria-invalid={invalid.to_string()}>
                { for props.choices.iter().map(|(v, l)| html! {
                    <option value={*v} selected={text == *v}>{ l.clone() }</option>
                }) }
            </select>
        }
    };
    html! {
        <label class={classes!("field", invalid.then_some("invalid"))} title={props.hint.clone()}>
            <span class="label">
                if !props.symbol.is_empty() { <span class="sym">{ props.symbol.clone() }</span>{" "} }
                { props.label.clone() }
            </span>
            { control }
            <Messages k={props.k.clone()} />
        </label>
    }
}
