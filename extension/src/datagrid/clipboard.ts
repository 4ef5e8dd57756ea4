/** Said when the browser refuses both ways of writing the clipboard. */
export const CLIPBOARD_REFUSED =
  'The browser did not let the page write to the clipboard (it needs the page focused): click into the page and copy again.';

/**
 * Puts text on the clipboard. The async API needs a secure context and focus; the textarea
 * fallback covers notebooks served over plain HTTP on another host. Rejects with
 * CLIPBOARD_REFUSED when neither wrote it, so no one is told "Copied" of a clipboard left as it was.
 */
export async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    return;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    const copied = document.execCommand('copy');
    area.remove();
    if (!copied) {
      throw new Error(CLIPBOARD_REFUSED);
    }
  }
}
