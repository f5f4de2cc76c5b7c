import { diffTrajectories } from '../trajectory/diffTrajectories.js';
import type { Trajectory } from '../trajectory/types.js';
import { Anchors } from './anchors.js';
import { divergenceHtml, type DivergenceMark } from './divergenceHtml.js';
import { escapeHtml } from './escapeHtml.js';
import { pageHtml } from './pageHtml.js';
import { sectionHtml } from './sectionHtml.js';
import { viewModel } from './viewModel.js';

type Side = { file: string; trajectory: Trajectory };

/**
 * Two trajectory files side by side, their first difference (as `legate diff` finds it: volatile header
 * fields left out) marked at its turn in both, with what each file holds there side by side.
 */
export function diffHtml(a: Side, b: Side): string {
  const anchors = new Anchors();
  const change = diffTrajectories(a.trajectory, b.trajectory)[0];
  const labels: [string, string] = [a.file, b.file];
  const mark: DivergenceMark | undefined =
    change === undefined
      ? undefined
      : {
          turn: change.where.startsWith('turn ') ? Number(change.where.slice('turn '.length)) : 0,
          path: change.path,
          expected: change.before,
          actual: change.after,
          message: `The files first differ in the ${change.where}${change.path === '' ? '' : ` at ${change.path}`}.`,
          labels,
        };
  const column = (side: Side, n: number) =>
    sectionHtml(
      {
        entry: { file: side.file, trajectory: side.trajectory },
        model: viewModel(side.trajectory),
        anchor: anchors.unique(`side-${n}`),
      },
      anchors,
      // The turn is marked on both sides, each showing both files' values there.
      mark === undefined || mark.turn === 0 ? undefined : mark,
    );
  const overview =
    mark === undefined
      ? '<p class="same">The two files agree (the recording time and versions aside).</p>'
      : mark.turn === 0
        ? divergenceHtml(mark)
        : `<p class="first-difference">First difference: turn ${mark.turn}` +
          `${mark.path === '' ? '' : ` at <code>${escapeHtml(mark.path)}</code>`}, marked in both files below.</p>`;
  const title = `${a.file} compared with ${b.file}`;
  return pageHtml(title, '', `${overview}<div class="compare">${column(a, 1)}${column(b, 2)}</div>`);
}
