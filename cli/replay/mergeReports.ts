import { missingProblem } from '../fileProblem.js';
import type { CliIo } from '../io.js';
import type { ReplayReport } from './replayReport.js';
import { terminalText } from '../terminalText.js';
import { readBlobs, type BlobRecord } from './replayBlob.js';
import { VerdictLog } from './verdictLog.js';

/**
 * `legate replay --merge-reports`: the shards' blobs as one unsharded run. The verdict lines in corpus order, the
 * summary, the report and the exit code are those of one run over every file; with --bail, the files after the
 * first failure in corpus order are not run, whatever their shard replayed. Blobs that are not the shards of one
 * run, each once, are refused with one line (exit 2).
 */
export function mergeReports(
  paths: string[],
  report: ReplayReport,
  io: CliIo,
  options: { flakiness?: boolean } = {},
): number {
  const blobs = readBlobs(paths, io.cwd);
  if (typeof blobs === 'string') {
    io.err(`legate replay: ${terminalText(blobs)}`);
    return 2;
  }
  const { corpus, settings, problems } = blobs[0]!.blob;
  report.describeRun({ corpus, settings, problems, shard: { index: 1, count: 1 } });
  const records = new Map<string, BlobRecord>();
  for (const { blob } of blobs) for (const record of blob.records) records.set(record.file, record);
  for (const path of problems.missing) io.err(`legate replay: ${missingProblem(path)}`);
  for (const problem of problems.unreadable) io.err(`legate replay: ${terminalText(problem)}`);
  for (const path of problems.missing) report.pathProblem(path, 'not_found', missingProblem(path));
  for (const problem of problems.unreadable) {
    report.pathProblem(problem.slice(0, problem.indexOf(': ')), 'unreadable', problem);
  }
  const log = new VerdictLog(io, report, options);
  let stopped = false;
  const notRun = { afterBail: 0, unrecorded: 0 };
  for (const file of corpus) {
    const record = records.get(file);
    if (stopped || record?.kind !== 'replayed') {
      // Not run: after the first failure (--bail), or a file its own shard did not run (it bailed before it, which
      // can only be after that first failure); a file no blob records at all was not run by anyone.
      if (record === undefined && !stopped) notRun.unrecorded++;
      else notRun.afterBail++;
      const trajectory = record?.kind === 'replayed' ? record.verdict.trajectory : record?.trajectory;
      report.skipped(file, trajectory);
      continue;
    }
    log.file(file, record.verdict, record.seconds);
    if (!record.verdict.ok && settings.bail) stopped = true;
  }
  return log.finish(settings.verb, problems, notRun);
}
