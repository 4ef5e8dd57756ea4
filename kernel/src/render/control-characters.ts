/**
 * Control characters other than line feed and tab, as `\u001b`: text/plain outputs go to
 * terminals and to JupyterLab's ANSI rendering, where an engine's escape sequences would
 * colour, hide or overwrite what the notebook shows (C1 controls include a one-byte CSI).
 */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

export function escapeControlCharacters(text: string): string {
  return text.replace(
    CONTROL,
    c => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`
  );
}
