/**
 * A value read from the database at scrape time, reused for `ttlMs`: a
 * scraper (or several, one per Prometheus replica) never costs more than
 * one bounded read per period, and concurrent scrapes share one read.
 * A failed read is not kept: the next scrape tries again.
 */
export function cachedLoader<T>(ttlMs: number, load: () => Promise<T>, clock: () => number = Date.now): () => Promise<T> {
  let value: { readonly at: number; readonly data: T } | undefined;
  let loading: Promise<T> | undefined;
  return () => {
    if (value && clock() - value.at < ttlMs) return Promise.resolve(value.data);
    loading ??= load()
      .then((data) => {
        value = { at: clock(), data };
        return data;
      })
      .finally(() => {
        loading = undefined;
      });
    return loading;
  };
}
