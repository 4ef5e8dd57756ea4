/**
 * A size said next to the cap it passed. Rounded to the cap's unit, a size just past the cap
 * reads as the cap itself ("256 MiB is larger than 256 MiB"), so there it is said in bytes,
 * with how far past the cap it is.
 */

const grouped = (n: number) => n.toLocaleString('en-US');
const bytesText = (n: number) => `${grouped(n)} ${n === 1 ? 'byte' : 'bytes'}`;

/** `bytes` as `format` writes it, unless that reads as no more than `cap` written alike. */
export function sizePast(
  bytes: number,
  cap: number,
  format: (bytes: number) => string
): string {
  const rounded = format(bytes);
  if (bytes <= cap || rounded !== format(cap)) {
    return rounded;
  }
  return `${bytesText(bytes)}, ${bytesText(bytes - cap)} more than ${format(cap)}`;
}
