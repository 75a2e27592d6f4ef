// Copies the Springs page screenshot saved by test/demo/demo-site.node.test.ts to docs/springs.png,
// the image the README shows. `npm run screenshot` runs that test first.
import { copyFileSync, existsSync, statSync } from 'node:fs';

const from = new URL('../test-results/springs.png', import.meta.url);
const to = new URL('../docs/springs.png', import.meta.url);

if (!existsSync(from)) {
  console.error('test-results/springs.png is missing: run `npm run screenshot` (it runs test/demo/demo-site.node.test.ts first).');
  process.exit(1);
}
copyFileSync(from, to);
console.log(`docs/springs.png written (${Math.round(statSync(to).size / 1024)} KiB)`);
