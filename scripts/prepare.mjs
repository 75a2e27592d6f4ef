// npm's `prepare` script: builds dist/ when spring-solver is installed from a git URL or a folder
// (dist/ is not committed). npm runs `prepare`:
// - for a git dependency (`npm install git+https://…`): in its own clone, once inside the
//   `npm install` that gives it its devDependencies, and once more before packing it;
// - for a folder (`npm install ../spring-solver`, linked; or `--install-links`, packed): in that folder;
// - on `npm pack` and `npm publish` here;
// - on this repository's own `npm install` and `npm ci`.
// That last one, and the git clone's inner `npm install`, skip the build: `npm run build`, `npm start`
// and `npm test` build anyway (a skipped build saves about 20 s of every `npm ci`, see
// docs/DECISIONS.md). npm names the folder it was started in INIT_CWD and the command npm_command.
// When the folder has no devDependencies (a bare clone installed by path), it gets them with
// `npm ci` first, whose own prepare is then the skipped kind.
import { spawnSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = realpathSync(fileURLToPath(new URL('..', import.meta.url)));
const { INIT_CWD, npm_command: command, npm_execpath: npmCli } = process.env;
const startedHere = INIT_CWD !== undefined && existsSync(INIT_CWD) && realpathSync(INIT_CWD) === here;

if (startedHere && (command === 'install' || command === 'ci')) process.exit(0);

/** Runs npm (the one running this script when npm says which) in this folder; exits on failure. */
function npm(...args) {
  const [file, argv] = npmCli ? [process.execPath, [npmCli, ...args]] : ['npm', args];
  const { status, error } = spawnSync(file, argv, { cwd: here, stdio: 'inherit', shell: !npmCli && process.platform === 'win32' });
  if (status !== 0) {
    console.error(`spring-solver prepare: npm ${args.join(' ')} failed in ${here}${error ? `: ${error.message}` : ''}`);
    process.exit(status || 1);
  }
}

const DEV_TOOLS = ['assemblyscript', 'typescript'];
if (!DEV_TOOLS.every((name) => existsSync(join(here, 'node_modules', name, 'package.json')))) npm('ci', '--no-audit', '--no-fund');
npm('run', 'build');
