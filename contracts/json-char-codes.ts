/**
 * The character codes of JSON's structure, for the scanners that read answers as bytes or
 * text without building values (counting rows, skipping hits, writing CSV straight from a page).
 */
export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const OPEN_OBJECT = 0x7b;
export const CLOSE_OBJECT = 0x7d;
export const OPEN_ARRAY = 0x5b;
export const CLOSE_ARRAY = 0x5d;
export const COMMA = 0x2c;
export const COLON = 0x3a;
export const LF = 0x0a;
export const CR = 0x0d;
/** A number's sign, fraction point and digits, for telling plain numbers apart. */
export const MINUS = 0x2d;
export const POINT = 0x2e;
export const ZERO = 0x30;
export const NINE = 0x39;
