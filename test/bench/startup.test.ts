import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareReplayProject, runSubject, startupSubjects } from '../../bench/startup/startupScenario.js';
import { builtLegate } from '../support/builtPackage.js';

/**
 * The startup bench times processes beside their anchors; the comparison is only honest if each one does its job
 * (the version printed, the package imported, the file replayed and passed) and its CPU time is the child's own.
 * Nothing here is timed: a figure is only checked to be there.
 */
const root = resolve('.');
const project = mkdtempSync(join(tmpdir(), 'legate-test-'));
const subjects = startupSubjects(root, project);

beforeAll(async () => {
  await builtLegate(); // the subjects run the built package
  prepareReplayProject(root, project);
}, 120_000);
afterAll(() => rmSync(project, { recursive: true, force: true }));

describe('startup bench scenario', () => {
  it.each(Object.values(subjects))('$name does its job, and its CPU time is counted', (subject) => {
    const run = runSubject(subject);
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    expect(run.stdout).toMatch(subject.prints);
    expect(run.cpuMs).toBeGreaterThan(0);
  });

  it('says when a subject fails: the exit status passes through, and what it printed does not match', () => {
    const run = runSubject({ ...subjects.replayOne, cwd: tmpdir() });
    expect(run.status).not.toBe(0);
    expect(run.stdout).not.toMatch(subjects.replayOne.prints);
  });
});
