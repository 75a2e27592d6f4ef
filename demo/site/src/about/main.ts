// The landing page: which backend this browser gets by default.
import { createSolver } from 'spring-solver';
import '../common/style.css';
import { markReady, showError } from '../common/page.js';

async function main(): Promise<void> {
  const solver = await createSolver();
  document.getElementById('backend')!.textContent = `This browser runs the '${solver.backend}' backend by default.`;
  solver.dispose();
  markReady();
}

main().catch(showError);
