// Trunk post_build step (web/post-build.mjs, last): writes into the staged sw.js the list
// of the build's files and a digest of their contents, so that each build is a new service worker with a
// cache of its own (web/sw.js). Runs with Node, which the page's build already needs (npm).
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

const dir = process.env.TRUNK_STAGING_DIR;
if (!dir) throw new Error('sw-stamp: TRUNK_STAGING_DIR is not set (run by trunk build)');
const sw = join(dir, 'sw.js');

function files(d) {
  return readdirSync(d, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(d, e.name)) : [join(d, e.name)]);
}

const names = files(dir)
  .map((f) => relative(dir, f).split(sep).join('/'))
  .filter((n) => n !== 'sw.js')
  .sort();
// Every file, sw.js itself (unstamped) included: a change to the worker's own code is a new build too.
const digest = createHash('sha256');
for (const n of [...names, 'sw.js']) digest.update(n).update('\0').update(readFileSync(join(dir, n))).update('\0');
const build = digest.digest('hex').slice(0, 16);
// The page is cached as './', the address it is opened by; index.html is that same file.
const shell = ['./', ...names.filter((n) => n !== 'index.html').map((n) => `./${n}`)];

const text = readFileSync(sw, 'utf8');
const stamped = text
  .replace("'__SMD_BUILD__'", JSON.stringify(build))
  .replace("['__SMD_SHELL__']", JSON.stringify(shell));
if (stamped === text || stamped.includes('__SMD_')) {
  throw new Error('sw-stamp: the placeholders of sw.js were not found');
}
writeFileSync(sw, stamped);
console.log(`sw-stamp: build ${build}, ${shell.length} files in the service worker's shell`);
