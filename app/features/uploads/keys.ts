/** Where an upload's variants live: content-addressed, so a key's bytes never change (cached for a year). */
export const uploadPrefix = (hash: string) => `uploads/${hash}/`;

/** Served forever: a key under uploads/<hash>/ names one file's one rendering, never replaced. */
export const IMMUTABLE_MEDIA = /^uploads\/[0-9a-f]{32}\/[\w.-]+$/;
