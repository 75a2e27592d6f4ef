// Copies the screenshots saved by the browser tests (test/demo/demo-site.node.test.ts,
// test/demo/demo-three.node.test.ts) to docs/, the images the README shows. `npm run screenshot`
// runs those tests first.
import { copyFileSync, existsSync, statSync } from 'node:fs';

const SHOTS = [
  ['springs.png', 'springs.png'],
  ['three-skeletons.png', 'three.png'],
];

for (const [name, target] of SHOTS) {
  const from = new URL(`../test-results/${name}`, import.meta.url);
  const to = new URL(`../docs/${target}`, import.meta.url);
  if (!existsSync(from)) {
    console.error(`test-results/${name} is missing: run \`npm run screenshot\` (it runs the demo tests first).`);
    process.exit(1);
  }
  copyFileSync(from, to);
  console.log(`docs/${target} written (${Math.round(statSync(to).size / 1024)} KiB)`);
}
