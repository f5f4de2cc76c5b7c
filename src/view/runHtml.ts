import type { Anchors } from './anchors.js';
import { callHtml, shown } from './callHtml.js';
import { escapeHtml } from './escapeHtml.js';
import type { PartModel, RunModel, TurnModel } from './trajectoryModel.js';

/** Extra HTML placed in a turn's article (a divergence), by 1-based turn number. */
type TurnExtras = ReadonlyMap<number, string>;

/**
 * A run's timeline: the user's input, then each turn as an `<article class="turn">` in its agent's lane
 * (a run with several agents shows each in a band of its own, labelled with the agent's name; a handoff
 * is a marked line where the lane changes), and the run's totals.
 */
export function runHtml(run: RunModel, anchors: Anchors, depth: number, extras: TurnExtras = new Map()): string {
  const lanes = run.lanes.length > 1;
  const path = taintPathTurns(run);
  const turns = run.turns.map((turn) => turnHtml(turn, run, anchors, depth, lanes, path, extras.get(turn.number)));
  const beyond = [...extras.entries()].filter(([n]) => n > run.turns.length || n < 1).map(([, html]) => html);
  const taint = run.tainted ? ` · tainted by ${escapeHtml(run.taintSource ?? 'an untrusted tool')}` : '';
  return [
    `<div class="run${lanes ? ' has-lanes' : ''}" data-lanes="${escapeHtml(run.lanes.join(' '))}">`,
    lanes ? laneLegend(run.lanes) : '',
    `<div class="user-input"><p class="label">User input</p><pre class="input-text">${shown(run.input)}</pre></div>`,
    ...turns,
    ...beyond,
    `<p class="run-summary">Stopped with <strong>${escapeHtml(run.stopReason)}</strong> · ` +
      `${run.turns.length} turn${run.turns.length === 1 ? '' : 's'} · ${escapeHtml(run.usage)}${taint}</p>`,
    '</div>',
  ].join('');
}

/** The run's agents, each in its lane's colour and by name (the name carries the meaning). */
function laneLegend(lanes: readonly string[]): string {
  const names = lanes.map((lane, i) => `<span class="lane-name lane-${i % 6}">${escapeHtml(lane)}</span>`);
  return `<p class="lane-legend">Agents (one lane each): ${names.join(' → ')}</p>`;
}

function turnHtml(
  turn: TurnModel,
  run: RunModel,
  anchors: Anchors,
  depth: number,
  lanes: boolean,
  path: ReadonlySet<number>,
  extra: string | undefined,
): string {
  const level = Math.min(3 + depth, 6);
  const lane = run.lanes.indexOf(turn.lane);
  const handoff =
    turn.handoff === undefined
      ? ''
      : `<p class="handoff" data-from="${escapeHtml(turn.handoff.from)}" data-to="${escapeHtml(turn.handoff.to)}">` +
        `Handoff: ${escapeHtml(turn.handoff.from)} → ${escapeHtml(turn.handoff.to)}` +
        `${turn.handoff.reason === undefined ? '' : ` (${escapeHtml(turn.handoff.reason)})`}</p>`;
  const classes = ['turn', lanes ? `lane-${lane % 6}` : '', path.has(turn.number) ? 'on-taint-path' : '']
    .filter((c) => c !== '')
    .join(' ');
  return (
    handoff +
    `<article class="${classes}" data-turn="${turn.number}" data-agent="${escapeHtml(turn.lane)}" ` +
    `data-lane="${escapeHtml(turn.lane)}">` +
    (path.has(turn.number) ? '<div class="taint-rail" aria-hidden="true"></div>' : '') +
    `<h${level}>Turn ${turn.number}${lanes ? ` · <span class="lane-label">${escapeHtml(turn.lane)}</span>` : ''}` +
    `</h${level}>` +
    turn.parts.map((part) => partHtml(part, anchors, depth)).join('') +
    `<p class="usage">${escapeHtml(turn.stopReason)} · ${escapeHtml(turn.usage)}</p>` +
    (extra ?? '') +
    '</article>'
  );
}

function partHtml(part: PartModel, anchors: Anchors, depth: number): string {
  switch (part.kind) {
    case 'text':
      return `<p class="said">${shown(part.text)}</p>`;
    case 'thinking':
      return part.text === undefined
        ? '<details class="thinking"><summary>Thinking (redacted)</summary>' +
            '<p class="note">The API sent this thinking encrypted.</p></details>'
        : `<details class="thinking"><summary>Thinking</summary><pre>${shown(part.text)}</pre></details>`;
    case 'call':
      return callHtml(part.call, anchors, (subRun) => runHtml(subRun, anchors, depth + 1));
    case 'block':
      return (
        `<details class="block"><summary>Block: ${escapeHtml(part.type)}</summary>` +
        `<pre>${shown(part.json)}</pre></details>`
      );
  }
}

/** The turns the path of taint crosses: from each source call's turn to the turn of each call it blocked. */
function taintPathTurns(run: RunModel): Set<number> {
  const turns = new Set<number>();
  for (const turn of run.turns)
    for (const part of turn.parts)
      if (part.kind === 'call' && part.call.taintedBy !== undefined)
        for (let n = part.call.taintedBy.turn; n <= turn.number; n++) turns.add(n);
  return turns;
}
