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

export { SCENARIO_TOLERANCE } from './tolerances.js';

/** Largest absolute difference between two results' states. */
export function maxDifference(a: ScenarioResult, b: ScenarioResult): number {
  expect(a.x.length).toBe(b.x.length);
  let worst = 0;
  for (let i = 0; i < a.x.length; i++) worst = Math.max(worst, Math.abs(a.x[i]! - b.x[i]!), Math.abs(a.v[i]! - b.v[i]!));
  return worst;
}
