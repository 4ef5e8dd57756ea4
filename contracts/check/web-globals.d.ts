// The web-platform globals contracts may use: both halves have them (browsers, and Node's own
// globals), unlike the rest of the DOM or Node's modules. Read only by contracts/tsconfig.json.
declare class TextEncoder {
  encode(input?: string): Uint8Array;
}
declare class TextDecoder {
  constructor(
    label?: string,
    options?: { fatal?: boolean; ignoreBOM?: boolean }
  );
  decode(input?: Uint8Array, options?: { stream?: boolean }): string;
}
/** Base64 to a string of one character per byte (what a compressed answer is written in). */
declare function atob(data: string): string;
