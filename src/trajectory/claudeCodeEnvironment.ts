import type { Redaction } from './redaction.js';

/**
 * Claude Code's environment reminder, as its requests carry it (test/fixtures/agent-sdk/captured/, Claude Code
 * 2.1.334): the values that say where and when the agent runs, each redacted to a placeholder naming what it was.
 * Each pattern looks behind for its label, so only the value goes and the sentence around it is compared as it is.
 * That version sends no git status, branch or commits, only whether the folder is a git repository.
 */
export const CLAUDE_CODE_ENVIRONMENT: readonly Redaction[] = [
  { pattern: /(?<=\n ?- Primary working directory: )[^\n]+/, placeholder: '[working directory]' },
  { pattern: /(?<=\n ?- Is a git repository: )[^\n]+/, placeholder: '[git repository?]' },
  { pattern: /(?<=\n ?- Platform: )[^\n]+/, placeholder: '[platform]' },
  { pattern: /(?<=\n ?- Shell: )[^\n]+/, placeholder: '[shell]' },
  { pattern: /(?<=\n ?- OS Version: )[^\n]+/, placeholder: '[OS version]' },
  { pattern: /(?<=(?:^|\n)Today's date is )\d{4}-\d{2}-\d{2}(?=\.)/, placeholder: '[date]' },
];
