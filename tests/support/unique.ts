let counter = 0;

/**
 * A name no other test, worker or run has used: tests share one database per file (and one server per
 * browser run), so fixed names would collide when files run in parallel or a run is repeated.
 */
export function unique(prefix = ""): string {
  return `${prefix}${process.pid.toString(36)}${Date.now().toString(36)}${(counter++).toString(36)}`;
}

/** A new reader's details: a unique username, its e-mail and a password the forms accept. */
export function newReader(prefix = "reader", password = "blood moon rising") {
  const username = unique(prefix);
  return { username, email: `${username}@example.com`, password };
}
