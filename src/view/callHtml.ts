import type { Anchors } from './anchors.js';
import { badgesOf, outcomeAttribute } from './badges.js';
import { attribute, escapeHtml } from './escapeHtml.js';
import { prettyJson } from './prettyJson.js';
import type { CallModel, RunModel } from './trajectoryModel.js';

/** Output longer than this many characters is collapsed in a details of its own. */
export const LONG_OUTPUT = 1200;
/** At most this many characters of one text are written into the page; the file holds the rest. */
export const MAX_SHOWN = 60_000;

/**
 * A tool call: a `<details class="call">` whose summary names the tool and its badges in words; expanded,
 * the input (JSON), the output (long ones collapsed), the taint path, and a sub-agent's run inside it
 * (rendered by `runHtml`, the timeline the call is part of, after the call's own anchors).
 */
export function callHtml(call: CallModel, anchors: Anchors, runHtml: (run: RunModel) => string): string {
  const badges = badgesOf(call)
    .map((badge) => `<span class="badge badge-${badge.kind}">${escapeHtml(badge.text)}</span>`)
    .join(' ');
  const taintedBy =
    call.taintedBy === undefined
      ? undefined
      : `tainted by ${escapeHtml(call.taintedBy.tool)} (turn ${call.taintedBy.turn})`;
  const taints = call.taints
    ? ' <span class="badge badge-taints">taint source · untrusted content entered here</span>'
    : '';
  const attributes =
    attribute('id', anchors.call(call)) +
    attribute('class', `call${call.taints || call.taintedBy !== undefined ? ' on-taint-path' : ''}`) +
    attribute('data-call-id', call.id) +
    attribute('data-tool', call.tool) +
    attribute('data-outcome', outcomeAttribute(call)) +
    attribute('data-lane', call.lane) +
    attribute('data-rule', call.rule) +
    attribute('data-source', call.source) +
    attribute('data-code', call.code) +
    attribute('data-argument', call.argument) +
    attribute('data-audit', call.audit?.rule) +
    attribute(
      'data-approval',
      call.approval === undefined ? undefined : call.approval.approve ? 'approved' : 'denied',
    ) +
    attribute('data-taints', call.taints ? 'true' : undefined) +
    attribute('data-tainted-by', call.taintedBy?.id) +
    attribute('data-server', call.server ? 'true' : undefined);
  const server = call.server ? ' <span class="note">(server tool)</span>' : '';
  const source = taintedBy === undefined ? '' : ` <span class="badge badge-tainted-by">${taintedBy}</span>`;
  const tool = `<span class="tool">${escapeHtml(call.tool)}</span>`;
  const summary = `<summary>${tool}${server} ${badges}${taints}${source}</summary>`;
  // The link to the source sits after the details (a link inside a summary would be nested interactive
  // content), so it is reachable while the call is collapsed.
  const link =
    call.taintedBy === undefined
      ? ''
      : `<p class="taint-link"><a class="tainted-by" href="#${anchors.call(call.taintedBy)}">${taintedBy}</a></p>`;
  const body = [
    '<div class="call-body">',
    call.partialInput === undefined
      ? `<p class="label">Input</p><pre class="input">${shown(prettyJson(call.input))}</pre>`
      : '<p class="label">Input, cut off by max_tokens: the JSON as far as it arrived</p>' +
        `<pre class="input">${shown(call.partialInput)}</pre>`,
    outputHtml(call.output),
    call.subRun === undefined
      ? ''
      : `<div class="subrun" data-agent="${escapeHtml(call.subRun.agent)}">` +
        `<p class="label">Sub-agent run: ${escapeHtml(call.subRun.agent)}</p>${runHtml(call.subRun)}</div>`,
    '</div>',
  ].join('');
  return `<details${attributes}>${summary}${body}</details>${link}`;
}

function outputHtml(output: string | undefined): string {
  const label = '<p class="label">Output</p>';
  if (output === undefined) return `${label}<p class="note">No result was recorded.</p>`;
  if (output.length <= LONG_OUTPUT) return `${label}<pre class="output">${shown(output)}</pre>`;
  return (
    `${label}<details class="long-output"><summary>Show the whole output (${output.length} characters)</summary>` +
    `<pre class="output">${shown(output)}</pre></details>`
  );
}

/** Text for a `<pre>`, escaped, cut at {@link MAX_SHOWN} characters with a note saying how many are left out. */
export function shown(text: string): string {
  if (text.length <= MAX_SHOWN) return escapeHtml(text);
  const left = text.length - MAX_SHOWN;
  return `${escapeHtml(text.slice(0, MAX_SHOWN))}\n… ${left} more characters, not shown: see the file.`;
}
