import { createHash } from 'node:crypto';
import { escapeHtml } from './escapeHtml.js';
import { PAGE_CSS } from './page.css.js';
import { PAGE_JS } from './page.js.js';

/**
 * The whole document around a page's content: one self-contained file, its style and script inline,
 * nothing fetched (a Content-Security-Policy forbids any network use), readable without its script.
 */
/**
 * Nothing from the network, and of inline script only the page's own, allowed by its hash: were escaping ever to
 * fail, an injected script element or event handler (`onerror=`) would still not run.
 */
const POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; " +
  `script-src 'sha256-${createHash('sha256').update(PAGE_JS).digest('base64')}'`;

export function pageHtml(title: string, nav: string, main: string): string {
  return `${pageStart(title, nav)}${main}${PAGE_END}`;
}

/** The document up to the start of its `<main>`'s content, for a page written piece by piece. */
export function pageStart(title: string, nav: string): string {
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<meta http-equiv="Content-Security-Policy" content="${POLICY}">`,
    '<meta name="generator" content="legate">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${PAGE_CSS}</style>`,
    '</head>',
    '<body>',
    '<a class="skip" href="#main">Skip to the trajectories</a>',
    `<header><h1>${escapeHtml(title)}</h1>${nav}</header>`,
    '<main id="main">',
  ].join('\n');
}

/** The document after its `<main>`'s content. */
export const PAGE_END = [
  '</main>',
  '<footer><p>Made by legate from trajectory files; everything shown is escaped text from those files.</p></footer>',
  `<script>${PAGE_JS}</script>`,
  '</body>',
  '</html>',
].join('\n');
