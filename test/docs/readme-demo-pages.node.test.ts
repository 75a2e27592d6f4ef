// The README's "Demo site" section lists every page of the site: each page of
// demo/site/vite.config.ts (the pages Vite builds and the header links) has its `- **Title**` item.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const README = readFileSync(`${root}README.md`, 'utf8');
const CONFIG = readFileSync(`${root}demo/site/vite.config.ts`, 'utf8');

it('the README lists every page of the demo site', () => {
  const pages = [...CONFIG.matchAll(/\{ file: '([\w-]+)', title: '([^']+)' \}/g)].map((m) => m[2]!);
  expect(pages.length, 'pages found in demo/site/vite.config.ts').toBeGreaterThanOrEqual(5);
  const section = README.slice(README.indexOf('## Demo site'), README.indexOf('\n## ', README.indexOf('## Demo site') + 1));
  const listed = [...section.matchAll(/^- \*\*([^*:]+)(?::\*\*|\*\*)/gm)].map((m) => m[1]!.trim());
  expect(listed.sort()).toEqual([...pages].sort());
});
