/**
 * The console's texts that name the registered engines. The console reads cells before any
 * engine is known and sits below the engine registry, so these texts are phrased above it,
 * from the engines' descriptors (`kernel/src/connections/console-wording.ts`), and handed down
 * with each cell.
 */
export interface ConsoleWording {
  /** `%connect`'s usage line, with the engine names it takes. */
  readonly connectUsage: string;
  /** `%connect`'s help. */
  readonly connectDescription: string;
  /** `%export`'s help. */
  readonly exportDescription: string;
  /** The advice when a request body holds a second JSON value: which endpoints take one a line. */
  readonly oneValueAdvice: string;
  /** What `slices=N` does, in parentheses after its refusal, or '' when no engine takes it. */
  readonly slicesNote: string;
}
