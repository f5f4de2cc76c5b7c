import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { scenarios } from '../../examples/scenarios.js';

// trajectories/README.md's claims about the folder, held to the folder.
const readme = readFileSync('trajectories/README.md', 'utf8');
const top = readdirSync('trajectories', { withFileTypes: true });

describe('trajectories/README.md', () => {
  it('says one file per scenario of examples/scenarios.ts, and there is exactly that', () => {
    expect(readme).toContain('(one file per scenario)');
    const files = top.filter((entry) => entry.isFile() && entry.name.endsWith('.yaml')).map((entry) => entry.name);
    expect(files.sort()).toEqual(scenarios.map((scenario) => `${scenario.name}.yaml`).sort());
  });

  it('names every folder the trajectories folder holds', () => {
    for (const folder of top.filter((entry) => entry.isDirectory())) expect(readme).toContain(`${folder.name}/`);
  });
});
