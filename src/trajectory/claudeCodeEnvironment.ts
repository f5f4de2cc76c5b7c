import type { Redaction } from './redaction.js';

/**
 * Claude Code's environment reminder, as its requests carry it (test/fixtures/agent-sdk/captured/): the lines that
 * say where and when the agent runs, each value redacted to a placeholder naming what it was. Each pattern looks
 * behind for its label, so only the value goes and the sentence around it is compared as it is.
 */
export const CLAUDE_CODE_ENVIRONMENT: readonly Redaction[] = [
  { pattern: /(?<=(?:^|\n)\s*(?:Primary w|W)orking directory: )[^\n]+/, placeholder: '[working directory]' },
  { pattern: /(?<=(?:^|\n)\s*Is (?:the )?directory a git repo: )[^\n]+/, placeholder: '[git repo?]' },
  { pattern: /(?<=(?:^|\n)\s*Platform: )[^\n]+/, placeholder: '[platform]' },
  { pattern: /(?<=(?:^|\n)\s*Shell: )[^\n]+/, placeholder: '[shell]' },
  { pattern: /(?<=(?:^|\n)\s*OS Version: )[^\n]+/, placeholder: '[OS version]' },
  { pattern: /(?<=(?:^|\n)\s*Today's date: )[^\n]+/, placeholder: '[date]' },
  { pattern: /(?<=(?:^|\n)\s*Current branch: )[^\n]+/, placeholder: '[git branch]' },
  { pattern: /(?<=(?:^|\n)\s*Main branch[^\n:]*: )[^\n]+/, placeholder: '[git branch]' },
  { pattern: /(?<=\nStatus:\n)(?:[^\n]+\n)*?(?=\n|$)/, placeholder: '[git status]\n' },
  { pattern: /(?<=\nRecent commits:\n)(?:[^\n]+(?:\n|$))+/, placeholder: '[recent commits]' },
];
