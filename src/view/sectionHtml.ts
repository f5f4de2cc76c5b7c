import type { Anchors } from './anchors.js';
import { divergenceHtml, type DivergenceMark } from './divergenceHtml.js';
import { attribute, escapeHtml } from './escapeHtml.js';
import type { IndexedEntry } from './indexRows.js';
import { runHtml } from './runHtml.js';
import type { TrajectoryModel } from './viewModel.js';

/**
 * A file's `<section class="trajectory">`: its name as the heading, what it is, its verdict's problem if
 * any, and the timeline of each conversation it holds, a divergence marked at its turn of the first.
 */
export function sectionHtml({ entry, model, anchor }: IndexedEntry, anchors: Anchors, mark?: DivergenceMark): string {
  const heading = `<h2${attribute('id', `${anchor}-title`)}>${escapeHtml(entry.file)}</h2>`;
  const open =
    `<section class="trajectory"${attribute('id', anchor)}${attribute('data-file', entry.file)}` +
    `${attribute('aria-labelledby', `${anchor}-title`)}>`;
  const problem =
    entry.verdict?.message === undefined || entry.verdict.status === 'passed'
      ? ''
      : `<p class="problem"><strong>${escapeHtml(entry.verdict.status)}:</strong> ` +
        `${escapeHtml(entry.verdict.message)}</p>`;
  if (model === undefined)
    return (
      `${open}${heading}${problem === '' ? '<p class="problem">The file could not be read.</p>' : problem}` +
      '</section>'
    );
  return `${open}${heading}${aboutHtml(model)}${problem}${timelines(model, anchors, mark)}</section>`;
}

function aboutHtml(model: TrajectoryModel): string {
  return (
    `<p class="meta"><strong>${escapeHtml(model.name)}</strong> · agent ${escapeHtml(model.agent)} · ` +
    `${escapeHtml(model.model)} · recorded ${escapeHtml(model.recordedAt)}</p>` +
    (model.description === undefined ? '' : `<p class="description">${escapeHtml(model.description)}</p>`)
  );
}

function timelines(model: TrajectoryModel, anchors: Anchors, mark: DivergenceMark | undefined): string {
  const extras = new Map<number, string>();
  if (mark !== undefined) extras.set(mark.turn, divergenceHtml(mark));
  if (model.runs.length === 1) return runHtml(model.runs[0]!, anchors, 0, extras);
  return model.runs
    .map(
      (run, i) =>
        `<h3>Conversation ${i + 1} of ${model.runs.length} · ${escapeHtml(run.model)}</h3>` +
        runHtml(run, anchors, 1, i === 0 ? extras : new Map()),
    )
    .join('');
}
