// legate/view: a self-contained HTML page of trajectories (an index, each run's timeline, a replay's
// verdict and divergence), and of two trajectories side by side. No network: style and script inline.
export type { ViewEntry, ViewVerdict } from './verdict.js';
export { viewHtml } from './viewHtml.js';
export { ViewPage, type ViewPageOptions } from './viewPage.js';
export { diffHtml } from './diffHtml.js';
export { compareHtml } from './compareHtml.js';
// The words the page (and `legate show`) uses for a response's usage, for what a tool call told the model, and
// for the argument a provenance refusal could not trace.
export { describeUsage } from '../trajectory/describeUsage.js';
export { resultText } from '../trajectory/resultText.js';
export { describeUntraced } from '../trajectory/describeUntraced.js';
// The words of a comparison of two corpora: `legate compare`'s table and its HTML page say the same.
export {
  COMPARISON_COLUMNS,
  comparisonCells,
  comparisonDetails,
  summaryLine,
  type ComparisonColumn,
} from '../trajectory/comparisonWords.js';
