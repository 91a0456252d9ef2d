// Trunk post_build step (web/post-build.mjs, first): puts the default scenario's first
// plan, rendered natively by the page's own components (web/first-plan.html, kept current by
// `cargo test -p smd-web --lib first_plan`), into the staged index.html, so the browser
// paints the plan from the HTML alone while the page's module loads; the module replaces
// it at its first render (web/src/first_plan.rs).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.env.TRUNK_STAGING_DIR;
if (!dir) throw new Error('prerender: TRUNK_STAGING_DIR is not set (run by trunk build)');
const index = join(dir, 'index.html');
const slot = '<div id="prerender" inert></div>';
const page = readFileSync(index, 'utf8');
if (!page.includes(slot)) throw new Error(`prerender: no ${slot} in index.html`);
const html = readFileSync(new URL('./first-plan.html', import.meta.url), 'utf8');
writeFileSync(index, page.replace(slot, `<div id="prerender" inert>${html}</div>`));
