// The load hook of moduleLog.mjs (it runs on the hooks thread): writes each module's URL before it loads.
import { appendFileSync } from 'node:fs';

let log;

export function initialize(data) {
  log = data.log;
}

export async function load(url, context, nextLoad) {
  appendFileSync(log, `${url}\n`);
  return nextLoad(url, context);
}
