import { z } from 'zod';

/** Content schemas of the requests the kernel answers; unknown keys are tolerated, as Jupyter adds them over time. */
export const ExecuteRequest = z.object({
  code: z.string(),
  silent: z.boolean().default(false),
  store_history: z.boolean().default(true),
  user_expressions: z.record(z.string(), z.unknown()).default({}),
  // As ipykernel: a frontend that does not say it can answer input_request is never asked.
  allow_stdin: z.boolean().default(false),
  stop_on_error: z.boolean().default(true)
});

/**
 * What a frontend may say of an execute_request in its metadata. `searchbook.valueOnly`: the
 * frontend reads only the answers' values and shows nothing (a quiet magic call in a Python
 * kernel), so no text or HTML grid is built for them. `searchbook.answerAsBuffer`: the
 * frontend (searchbook's Python magics) reads an answer's JSON bytes from a buffer of the
 * message (the payload's `answerBuffer`) instead of the `answer` string. `searchbook.setFirst`:
 * `%set` lines run before the cell, in the same request (the Python values a magic's cell
 * names): one refused fails the request and nothing of the cell runs. `searchbook.answerEarly`
 * (with answerAsBuffer): a search answer's bytes are also sent as soon as they arrive, before
 * the kernel reads them (ANSWER_BYTES_MIME), so the frontend parses them meanwhile. Anything
 * else there is ignored.
 */
const NOTHING_ASKED = {
  valueOnly: false,
  answerAsBuffer: false,
  answerEarly: false,
  setFirst: []
};
export const ExecuteMetadata = z
  .object({
    searchbook: z
      .object({
        valueOnly: z.boolean().default(false),
        answerAsBuffer: z.boolean().default(false),
        answerEarly: z.boolean().default(false),
        setFirst: z.array(z.string()).default([])
      })
      .catch(NOTHING_ASKED)
      .default(NOTHING_ASKED)
  })
  .catch({ searchbook: NOTHING_ASKED });

export const CodeAtCursor = z.object({
  code: z.string(),
  cursor_pos: z.number().int().nonnegative(),
  detail_level: z.number().int().default(0)
});

export const IsCompleteRequest = z.object({ code: z.string() });

export const CommInfoRequest = z.object({ target_name: z.string().optional() });

export const CommOpen = z.object({
  comm_id: z.string().min(1),
  target_name: z.string(),
  data: z.record(z.string(), z.unknown()).default({})
});

export const CommMsg = z.object({
  comm_id: z.string().min(1),
  data: z.record(z.string(), z.unknown()).default({})
});

export const ShutdownRequest = z.object({
  restart: z.boolean().default(false)
});

/** history_request: JupyterLab's console asks for the `tail`; notebooks and other frontends use `range` and `search`. */
export const HistoryRequest = z.object({
  output: z.boolean().default(false),
  raw: z.boolean().default(true),
  hist_access_type: z.enum(['range', 'tail', 'search']).default('tail'),
  session: z.number().int().default(0),
  start: z.number().int().default(0),
  stop: z.number().int().optional(),
  n: z.number().int().nonnegative().optional(),
  pattern: z.string().default('*'),
  unique: z.boolean().default(false)
});
export type HistoryQuery = z.infer<typeof HistoryRequest>;
