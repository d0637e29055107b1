/**
 * A memo of at most `limit` values by key, the oldest made forgotten first: for values made again cheaply
 * when forgotten (a request's session lookup, a chapter's side-by-side text), where an unbounded map would
 * grow with every key ever asked. A promise that rejects is forgotten, so a failure is not kept.
 */
export function boundedMemo<T>(limit: number) {
  const entries = new Map<string, T>();
  return (key: string, make: () => T): T => {
    if (entries.has(key)) return entries.get(key) as T;
    const value = make();
    entries.set(key, value);
    if (entries.size > limit) entries.delete(entries.keys().next().value as string);
    if (value instanceof Promise)
      value.catch(() => {
        if (entries.get(key) === value) entries.delete(key);
      });
    return value;
  };
}
