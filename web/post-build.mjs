// Trunk post_build hook (Trunk.toml). Trunk starts a stage's hooks all at once, so the steps
// that rewrite the staged index.html, and the digest of the finished build, run here one
// after another:
//   1. web/prerender.mjs: the first plan in the HTML;
//   2. web/solver-stamp.mjs: the solver's files named after their contents;
//   3. web/sw-stamp.mjs: the service worker's list of files and digest of the build (last).
await import('./prerender.mjs');
await import('./solver-stamp.mjs');
await import('./sw-stamp.mjs');
