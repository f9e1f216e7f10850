/**
 * Writes the self-contained HTML pages of `limited view`, `limited play` and `limited report`:
 * one file each, the browser bundle (dist/web/main.js and style.css, made by `npm run build`
 * from src/web/) and the page's data inlined, and a Content-Security-Policy that lets the page
 * load nothing from anywhere (its solver worker comes from a Blob URL of its own script).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../game/index.js';
import { checkWritable, writeAtomic } from '../util/fileio.js';
import { packageRoot } from '../batch/machine.js';
import { type PageData } from '../web/data.js';

export interface Bundle {
  readonly js: string;
  readonly css: string;
}

let cached: Bundle | null = null;

/** The browser bundle made by `npm run build`. Throws UserError when it is not there. */
export function browserBundle(): Bundle {
  if (cached) return cached;
  const dir = join(packageRoot(), 'dist', 'web');
  const js = join(dir, 'main.js');
  const css = join(dir, 'style.css');
  if (!existsSync(js) || !existsSync(css)) throw new UserError(`the browser bundle ${js} is missing: build it with 'npm run build'`);
  cached = { js: readFileSync(js, 'utf8'), css: readFileSync(css, 'utf8') };
  return cached;
}

/** JSON safe inside a <script> element: no `</script>` or `<!--` can end it early. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/** Script text safe inside a <script> element (`</script` written `<\/script`, the same to JavaScript). */
function scriptText(js: string): string {
  return js.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
}

export const escapeHtml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * Nothing from the network or other files: inline styles and scripts, the worker's Blob URL,
 * data: images. 'unsafe-eval' only because seedrandom (the deal numbers' generator, bundled)
 * finds the global object by `(0, eval)('this')` when it loads.
 */
const CSP = "default-src 'none'; script-src 'unsafe-inline' 'unsafe-eval' blob:; worker-src blob:; style-src 'unsafe-inline'; img-src data:";

/** A whole HTML document. `head` and `body` are HTML already escaped. */
export function htmlDocument(title: string, css: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="generator" content="limited">
<title>${escapeHtml(title)}</title>
<style>${css}</style>
</head>
<body>
${body}
</body>
</html>
`;
}

/** The viewer and player page for one deal (`limited view`, `limited play`, the report's viewer). */
export function dealPage(data: PageData): string {
  const b = browserBundle();
  const body =
    '<div id="app"><noscript>This page needs JavaScript to draw the table.</noscript></div>\n' +
    `<script type="application/json" id="limited-data">${scriptJson(data)}</script>\n` +
    `<script id="limited-app">${scriptText(b.js)}</script>`;
  return htmlDocument(`Limited · ${data.title}`, b.css, body);
}

/**
 * Refuses an `--out` that exists unless `force` (so that a page is not overwritten by mistake),
 * and one that cannot be written. Throws UserError (one line).
 */
export function checkOut(file: string, force: boolean, what = 'page'): void {
  let exists = false;
  let dir = false;
  try {
    const st = statSync(file);
    exists = true;
    dir = st.isDirectory();
  } catch {
    // not there: fine
  }
  if (dir) throw new UserError(`cannot write ${what} '${file}': it is a directory`);
  if (exists && !force) throw new UserError(`${file} exists: give --force to overwrite it`);
  checkWritable(file, what);
}

export function writePage(file: string, html: string): void {
  writeAtomic(file, html);
}
