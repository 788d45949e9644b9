import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string): string => readFileSync(new URL(path, import.meta.url), 'utf8');

describe('README', () => {
  it('shows exactly the example that examples/everything.mjs runs', () => {
    const readme = read('../README.md');
    const block = /## Example[\s\S]*?```js\n([\s\S]*?)```/.exec(readme)?.[1];
    const example = read('../examples/everything.mjs');
    expect(block).toBe(example.slice(example.indexOf("import { Client")));
  });
});
