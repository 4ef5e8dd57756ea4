/**
 * A message holding an exact number (exact-json.ts) on its way between the kernel and the
 * extension. JupyterLab reads every kernel message with plain JSON.parse, which would round a
 * long past 2^53, so such a message crosses as its exact JSON text, `{ exactJson: "..." }`,
 * and the other end reads that text with the exact parser. A message with none crosses as it
 * is, at no extra cost.
 */
import { z } from 'zod';
import { exactJson, holdsExactNumber, parseExactJson } from './exact-json';

export const ExactWireSchema = z.strictObject({ exactJson: z.string() });
export type ExactWire = z.infer<typeof ExactWireSchema>;

/** The message as it crosses: itself, or its exact JSON text where it holds an exact number. */
export function toExactWire<T extends object>(message: T): T | ExactWire {
  return holdsExactNumber(message)
    ? { exactJson: exactJson(message) }
    : message;
}

/** The message that crossed, exact numbers read back as ExactNumbers. */
export function fromExactWire(data: unknown): unknown {
  const wire = ExactWireSchema.safeParse(data);
  return wire.success ? parseExactJson(wire.data.exactJson) : data;
}
