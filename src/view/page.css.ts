/**
 * The page's style, inline. Readable at 1280x800 and at 390 pixels wide (one column, code scrolls
 * sideways); colours follow the reader's light or dark preference; every colour repeats a fact the
 * text already says.
 */
export const PAGE_CSS = `
:root { color-scheme: light dark; --fg: #1b1f24; --muted: #545d68; --bg: #ffffff; --panel: #f4f6f8; --line: #d0d7de;
  --ok: #116329; --ok-bg: #dafbe1; --bad: #a40e26; --bad-bg: #ffebe9; --warn: #7d4e00; --warn-bg: #fff8c5;
  --info: #0a3069; --info-bg: #ddf4ff; --lane0: #0969da; --lane1: #8250df; --lane2: #bf3989; --lane3: #1a7f37;
  --lane4: #9a6700; --lane5: #cf222e; --link: #0550ae; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --muted: #9da7b3; --bg: #0d1117; --panel: #161b22;
  --line: #30363d; --ok: #7ee787; --ok-bg: #033a16; --bad: #ffa198; --bad-bg: #490202; --warn: #f2cc60;
  --warn-bg: #3b2300; --info: #a5d6ff; --info-bg: #0c2d6b; --lane0: #58a6ff; --lane1: #bc8cff; --lane2: #ff80c8;
  --lane3: #56d364; --lane4: #e3b341; --lane5: #ff7b72; --link: #79c0ff; } }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg);
  background: var(--bg); }
a { color: var(--link); }
header, main, footer { max-width: 1200px; margin: 0 auto; padding: 0 1rem; }
h1 { font-size: 1.6rem; margin: 1rem 0 .5rem; }
h2 { font-size: 1.3rem; margin: 2rem 0 .25rem; overflow-wrap: anywhere; }
h3, h4, h5, h6 { font-size: 1rem; margin: .25rem 0; }
.skip { position: absolute; left: -9999px; }
.skip:focus { left: 1rem; top: .5rem; background: var(--bg); padding: .25rem .5rem; }
:focus-visible { outline: 3px solid var(--lane0); outline-offset: 2px; }
nav { display: flex; flex-wrap: wrap; gap: .75rem; align-items: center; margin-bottom: 1rem; }
nav label { font-weight: 600; }
input[type=search] { font: inherit; padding: .3rem .5rem; min-width: 16rem; max-width: 100%; color: var(--fg);
  background: var(--bg); border: 1px solid var(--muted); border-radius: 4px; }
button { font: inherit; padding: .3rem .6rem; color: var(--fg); background: var(--panel);
  border: 1px solid var(--muted); border-radius: 4px; cursor: pointer; }
.table-wrap { overflow-x: auto; }
.index-part { content-visibility: auto; }
.tally { margin: .25rem 0; }
table { border-collapse: collapse; width: 100%; font-size: .9rem; }
caption { text-align: left; font-weight: 600; padding: .25rem 0; }
th, td { text-align: left; padding: .3rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
thead th { background: var(--panel); }
pre { margin: .25rem 0; padding: .5rem; background: var(--panel); border: 1px solid var(--line); border-radius: 4px;
  overflow-x: auto; white-space: pre-wrap; overflow-wrap: anywhere; font: 13px/1.4 ui-monospace, SFMono-Regular,
  Menlo, Consolas, monospace; }
.said { white-space: pre-wrap; margin: .25rem 0; overflow-wrap: anywhere; }
.note, .usage, .run-summary, .meta { color: var(--muted); font-size: .875rem; }
.label { font-weight: 600; font-size: .8rem; margin: .5rem 0 0; color: var(--muted); }
section.trajectory { border-top: 2px solid var(--line); margin-top: 1.5rem; }
.turn { position: relative; margin: .75rem 0; padding: .5rem .75rem; border: 1px solid var(--line);
  border-left: 4px solid var(--lane0); border-radius: 4px; }
.has-lanes .turn { margin-left: calc(var(--lane) * 3rem); }
.turn { --lane: 0; }
.turn.lane-0 { border-left-color: var(--lane0); } .turn.lane-1 { --lane: 1; border-left-color: var(--lane1); }
.turn.lane-2 { --lane: 2; border-left-color: var(--lane2); } .turn.lane-3 { --lane: 3;
  border-left-color: var(--lane3); }
.turn.lane-4 { --lane: 4; border-left-color: var(--lane4); } .turn.lane-5 { --lane: 5;
  border-left-color: var(--lane5); }
.lane-label, .lane-name { font-weight: 600; padding: 0 .4rem; border-radius: 3px; border: 1px solid currentColor; }
span.lane-0 { color: var(--lane0); } span.lane-1 { color: var(--lane1); } span.lane-2 { color: var(--lane2); }
span.lane-3 { color: var(--lane3); } span.lane-4 { color: var(--lane4); } span.lane-5 { color: var(--lane5); }
.handoff { margin: .75rem 0 .25rem; padding: .25rem .5rem; font-weight: 600; border: 2px dashed var(--muted);
  border-radius: 4px; }
.handoff::before { content: "⇄ "; }
.taint-rail { position: absolute; left: -14px; top: -0.8rem; bottom: -0.8rem; border-left: 3px dashed var(--bad); }
.turn.on-taint-path:first-of-type .taint-rail { top: 0; }
details.call { margin: .5rem 0; border: 1px solid var(--line); border-radius: 4px; padding: .25rem .5rem;
  background: var(--bg); }
details.call.on-taint-path { border-color: var(--bad); box-shadow: inset 3px 0 0 var(--bad); }
details > summary { cursor: pointer; }
details.call > summary { display: list-item; }
.tool { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-weight: 600; }
.call-body { padding: .25rem 0 .25rem .5rem; }
.subrun { margin: .5rem 0; padding-left: .75rem; border-left: 3px double var(--muted); }
.badge { display: inline-block; font-size: .8rem; line-height: 1.3; padding: .05rem .45rem; margin: .1rem 0;
  border-radius: 999px; border: 1px solid currentColor; }
.badge-ok, .badge-approved, .badge-verdict-passed { color: var(--ok); background: var(--ok-bg); }
.badge-error, .badge-blocked, .badge-denied, .badge-taints, .badge-tainted-by, .badge-verdict-diverged,
  .badge-verdict-error, .badge-verdict-missing { color: var(--bad); background: var(--bad-bg); }
.badge-invalid, .badge-suspended, .badge-incomplete, .badge-planned { color: var(--warn);
  background: var(--warn-bg); }
.badge-served, .badge-verdict-recorded { color: var(--info); background: var(--info-bg); }
#index .badge { white-space: nowrap; }
.taint-link { margin: 0 0 .5rem .75rem; font-size: .875rem; }
.taint-link::before { content: "↳ "; color: var(--bad); }
.divergence { margin: .75rem 0; padding: .5rem .75rem; border: 2px solid var(--bad); border-radius: 4px;
  background: var(--bad-bg); }
.divergence-title { margin: 0 0 .25rem; }
.sides { display: grid; grid-template-columns: 1fr 1fr; gap: .5rem; }
.side { min-width: 0; }
.compare { display: grid; grid-template-columns: 1fr 1fr; gap: 1rem; }
.compare > section { min-width: 0; }
.comparison tr.changed { background: var(--warn-bg); } .comparison tr.gated { background: var(--bad-bg); }
.comparison ul.changes { margin: .25rem 0 0; padding-left: 1.25rem; font-weight: normal; }
.verdict { font-weight: 600; } .verdict.gated { color: var(--bad); }
.problem { padding: .5rem .75rem; border: 2px solid var(--bad); border-radius: 4px; }
@media (max-width: 700px) {
  body { font-size: 14px; }
  header, main, footer { padding: 0 .5rem; }
  .has-lanes .turn { margin-left: calc(var(--lane) * .75rem); }
  .sides, .compare { grid-template-columns: 1fr; }
  input[type=search] { min-width: 0; width: 100%; }
  th, td { padding: .25rem .3rem; }
}
`;
