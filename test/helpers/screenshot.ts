/**
 * Screenshots for the browser tests: saved under test-results/, and measured for blankness as
 * the variance of the luminance over a region (a uniform region has variance 0).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { PNG } from 'pngjs';
import type { Page } from 'playwright';

export const RESULTS_DIR = new URL('../../test-results/', import.meta.url);

/** Saves a viewport screenshot as test-results/<name>.png; returns the luminance variance (0–255 scale, squared) inside `selector`'s box. */
export async function screenshotVariance(page: Page, name: string, selector: string): Promise<number> {
  const box = await page.locator(selector).boundingBox();
  if (!box) throw new Error(`screenshot ${name}: ${selector} is not visible`);
  const png = await page.screenshot();
  await mkdir(RESULTS_DIR, { recursive: true });
  await writeFile(new URL(`${name}.png`, RESULTS_DIR), png);
  return luminanceVariance(PNG.sync.read(png), box);
}

function luminanceVariance(image: PNG, box: { x: number; y: number; width: number; height: number }): number {
  const x0 = Math.max(0, Math.floor(box.x));
  const y0 = Math.max(0, Math.floor(box.y));
  const x1 = Math.min(image.width, Math.ceil(box.x + box.width));
  const y1 = Math.min(image.height, Math.ceil(box.y + box.height));
  let [count, sum, sumSquares] = [0, 0, 0];
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const i = 4 * (y * image.width + x);
      const luminance = 0.2126 * image.data[i]! + 0.7152 * image.data[i + 1]! + 0.0722 * image.data[i + 2]!;
      count++;
      sum += luminance;
      sumSquares += luminance * luminance;
    }
  }
  if (count === 0) return 0;
  const mean = sum / count;
  return sumSquares / count - mean * mean;
}
