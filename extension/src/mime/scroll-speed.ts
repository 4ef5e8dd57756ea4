/** How long the moves of a scroll count towards its speed. */
const RECENT_MS = 500;
/**
 * A scroll with no move for this long has stopped (a loaded page still draws a frame by then).
 * On a page whose frames come slower, twice the time between its recent moves.
 */
const STOPPED_MS = 150;
/**
 * Faster than this, in window heights a second, nobody reads what the scroll passes: it is on
 * screen for less than two thirds of a second.
 */
const READING_WINDOWS_PER_S = 1.5;

interface Move {
  at: number;
  /** Pixels scrolled by this move; unknown for a panel's first move (where it stood is not read). */
  px: number | undefined;
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
 * then recomputes the page's styles and layout. So the first scroll's first move has no known
 * length, and its speed is known from its second move on.
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
        px: state.top === undefined ? undefined : Math.abs(top - state.top)
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
 * Whether `scroller` is being scrolled past faster than anyone reads: still moving, and more
 * than READING_WINDOWS_PER_S window heights a second over its recent moves. The speed is the
 * pixels of the moves after the first recent one over the time since it, so it does not depend
 * on how often the page draws: a loaded page that draws a frame every 200 ms and a quiet one
 * at 60 frames a second see the same fling as the same speed. A jump (to a heading, to the end)
 * is one move: what it lands on is not being passed.
 */
export function scrollingPast(
  scroller: HTMLElement | null,
  now = performance.now()
): boolean {
  const state = scroller ? followed.get(scroller) : undefined;
  const recent = state?.moves.filter(move => move.at >= now - RECENT_MS) ?? [];
  const first = recent[0];
  const last = recent.at(-1);
  if (!first || !last || recent.length < 2) {
    return false;
  }
  const span = last.at - first.at;
  const pace = span / (recent.length - 1);
  if (now - last.at > Math.max(STOPPED_MS, 2 * pace)) {
    return false;
  }
  const px = recent.slice(1).reduce((sum, move) => sum + (move.px ?? 0), 0);
  const windowsPerS = px / window.innerHeight / (Math.max(span, 1) / 1000);
  return windowsPerS > READING_WINDOWS_PER_S;
}

/**
 * Whether `scroller` moved within the last RECENT_MS: a reader is scrolling, and what lies
 * ahead of the view is about to be reached.
 */
export function scrolledLately(
  scroller: HTMLElement | null,
  now = performance.now()
): boolean {
  const last = scroller ? followed.get(scroller)?.moves.at(-1) : undefined;
  return last !== undefined && last.at >= now - RECENT_MS;
}
