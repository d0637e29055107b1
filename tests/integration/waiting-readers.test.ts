import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "#db/client.server";
import {
  followSessionEvents,
  revokeSessions,
  stopFollowingSessionEvents,
} from "~/features/auth/session.server";
import { sharedViewerOf } from "~/features/page-cache/viewer.server";
import { setNewChapterEmails } from "~/features/release-mails/subscription.server";
import { startRevisionPoll, stopRevisionPoll } from "~/features/site/revision.server";
import { siteRoutes } from "~/routes";
import { loader as chapterLoader } from "~/routes/chapter";
import { loader as notifyState } from "~/routes/notify-state";
import { drivers, openTestDatabase } from "../support/database";
import { createChapter, createReader, grantMembership } from "../support/factories";

const sharedViewer = sharedViewerOf(siteRoutes.match);

/**
 * Readers waiting for a chapter's release share its kept page (ADR 50), apart from the members who may read
 * it already: their page holds the text. A coin-locked page stays each reader's own. "Notify me" on the shared
 * page asks for the reader's choice (`/notify/state`).
 */
const cookies = (cookie: string) => new Map([cookie.split("=") as [string, string]]);
const settings = "16 serif 1.75 auto medium medium start folded off";

describe.each(drivers)("readers waiting for a release on %s", (driver) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(driver);
  });
  afterAll(() => handle.close());

  it("groups readers who wait apart from members who read ahead, and never shares a coin lock", async () => {
    const waiting = await createChapter({ releaseAt: new Date(Date.now() + 3_600_000) });
    const paid = await createChapter({ coinsRequired: 5 });
    const reader = await createReader({ prefix: "waiting" });
    const member = await createReader({ prefix: "ahead" });
    await grantMembership(member.id, 30);
    expect(await sharedViewer(`/chapter/${waiting}`, cookies(reader.cookie))).toBe(
      `reader waiting ${settings}`,
    );
    expect(await sharedViewer(`/chapter/${waiting}`, cookies(member.cookie))).toBe(`reader ${settings}`);
    expect(await sharedViewer(`/chapter/${paid}`, cookies(reader.cookie))).toBeUndefined();
    expect(await sharedViewer(`/chapter/${waiting}`, new Map())).toBe("visitor");
  });

  it("marks the waiting page shareable and leaves the reader's choice out of it", async () => {
    const waiting = await createChapter({ releaseAt: new Date(Date.now() + 3_600_000) });
    const reader = await createReader({ prefix: "waiting" });
    await setNewChapterEmails(reader.id, true);
    const request = new Request(`http://localhost/chapter/${waiting}`, {
      headers: { cookie: reader.cookie },
    });
    const context = { documentRequest: false, documentOnly: {} } as never;
    const result = (await chapterLoader({ request, params: { id: String(waiting) }, context } as never)) as {
      data: { chapter: { lock?: { kind: string }; html?: string }; notify?: boolean };
      init: { headers?: Record<string, string> } | null;
    };
    expect(result.data.chapter.lock?.kind).toBe("release");
    expect(result.data.chapter.html).toBeUndefined();
    expect(result.data.notify).toBeUndefined();
    expect(JSON.stringify(result.init?.headers ?? {})).toMatch(/shareable/i);
    const state = await notifyState({ request, params: {}, context } as never);
    expect(state.status).toBe(200);
    expect(state.headers.get("cache-control")).toBe("private, no-store");
    expect(await state.json()).toEqual({ on: true });
    const visitor = await notifyState({
      request: new Request("http://localhost/notify/state"),
      params: {},
      context,
    } as never);
    expect(visitor.status).toBe(401);
  });

  it("answers from memory, without a promise, for a kept session on a chapter it may read, until a revocation", async () => {
    const free = await createChapter();
    const waiting = await createChapter({ releaseAt: new Date(Date.now() + 3_600_000) });
    const reader = await createReader({ prefix: "kept" });
    await followSessionEvents(60_000);
    await startRevisionPoll(60_000);
    try {
      const page = `/chapter/${free}`;
      // The first asks the database (the session and the catalogue are not kept yet)…
      const first = sharedViewer(page, cookies(reader.cookie));
      expect(first).toBeInstanceOf(Promise);
      expect(await first).toBe(`reader ${settings}`);
      // …then the same group comes straight from memory.
      expect(sharedViewer(page, cookies(reader.cookie))).toBe(`reader ${settings}`);
      // A lock that needs a query (does this reader read ahead?) still asks, with the same answer as before.
      const waits = sharedViewer(`/chapter/${waiting}`, cookies(reader.cookie));
      expect(waits).toBeInstanceOf(Promise);
      expect(await waits).toBe(`reader waiting ${settings}`);
      // Signed out everywhere on this instance: the next request no longer finds the session.
      await revokeSessions(reader.id);
      expect(await sharedViewer(page, cookies(reader.cookie))).toBeUndefined();
    } finally {
      stopRevisionPoll();
      stopFollowingSessionEvents();
    }
  });
});
