import { type PGlite, parse, protocol } from "@electric-sql/pglite";

const { serialize } = protocol;

function concat(parts: Uint8Array[]): Uint8Array {
  const message = new Uint8Array(parts.reduce((size, part) => size + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    message.set(part, offset);
    offset += part.length;
  }
  return message;
}

/**
 * Named prepared statements on PGlite's one connection. Its client has none (`query` parses and plans its
 * text on every call, 0.6 ms more for the session lookup), so this speaks the extended protocol itself: the
 * statement is parsed once under its name, then each call is one Bind (the parameters travel apart from the
 * text, never quoted into it), Describe, Execute and Sync, read with PGlite's own result parser.
 *
 * PGlite's protocol methods take none of its locks, so a call holds both that `query` holds: the
 * transaction lock (no other request's open transaction can see this statement run inside it) and the
 * query lock. Both are underscored methods of PGlite's declared class, not its documented API: they were
 * read in the version below, and db/client.server.test.ts fails on any other installed version until this
 * file is read again against it. The public `query` costs 5 to 7 times as much a lookup (ADR 74).
 */
export const PGLITE_VERSION_READ = "0.5.16";

export function pgliteStatements(client: PGlite) {
  const parsed = new Map<string, Promise<unknown>>();
  const run = (parts: Uint8Array[]) =>
    client._runExclusiveTransaction(() =>
      client._runExclusiveQuery(() => client.execProtocol(concat(parts), { syncToFs: false })),
    );
  return async (name: string, text: string, params: string[]): Promise<unknown[][]> => {
    let ready = parsed.get(name);
    if (!ready) {
      ready = run([serialize.parse({ name, text }), serialize.sync()]);
      parsed.set(name, ready);
      // A statement that failed to parse is parsed again on the next call.
      ready.catch(() => parsed.delete(name));
    }
    await ready;
    const { messages } = await run([
      serialize.bind({ statement: name, values: params }),
      serialize.describe({ type: "P" }),
      serialize.execute({}),
      serialize.sync(),
    ]);
    const [result] = parse.parseResults(messages, client.parsers, { rowMode: "array" });
    return (result?.rows ?? []) as unknown[][];
  };
}
