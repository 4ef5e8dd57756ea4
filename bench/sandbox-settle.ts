/**
 * Lets a sandbox benchmark collect garbage between phases, so that each figure measures its
 * own phase: loading a million documents leaves a full collection due (some 200 ms on that
 * heap), which otherwise lands in whichever phase happens to allocate next.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

export function settleHeap(): void {
  collect();
}
