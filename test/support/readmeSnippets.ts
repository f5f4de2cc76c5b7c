import { readFileSync } from 'node:fs';

/** The README's tested examples: every code block marked `<!-- tested: name -->`, as the reader sees it. */
export function readmeSnippets(readme = readFileSync('README.md', 'utf8')): { name: string; code: string }[] {
  return [...readme.matchAll(/<!-- tested: ([\w-]+) -->\n```ts\n([\s\S]*?)```/g)].map(([, name, code]) => ({
    name: name!,
    code: code!,
  }));
}
