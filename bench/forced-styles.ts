/**
 * Style recalculations a page's own script forces while it opens: each is a synchronous
 * `UpdateLayoutTree` that Chromium's trace records with the script's stack (a computed-style
 * read or a layout read after the DOM changed). Counted by the script that asked, so a bench
 * can tell one theme read from one read per output.
 */
import { readFile, rm } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { z } from 'zod';

const frameSchema = z.object({
  functionName: z.string().optional(),
  url: z.string().optional()
});

const traceSchema = z.object({
  traceEvents: z.array(
    z.object({
      name: z.string(),
      ph: z.string().optional(),
      /** Microseconds, on a complete event. */
      dur: z.number().optional(),
      args: z
        .object({
          beginData: z
            .object({ stackTrace: z.array(frameSchema).optional() })
            .passthrough()
            .optional()
        })
        .passthrough()
        .optional()
    })
  )
});

export interface ForcedStyles {
  /** Forced recalculations whose stack holds a script URL containing `ownUrl`. */
  own: number;
  /** Their time, in ms. */
  ownMs: number;
  all: number;
  /** The first function of each own stack, with its count: where they come from. */
  ownBy: Map<string, number>;
}

/** Runs `action` on `page` under a trace and counts the style recalculations script forced. */
export async function countForcedStyles(
  browser: Browser,
  page: Page,
  tracePath: string,
  ownUrl: string,
  action: () => Promise<void>
): Promise<ForcedStyles> {
  await browser.startTracing(page, {
    path: tracePath,
    categories: [
      'devtools.timeline',
      'disabled-by-default-devtools.timeline.stack'
    ]
  });
  try {
    await action();
  } finally {
    await browser.stopTracing();
  }
  const trace = traceSchema.parse(
    JSON.parse(await readFile(tracePath, 'utf8'))
  );
  await rm(tracePath, { force: true });
  const counted: ForcedStyles = {
    own: 0,
    ownMs: 0,
    all: 0,
    ownBy: new Map()
  };
  for (const event of trace.traceEvents) {
    const stack = event.args?.beginData?.stackTrace;
    if (event.name !== 'UpdateLayoutTree' || !stack || stack.length === 0) {
      continue;
    }
    counted.all++;
    const own = stack.find(frame => frame.url?.includes(ownUrl));
    if (own) {
      counted.own++;
      counted.ownMs += (event.dur ?? 0) / 1000;
      const name = `${stack[0]?.functionName || '(anonymous)'} ← ${own.functionName || '(anonymous)'}`;
      counted.ownBy.set(name, (counted.ownBy.get(name) ?? 0) + 1);
    }
  }
  return counted;
}
