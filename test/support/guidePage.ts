// A guide of docs/ followed as printed in a new project (test/usingLegate.test.ts,
// test/docs/claudeAgentSdkDoc.test.ts): every `<!-- file: path -->` block is a file to write, every `<!-- run -->`
// block's lines are commands to run in order, offline, with the page's stand-in URL pointed at one the test serves.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

export type GuideStep = { kind: 'file'; path: string; text: string } | { kind: 'run'; commands: string[] };

/** The page's marked blocks, in order. */
export function guideSteps(page: string): GuideStep[] {
  return [...page.matchAll(/<!-- (file: (\S+)|run) -->\n```(\w+)\n([\s\S]*?)```/g)].map(
    ([, marker, path, , text]): GuideStep =>
      marker === 'run'
        ? { kind: 'run', commands: text!.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('#')) }
        : { kind: 'file', path: path!, text: text! },
  );
}

export function guideFiles(steps: readonly GuideStep[]): { path: string; text: string }[] {
  return steps.flatMap((step) => (step.kind === 'file' ? [step] : []));
}

export function guideCommands(steps: readonly GuideStep[]): string[] {
  return steps.flatMap((step) => (step.kind === 'run' ? step.commands : []));
}

/** Writes the page's files into the project, as printed. */
export function writeGuideFiles(project: string, steps: readonly GuideStep[]): void {
  for (const file of guideFiles(steps)) {
    mkdirSync(dirname(join(project, file.path)), { recursive: true });
    writeFileSync(join(project, file.path), file.text);
  }
}

/** The packages named, linked from legate's own node_modules (`root`) into the project's, bins too, as npm would. */
export function linkPackages(root: string, project: string, names: readonly string[]): void {
  for (const name of names) {
    const source = realpathSync(join(root, 'node_modules', name));
    const target = join(project, 'node_modules', name);
    mkdirSync(dirname(target), { recursive: true });
    if (!existsSync(target)) symlinkSync(source, target, 'dir');
    const { bin } = JSON.parse(readFileSync(join(source, 'package.json'), 'utf8')) as { bin?: string | object };
    const bins = typeof bin === 'string' ? { [name.split('/').pop()!]: bin } : (bin ?? {});
    for (const [command, path] of Object.entries(bins)) {
      const link = join(project, 'node_modules/.bin', command);
      if (!existsSync(link)) symlinkSync(join('..', name, path as string), link);
    }
  }
}

export interface GuideCommandOptions {
  /** The project the command runs in. */
  cwd: string;
  /** The page's stand-in URL, and the one the test serves in its place. */
  standIn: { page: string; served: string };
  /** Ends the command (the test timed out). */
  signal: AbortSignal;
  /** Variables on top of this process's, which lose their ANTHROPIC_, LEGATE_, npm_ and test runner ones. */
  env?: Record<string, string>;
}

/** Runs one of the page's command lines in a shell, offline; resolves with its output and status. */
export async function runGuideCommand(
  command: string,
  options: GuideCommandOptions,
): Promise<{ status: number; stdout: string; stderr: string }> {
  const inherited = Object.entries(process.env).filter(
    ([key]) => !/^(VITEST|npm_|ANTHROPIC_|LEGATE_)/.test(key) && !['CI', 'NODE_ENV', 'NODE_OPTIONS'].includes(key),
  );
  const env = { ...Object.fromEntries(inherited), NO_COLOR: '1', npm_config_offline: 'true', ...options.env };
  const line = command.replaceAll(options.standIn.page, options.standIn.served);
  try {
    const { stdout, stderr } = await promisify(execFile)('sh', ['-c', line], {
      cwd: options.cwd,
      env,
      signal: options.signal,
    });
    return { status: 0, stdout, stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code?: number; stdout?: string; stderr?: string };
    return { status: typeof code === 'number' ? code : -1, stdout: stdout ?? '', stderr: stderr ?? String(error) };
  }
}
