/**
 * The rows an open asks for in its answer: more than the tallest screen shows at the grid's
 * row height (a 2,160-pixel-high screen holds about 90 rows of 24 px), so the first paint
 * needs nothing more. The block's other rows are asked for right after, while it paints: a
 * search of 1,000 documents costs the engine, the kernel and the page several times what 100
 * cost, and none of them would be seen yet.
 */
export const FIRST_SCREEN_ROWS = 100;
