/** `*` reaches every collection: the engine's server-wide scope. */
export function scopeText(collections: string[]): string {
  return collections.includes('*') ? 'server-wide' : collections.join(', ');
}

export function expiryText(expiresAt: number | null, now = Date.now()): string {
  if (expiresAt === null) {
    return 'never expires';
  }
  const when = new Date(expiresAt * 1000).toLocaleString();
  return expiresAt * 1000 < now ? `expired ${when}` : `expires ${when}`;
}
