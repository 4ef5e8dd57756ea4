import type { Locator, Page } from 'playwright-core';

/**
 * The side panel's resource dialogs (Typesense aliases, presets, stopwords, sets and their
 * items): fill an entry's JSON, review the request it will send, send it, or delete an entry.
 */
export const resourceDialog = (page: Page): Locator =>
  page.locator('.jp-Dialog');

/** Opens an entry's dialog with `button`, fills it and asks for a review; returns the request shown before sending. */
export async function review(
  page: Page,
  button: Locator,
  json: string,
  name?: string
): Promise<string> {
  const dialog = resourceDialog(page);
  await button.click();
  await dialog.waitFor();
  if (name !== undefined) {
    await dialog.getByLabel('Name', { exact: true }).fill(name);
  }
  await dialog.getByLabel('JSON', { exact: true }).fill(json);
  await dialog.getByRole('button', { name: 'Review' }).click();
  const request = dialog.getByLabel('Request to send');
  await request.waitFor();
  return (await request.textContent()) ?? '';
}

/** Sends the reviewed request and waits for the dialog to close. */
export async function send(page: Page): Promise<void> {
  const dialog = resourceDialog(page);
  await dialog.getByRole('button', { name: 'Send' }).click();
  await dialog.waitFor({ state: 'detached' });
}

/** Deletes an entry through its Delete… button; returns the request shown before sending. */
export async function remove(
  page: Page,
  within: Locator,
  name: string
): Promise<string> {
  await within.getByRole('button', { name: `Delete ${name}` }).click();
  const request = resourceDialog(page).getByLabel('Request to send');
  await request.waitFor();
  const text = (await request.textContent()) ?? '';
  await send(page);
  await within
    .getByRole('listitem', { name, exact: true })
    .waitFor({ state: 'detached' });
  return text;
}
