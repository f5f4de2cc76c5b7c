import type { Anchors } from './anchors.js';
import { divergenceHtml, type DivergenceMark } from './divergenceHtml.js';
import { attribute, escapeHtml } from './escapeHtml.js';
import type { IndexedEntry } from './indexRows.js';
import { runHtml } from './runHtml.js';
import type { TrajectoryModel } from './trajectoryModel.js';

/** A file's section in two parts: the attributes of its `<section class="trajectory">`, and what it holds. */
interface SectionParts {
  attributes: string;
  body: string;
}

/**
 * A file's `<section class="trajectory">`: its name as the heading, what it is, its verdict's problem if
 * any, and the timeline of each conversation it holds, a divergence marked at its turn of the first.
 */
export function sectionHtml(item: IndexedEntry, anchors: Anchors, mark?: DivergenceMark): string {
  return openSection(sectionParts(item, anchors, mark));
}

/** The section as the page shows it, its content laid out. */
export function openSection({ attributes, body }: SectionParts): string {
  return `<section class="trajectory"${attributes}>${body}</section>`;
}

/**
 * The section set aside until it is opened, on a page of too many runs to lay out at once: the element, hidden, with
 * its id and file (the index links to it, the filter finds it) and the ids its content holds (`data-anchors`, so a
 * link to one of its calls finds it: `anchors`, separated by spaces), and its content as the text of a comment,
 * which a browser keeps as one string rather than as elements. The page's script opens it (parses that text into the
 * section) when a link leads there. The comment cannot end early: an HTML comment ends only at `-->` or `--!>`,
 * and every `--` of the content is written `-&#45;`, which reads back as `--` where the content can hold it (text
 * and quoted attribute values: every string from a file is escaped, and legate's own markup has no `--` elsewhere).
 */
export function inertSection({ attributes, body }: SectionParts, anchors: string): string {
  const held = body.replaceAll('--', '-&#45;');
  return (
    `<section class="trajectory"${attributes}${attribute('data-anchors', anchors)} data-inert hidden>` +
    `<!--${held}--></section>`
  );
}

/** The section's attributes and content; the anchors of its heading and calls are taken from `anchors`. */
export function sectionParts(
  { entry, model, anchor }: IndexedEntry,
  anchors: Anchors,
  mark?: DivergenceMark,
): SectionParts {
  const title = anchors.unique(`${anchor}-title`);
  // Joined, so that it is one flat string: a page keeps it until it is written.
  const attributes = [
    attribute('id', anchor),
    attribute('data-file', entry.file),
    attribute('aria-labelledby', title),
  ].join('');
  const heading = `<h2${attribute('id', title)}>${escapeHtml(entry.file)}</h2>`;
  const problem =
    entry.verdict?.message === undefined || entry.verdict.status === 'passed'
      ? ''
      : `<p class="problem"><strong>${escapeHtml(entry.verdict.status)}:</strong> ` +
        `${escapeHtml(entry.verdict.message)}</p>`;
  if (model === undefined)
    return {
      attributes,
      body: `${heading}${problem === '' ? '<p class="problem">The file could not be read.</p>' : problem}`,
    };
  return { attributes, body: `${heading}${aboutHtml(model)}${problem}${timelines(model, anchors, mark)}` };
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
