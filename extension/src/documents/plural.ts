/** `1 change`, `2 changes` (`many` for a plural not made with an s). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
