import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { REPO } from './jupyter-lab';

/** axe-core's findings on part of the page: rule, impact and the elements, serious and critical only. */
export async function axeFindings(
  page: Page,
  selectors: string[]
): Promise<string[]> {
  const source = await readFile(
    join(REPO, 'node_modules', 'axe-core', 'axe.min.js'),
    'utf8'
  );
  await page.evaluate(source);
  return page.evaluate(async include => {
    interface AxeResults {
      violations: {
        id: string;
        impact: string | null;
        help: string;
        nodes: { target: unknown[]; failureSummary?: string }[];
      }[];
    }
    const axe = (
      window as unknown as {
        axe: { run(context: unknown, options: unknown): Promise<AxeResults> };
      }
    ).axe;
    const results = await axe.run(
      { include: include.map(s => [s]) },
      { resultTypes: ['violations'] }
    );
    return results.violations
      .filter(v => v.impact === 'serious' || v.impact === 'critical')
      .map(
        v =>
          `${v.impact} ${v.id} (${v.help}): ${v.nodes
            .map(n => `${JSON.stringify(n.target)} ${n.failureSummary ?? ''}`)
            .join('; ')}`
      );
  }, selectors);
}
