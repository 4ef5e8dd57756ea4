/** How long the moves of a scroll count towards its speed. */
const RECENT_MS = 250;
/** A scroll with no move for this long has stopped (a loaded page still draws a frame by then). */
const STOPPED_MS = 150;

interface Move {
  at: number;
  /** Pixels scrolled by this move. */
  px: number;
}

interface Followed {
  moves: Move[];
  /** Where the last scroll left the panel; unknown until its first scroll. */
  top: number | undefined;
}

const followed = new WeakMap<HTMLElement, Followed>();

/**
 * Starts keeping the recent moves of `scroller`'s scrolls (once per element). Where it stands
 * now is not read: this starts while a notebook's first grids are added, and a layout read
 * then recomputes the page's styles and layout. So the first scroll's first move counts no
 * pixels, and its speed is known from its second move on.
 */
export function followScrolls(scroller: HTMLElement): void {
  if (followed.has(scroller)) {
    return;
  }
  const state: Followed = { moves: [], top: undefined };
  followed.set(scroller, state);
  scroller.addEventListener(
    'scroll',
    event => {
      const top = scroller.scrollTop;
      state.moves.push({
        at: event.timeStamp,
        px: state.top === undefined ? 0 : Math.abs(top - state.top)
      });
      state.top = top;
      while (
        (state.moves[0]?.at ?? event.timeStamp) <
        event.timeStamp - RECENT_MS
      ) {
        state.moves.shift();
      }
    },
    { passive: true }
  );
}

/**
 * Whether `scroller` is being scrolled past faster than anyone reads: more than a window's
 * height within the last quarter of a second, in more than one move, and still moving. What it
 * passes stays on screen for less than that. A jump (to a heading, to the end) is one move: what
 * it lands on is not being passed; a page down moves less than a window.
 */
export function scrollingPast(
  scroller: HTMLElement | null,
  now = performance.now()
): boolean {
  const state = scroller ? followed.get(scroller) : undefined;
  if (!state) {
    return false;
  }
  const last = state.moves.at(-1);
  if (!last || last.at < now - STOPPED_MS) {
    return false;
  }
  let moves = 0;
  let px = 0;
  for (const move of state.moves) {
    if (move.at >= now - RECENT_MS) {
      moves++;
      px += move.px;
    }
  }
  return moves > 1 && px > window.innerHeight;
}
