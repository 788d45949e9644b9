// The README's examples are exactly the example files that run.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string): string => readFileSync(new URL(path, import.meta.url), 'utf8');

describe('README', () => {
  it('shows exactly the example that examples/everything.mjs runs', () => {
    const readme = read('../README.md');
    const block = /## Example[\s\S]*?```js\n([\s\S]*?)```/.exec(readme)?.[1];
    const example = read('../examples/everything.mjs');
    expect(block).toBe(example.slice(example.indexOf('import { Client')));
  });

  it('shows exactly the structured output example that examples/structured-output.mjs runs', () => {
    const readme = read('../README.md');
    const block = /## Structured output validation[\s\S]*?```js\n([\s\S]*?)```/.exec(readme)?.[1];
    const example = read('../examples/structured-output.mjs');
    expect(block).toBe(example.slice(example.indexOf('import { Client')));
  });

  it('shows exactly the task example that examples/tasks.mjs runs', () => {
    const readme = read('../README.md');
    const block = /### Tasks[\s\S]*?```js\n([\s\S]*?)```/.exec(readme)?.[1];
    const example = read('../examples/tasks.mjs');
    expect(block).toBe(example.slice(example.indexOf('import { Client')));
  });

  it('shows exactly the skills example that examples/skills.mjs runs', () => {
    const readme = read('../README.md');
    const block = /## Skills \(SEP-2640\)[\s\S]*?```js\n([\s\S]*?)```/.exec(readme)?.[1];
    const example = read('../examples/skills.mjs');
    expect(block).toBe(example.slice(example.indexOf('import { Client')));
  });
});
