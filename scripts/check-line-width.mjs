// Fails when a line of source runs past the width Biome formats to (biome.json `lineWidth`).
// Biome wraps code but never splits a string, a comment or a regular expression; this catches those.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const width = JSON.parse(readFileSync('biome.json', 'utf8')).formatter.lineWidth;
const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.ts', '*.mjs', '*.js'], {
  encoding: 'utf8',
})
  .split('\n')
  .filter((file) => file !== '');

const long = [];
for (const file of files) {
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      if (line.length > width)
        long.push(`${file}:${i + 1}:${width + 1}: line is ${line.length} characters, over ${width}`);
    });
}
for (const problem of long) console.error(problem);
if (long.length > 0) {
  console.error(`${long.length} line(s) over ${width} characters: split the string or comment, or shorten the name.`);
  process.exit(1);
}
