// legate/view: a self-contained HTML page of trajectories (an index, each run's timeline, a replay's
// verdict and divergence), and of two trajectories side by side. No network: style and script inline.
export type { ViewEntry, ViewVerdict } from './verdict.js';
export { viewHtml } from './viewHtml.js';
export { diffHtml } from './diffHtml.js';
