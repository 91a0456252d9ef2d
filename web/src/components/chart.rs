//! Every chart's downloads: the chart as it is drawn, as an SVG file (the document
//! `smd_charts` wrote) and as a PNG picture (that SVG drawn on a canvas at twice its size).
//! One component, [`ChartDownloads`], placed under each chart.

use super::io;
use super::use_app;
use crate::state::{Action, Notice, ViewAction};
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use yew::prelude::*;

/// What a chart's downloads need.
#[derive(Properties, PartialEq)]
pub struct ChartProps {
    /// The chart: a standalone SVG document.
    pub svg: AttrValue,
    /// The files' name without extension (`sweep-utility`: `sweep-utility.svg`, `.png`).
    pub name: AttrValue,
}

/// "SVG" and "PNG" buttons that download the chart.
#[function_component]
pub fn ChartDownloads(p: &ChartProps) -> Html {
    let state = use_app();
    let warn = {
        let d = state.dispatcher();
        move |m: String| d.dispatch(Action::View(ViewAction::Notify(Notice::warning(m))))
    };
    let svg = {
        let (svg, name, warn) = (p.svg.clone(), p.name.clone(), warn.clone());
        Callback::from(move |_: MouseEvent| {
            let file = format!("{name}.svg");
            if let Err(m) = io::download(&file, "image/svg+xml", &svg) {
                warn(format!("Could not save {file}: {m}"));
            }
        })
    };
    let png = {
        let (svg, name) = (p.svg.clone(), p.name.clone());
        Callback::from(move |_: MouseEvent| {
            let (svg, file, warn) = (svg.clone(), format!("{name}.png"), warn.clone());
            wasm_bindgen_futures::spawn_local(async move {
                if let Err(m) = save_png(&svg, &file).await {
                    warn(format!("Could not save {file}: {m}"));
                }
            });
        })
    };
    html! {
        <div class="chart-downloads" role="group" aria-label="Download this chart">
            <button class="small" onclick={svg} data-action="chart-svg" data-file={format!("{}.svg", p.name)}
                title="Download this chart as an SVG file (a vector drawing)">{"SVG"}</button>
            <button class="small" onclick={png} data-action="chart-png" data-file={format!("{}.png", p.name)}
                title="Download this chart as a PNG picture">{"PNG"}</button>
        </div>
    }
}

/// How much larger than drawn the PNG is (sharp on a high-density screen or in print).
const PNG_SCALE: f64 = 2.0;

/// Draws `svg` on a canvas and offers the canvas as a PNG file `name`.
pub async fn save_png(svg: &str, name: &str) -> Result<(), String> {
    let blob = png_of(svg).await?;
    io::download_blob(name, &blob)
}

/// `svg` as a PNG picture at [`PNG_SCALE`] times its size: an image of the SVG's blob,
/// drawn on a canvas (`drawImage`), encoded by the canvas.
pub async fn png_of(svg: &str) -> Result<web_sys::Blob, String> {
    let err = |e: wasm_bindgen::JsValue| format!("{e:?}");
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("no document")?;
    let blob = io::text_blob("image/svg+xml", svg)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(err)?;
    let img = web_sys::HtmlImageElement::new().map_err(err)?;
    img.set_src(&url);
    let decoded = JsFuture::from(img.decode()).await;
    let _ = web_sys::Url::revoke_object_url(&url);
    decoded.map_err(|e| format!("the chart could not be drawn ({e:?})"))?;
    let (w, h) = (img.natural_width(), img.natural_height());
    if w == 0 || h == 0 {
        return Err("the chart has no size".into());
    }
    let canvas: web_sys::HtmlCanvasElement = document
        .create_element("canvas")
        .map_err(err)?
        .unchecked_into();
    canvas.set_width((f64::from(w) * PNG_SCALE).round() as u32);
    canvas.set_height((f64::from(h) * PNG_SCALE).round() as u32);
    let ctx: web_sys::CanvasRenderingContext2d = canvas
        .get_context("2d")
        .map_err(err)?
        .ok_or("no canvas")?
        .unchecked_into();
    ctx.draw_image_with_html_image_element_and_dw_and_dh(
        &img,
        0.0,
        0.0,
        f64::from(canvas.width()),
        f64::from(canvas.height()),
    )
    .map_err(err)?;
    let encoded = js_sys::Promise::new(&mut |resolve, _reject| {
        let give = resolve.clone();
        let done = wasm_bindgen::closure::Closure::once_into_js(move |b: wasm_bindgen::JsValue| {
            let _ = give.call1(&wasm_bindgen::JsValue::NULL, &b);
        });
        if canvas.to_blob(done.unchecked_ref()).is_err() {
            let _ = resolve.call1(&wasm_bindgen::JsValue::NULL, &wasm_bindgen::JsValue::NULL);
        }
    });
    JsFuture::from(encoded)
        .await
        .map_err(err)?
        .dyn_into::<web_sys::Blob>()
        .map_err(|_| "the canvas gave no picture".to_owned())
}
