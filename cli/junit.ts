import { basename, dirname } from 'node:path';

/** One trajectory file's result, as a JUnit test case. */
export interface ReportCase {
  /** The file as shown (relative to the working folder). */
  file: string;
  /** failed: it diverged (a JUnit failure); error: it could not be replayed; skipped: not run after --bail. */
  outcome: 'passed' | 'failed' | 'error' | 'skipped';
  seconds: number;
  /** The error's code (`trajectory_divergence`, `invalid_trajectory`, ...), for a failed or errored file. */
  code?: string;
  /** The whole message, for a failed or errored file. */
  message?: string;
  /** For a file of several samples: how many there were and how many passed (a `samples` property of the case). */
  samples?: { total: number; passed: number };
}

/**
 * A JUnit XML report of one replay, the shape CI systems read: one `<testsuite name="legate replay">`
 * with its counts and time, one `<testcase>` per trajectory file (classname = its folder, name = its
 * file name), a `<failure>` for a divergence, an `<error>` for a file that could not be replayed, and
 * `<skipped/>` for a file not run. Every text and attribute is escaped, and the characters XML 1.0
 * cannot hold (most control characters) are written as `\uXXXX`.
 */
export function junitXml(cases: readonly ReportCase[], seconds: number): string {
  const count = (outcome: ReportCase['outcome']) => cases.filter((c) => c.outcome === outcome).length;
  const suite = {
    name: 'legate replay',
    tests: cases.length,
    failures: count('failed'),
    errors: count('error'),
    skipped: count('skipped'),
    time: time(seconds),
  };
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuite ${attributes(suite)}>`,
    ...cases.map(testCase),
    '</testsuite>',
    '',
  ].join('\n');
}

function testCase(result: ReportCase): string {
  const folder = dirname(result.file);
  const names = { classname: folder, name: basename(result.file), time: time(result.seconds) };
  const head = `  <testcase ${attributes(names)}`;
  // Several samples: `4/5 passed` as the case's property, which CI systems show beside it.
  const samples =
    result.samples === undefined
      ? []
      : [
          '    <properties>',
          `      <property ${attributes({ name: 'samples', value: `${result.samples.passed}/${result.samples.total} passed` })}/>`,
          '    </properties>',
        ];
  const body = (...lines: string[]) => [`${head}>`, ...samples, ...lines, '  </testcase>'].join('\n');
  if (result.outcome === 'passed') return samples.length === 0 ? `${head}/>` : body();
  if (result.outcome === 'skipped') return body('    <skipped message="not run after --bail"/>');
  const element = result.outcome === 'failed' ? 'failure' : 'error';
  const message = result.message ?? '';
  const summary = { message: message.split('\n')[0]!, type: result.code ?? 'error' };
  return body(`    <${element} ${attributes(summary)}>${xmlText(message, false)}</${element}>`);
}

function attributes(values: Record<string, string | number>): string {
  return Object.entries(values)
    .map(([name, value]) => `${name}="${xmlText(String(value), true)}"`)
    .join(' ');
}

function time(seconds: number): string {
  return seconds.toFixed(3);
}

/** Characters XML 1.0 cannot hold at all, even escaped: most C0 controls, lone surrogates, U+FFFE and U+FFFF. */
const NOT_XML = /[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/**
 * Text safe in XML content, or in a double-quoted attribute: markup characters as entities, a character XML
 * cannot hold as `\uXXXX`, a carriage return (and in an attribute, a tab or line break: the parser would make it
 * a space) as a character reference.
 */
function xmlText(text: string, attribute: boolean): string {
  return text
    .replace(NOT_XML, (char) => `\\u${char.codePointAt(0)!.toString(16).padStart(4, '0')}`)
    .replace(attribute ? /[&<>"'\t\n\r]/g : /[&<>\r]/g, (char) => ENTITIES[char]!);
}

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
  '\t': '&#9;',
  '\n': '&#10;',
  '\r': '&#13;',
};
