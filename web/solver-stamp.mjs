// Trunk post_build step (web/post-build.mjs, after the prerender): names the solver's
// module after its contents. Trunk names a worker's files after its binary (smd-solver.js,
// smd-solver_bg.wasm), so a host that caches them would pair a new page with an old
// solver; renamed to smd-solver-<digest>.*, each build's page asks for its own. The page
// reads the name from the <meta name="smd-solver"> written here (web/src/solver/page.rs).
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.env.TRUNK_STAGING_DIR;
if (!dir) throw new Error('solver-stamp: TRUNK_STAGING_DIR is not set (run by trunk build)');
const files = ['.js', '_bg.wasm'];
const digest = createHash('sha256');
for (const f of files) digest.update(readFileSync(join(dir, `smd-solver${f}`)));
const name = `smd-solver-${digest.digest('hex').slice(0, 16)}`;
for (const f of files) renameSync(join(dir, `smd-solver${f}`), join(dir, `${name}${f}`));
const index = join(dir, 'index.html');
const page = readFileSync(index, 'utf8');
const meta = '<meta name="smd-solver" content="./smd-solver" />';
if (!page.includes(meta)) throw new Error(`solver-stamp: no ${meta} in index.html`);
writeFileSync(index, page.replace(meta, `<meta name="smd-solver" content="./${name}" />`));
console.log(`solver-stamp: ${name}`);
