import { readFileSync } from 'node:fs';

/**
 * The README's tested examples (or another doc's): every code block marked `<!-- tested: name -->`, as the
 * reader sees it; a block indented under a list item is given without that indentation.
 */
export function readmeSnippets(readme = readFileSync('README.md', 'utf8')): { name: string; code: string }[] {
  return [...readme.matchAll(/<!-- tested: ([\w-]+) -->\n( *)```ts\n([\s\S]*?)\n\2```/g)].map(
    ([, name, indent, code]) => ({
      name: name!,
      code: `${code!
        .split('\n')
        .map((line) => (line.startsWith(indent!) ? line.slice(indent!.length) : line))
        .join('\n')}\n`,
    }),
  );
}
