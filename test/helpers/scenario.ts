/**
 * Reading the result of test/fixtures/spring-scenario.js from a page, and comparing two results.
 */
import type { Page } from 'playwright';
import { expect } from 'vitest';

export interface ScenarioResult {
  backend: string;
  fallbackReason: string | null;
  x: number[];
  v: number[];
}

/** Loads `url` and waits for the scenario to publish; throws with the page's error if it failed. */
export async function loadScenario(page: Page, url: string): Promise<ScenarioResult> {
  await page.goto(url);
  await page.waitForFunction(() => 'scenarioResult' in window || 'scenarioError' in window, null, { timeout: 15_000 });
  const { result, error } = await page.evaluate(() => {
    const w = window as unknown as { scenarioResult?: ScenarioResult; scenarioError?: string };
    return { result: w.scenarioResult, error: w.scenarioError };
  });
  if (error !== undefined || result === undefined) throw new Error(`the scenario failed in the page: ${error}`);
  return result;
}

/**
 * Every backend runs the scenario from the same float32 inputs, and the states are rounded to
 * float32 after each of the 120 calls (relative rounding 6e-8, on values of magnitude ≤ ~3), so
 * honest backends can drift apart by about 120 · 6e-8 · 3 ≈ 2e-5. Measured: 4.3e-7 (SIMD vs JS),
 * 0 (scalar wasm vs JS). A wrong coefficient or a skipped call moves values by ≥ 1e-2.
 */
export const SCENARIO_TOLERANCE = 2e-5;

/** Largest absolute difference between two results' states. */
export function maxDifference(a: ScenarioResult, b: ScenarioResult): number {
  expect(a.x.length).toBe(b.x.length);
  let worst = 0;
  for (let i = 0; i < a.x.length; i++) worst = Math.max(worst, Math.abs(a.x[i]! - b.x[i]!), Math.abs(a.v[i]! - b.v[i]!));
  return worst;
}
