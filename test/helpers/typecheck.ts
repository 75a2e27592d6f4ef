/**
 * Type-checks snippets as a consumer of the package would (tsc --strict, module nodenext): the
 * files must lie inside the package (under test-results/), so that `spring-solver` and its
 * subpaths resolve to the package itself by self-reference, through its `exports` (the built
 * dist/, as after `npm install spring-solver`). Used by the README-blocks and doc-examples tests.
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Writes `dir`/tsconfig.json for `files` and runs tsc on it; returns tsc's report, '' when every file type-checks. */
export async function typeCheck(dir: string, files: string[]): Promise<string> {
  const config = {
    compilerOptions: {
      strict: true,
      module: 'nodenext',
      moduleResolution: 'nodenext',
      target: 'es2022',
      noEmit: true,
      skipLibCheck: true,
      types: ['node'],
      typeRoots: [join(ROOT, 'node_modules/@types')],
    },
    files,
  };
  await writeFile(join(dir, 'tsconfig.json'), JSON.stringify(config));
  const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
  return promisify(execFile)(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json')], { cwd: ROOT, maxBuffer: 1 << 26 }).then(
    () => '',
    (error: { stdout: string }) => error.stdout,
  );
}
