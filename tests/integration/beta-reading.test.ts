import fs from "node:fs";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "#db/client.server";
import { auditLog, betaFeedback, chapters, users } from "#db/schema";
import { postFeedback, setBetaReaders } from "~/features/beta/commands.server";
import { BETA_LIMITS } from "~/features/beta/limits";
import { blockTexts } from "~/features/beta/paragraphs";
import { loadBetaChapter } from "~/features/beta/queries.server";
import { exportContent } from "~/features/content/export.server";
import { readContentDir } from "~/features/content/files.server";
import { importContent } from "~/features/content/import.server";
import { releasesFeed } from "~/features/feeds/releases.server";
import { robots, sitemap } from "~/features/feeds/sitemap.server";
import { siteRoutes } from "~/routes";
import { loader as adminFeedbackLoader } from "~/routes/admin/chapter-feedback";
import { action as betaAction, loader as betaLoader } from "~/routes/beta/chapter";
import { loader as betaIndexLoader } from "~/routes/beta/index";
import { loader as chapterLoader } from "~/routes/chapter";
import { loader as homeLoader } from "~/routes/home";
import { loader as tocLoader } from "~/routes/toc";
import { loader as wikiLoader } from "~/routes/wiki/index";
import { drivers, openTestDatabase } from "../support/database";
import { createReader, grantMembership, type TestReader } from "../support/factories";
import { tempDir } from "../support/temp";

/** The demo's beta draft (content/chapters/11.md): its number and words of its text. */
const BETA = 11;
const BETA_WORDS = "The shot did not hit her";

function request(path: string, cookie?: string, body?: Record<string, string>) {
  return new Request(`http://localhost${path}`, {
    headers: cookie ? { Cookie: cookie } : {},
    ...(body ? { method: "POST", body: new URLSearchParams(body) } : {}),
  });
}

const context = () => ({ documentRequest: true, documentOnly: {} as Record<string, string> }) as never;

/** A loader's or action's answer as text and status (a thrown response's status; 200 otherwise). */
async function answer(run: () => unknown): Promise<{ status: number; text: string }> {
  try {
    const value = await run();
    const data = (value as { data?: unknown; init?: { status?: number } })?.init
      ? (value as { data: unknown; init: { status?: number } })
      : { data: value, init: { status: 200 } };
    return { status: data.init.status ?? 200, text: JSON.stringify(data.data) };
  } catch (error) {
    const status = (error as { init?: { status?: number }; status?: number }).init?.status;
    return { status: status ?? (error as Response).status ?? 500, text: JSON.stringify(error) };
  }
}

describe.each(drivers)("beta reading on %s", (driver) => {
  let handle: DatabaseHandle;
  let chapterId: number;
  let author: TestReader;
  beforeAll(async () => {
    handle = await openTestDatabase(driver);
    const [row] = await handle.db.select({ id: chapters.id }).from(chapters).where(eq(chapters.number, BETA));
    chapterId = row?.id ?? 0;
    author = await createReader({ prefix: "beta-author" });
    await handle.db.update(users).set({ role: "author" }).where(eq(users.id, author.id));
  });
  afterAll(() => handle.close());

  /** A signed-in reader holding `days` of membership (180: First Human; 90: Analyst; none: free). */
  async function reader(days?: number) {
    const made = await createReader({ prefix: "beta" });
    if (days) await grantMembership(made.id, days);
    return made;
  }

  const readBeta = (cookie?: string, id = String(BETA)) =>
    answer(() =>
      betaLoader({ request: request(`/beta/${id}`, cookie), params: { id }, context: {} } as never),
    );

  it("the demo's draft chapter 11 is marked for beta readers by the content import", async () => {
    const [row] = await handle.db
      .select({ status: chapters.status, betaReaders: chapters.betaReaders })
      .from(chapters)
      .where(eq(chapters.id, chapterId));
    expect(row).toEqual({ status: "draft", betaReaders: true });
  });

  it("a First Human supporter and the author read it; a visitor, a free reader and an Analyst get the 404", async () => {
    const first = await reader(180);
    const page = await readBeta(first.cookie);
    expect(page.status).toBe(200);
    expect(page.text).toContain(BETA_WORDS);
    expect(page.text).toContain('id=\\"p-0\\"');
    expect((await readBeta(author.cookie)).text).toContain(BETA_WORDS);

    for (const cookie of [undefined, (await reader()).cookie, (await reader(90)).cookie]) {
      const refused = await readBeta(cookie);
      expect(refused).toMatchObject({ status: 404 });
      expect(refused.text).not.toContain(BETA_WORDS);
    }
    // A number that is no beta chapter (a published chapter, none at all, not a number) is the same 404.
    for (const id of ["1", "9999", "abc"]) expect((await readBeta(first.cookie, id)).status).toBe(404);
  });

  it("/beta lists the beta chapters to a First Human supporter, and names none to anyone else", async () => {
    const list = (cookie?: string) =>
      answer(() => betaIndexLoader({ request: request("/beta", cookie), params: {}, context: {} } as never));
    const member = await list((await reader(180)).cookie);
    expect(member.text).toContain('"allowed":true');
    expect(member.text).toContain("What the Bells Keep");
    for (const cookie of [undefined, (await reader()).cookie, (await reader(90)).cookie]) {
      const other = await list(cookie);
      expect(other.text).toContain('"allowed":false');
      expect(other.text).not.toContain("What the Bells Keep");
    }
  });

  it("the beta text reaches no public surface: feeds, sitemap, robots, /toc, /chapter/11, home, wiki", async () => {
    for (const format of ["atom", "rss"] as const) {
      const xml = await releasesFeed(format);
      expect(xml).not.toContain(BETA_WORDS);
      expect(xml).not.toContain("What the Bells Keep");
    }
    const map = await sitemap();
    expect(map).not.toContain("/beta");
    expect(map).not.toContain(`/chapter/${BETA}<`);
    expect(robots(siteRoutes.disallowed)).toContain("Disallow: /beta");
    expect(siteRoutes.isPrivate(`/beta/${BETA}`)).toBe(true);
    expect(siteRoutes.match(`/beta/${BETA}`)?.value.rules.share).toBe("none");

    // Even to a First Human supporter, who reads it at /beta: the public pages show released chapters only.
    const member = await reader(180);
    for (const cookie of [undefined, member.cookie]) {
      const toc = await answer(() =>
        tocLoader({ request: request("/toc", cookie), params: {}, context: {} } as never),
      );
      expect(toc.text).not.toContain("What the Bells Keep");
      const chapter = await answer(() =>
        chapterLoader({
          request: request(`/chapter/${BETA}`, cookie),
          params: { id: String(BETA) },
          context: context(),
        } as never),
      );
      expect(chapter.status).toBe(404);
      expect(chapter.text).not.toContain(BETA_WORDS);
      const home = await answer(() =>
        homeLoader({ request: request("/", cookie), params: {}, context: {} } as never),
      );
      expect(home.text).not.toContain(BETA_WORDS);
      expect(home.text).not.toContain("What the Bells Keep");
      const wiki = await answer(() =>
        wikiLoader({ request: request("/wiki", cookie), params: {}, context: {} } as never),
      );
      expect(wiki.text).not.toContain(BETA_WORDS);
    }
  });

  it("marks only a draft, audit-logged; unmarked or published, the chapter is no beta chapter", async () => {
    const actor = { via: "admin", userId: author.id } as const;
    const [published] = await handle.db
      .select({ id: chapters.id })
      .from(chapters)
      .where(eq(chapters.number, 1));
    expect(await setBetaReaders(published?.id ?? 0, true, actor)).toEqual({ ok: false, reason: "notDraft" });
    expect(await setBetaReaders(2_000_000_000, true, actor)).toEqual({ ok: false, reason: "notFound" });

    const first = await reader(180);
    expect(await setBetaReaders(chapterId, false, actor)).toEqual({ ok: true, betaReaders: false });
    expect((await readBeta(first.cookie)).status).toBe(404);
    expect(await setBetaReaders(chapterId, true, actor)).toEqual({ ok: true, betaReaders: true });
    expect((await readBeta(first.cookie)).status).toBe(200);
    const entries = await handle.db
      .select({ after: auditLog.after, actorId: auditLog.actorId })
      .from(auditLog)
      .where(and(eq(auditLog.action, "chapter.beta"), eq(auditLog.subjectId, String(chapterId))));
    expect(entries.slice(-2)).toEqual([
      { after: { betaReaders: false }, actorId: author.id },
      { after: { betaReaders: true }, actorId: author.id },
    ]);
  });

  it("takes notes on the chapter and on a paragraph, quoted; only the author sees them", async () => {
    const first = await reader(180);
    const post = (body: Record<string, string>, cookie = first.cookie) =>
      answer(() =>
        betaAction({
          request: request(`/beta/${BETA}`, cookie, body),
          params: { id: String(BETA) },
          context: {},
        } as never),
      );
    expect((await post({ body: "The ending lands." })).text).toContain('"sent"');
    expect((await post({ body: "Lovely image.", paragraph: "2" })).text).toContain('"sent"');
    expect(await post({ body: "Too far.", paragraph: "500" })).toMatchObject({
      status: 400,
      text: expect.stringContaining("beta.errors.paragraphMissing"),
    });
    expect(await post({ body: " ", paragraph: "1" })).toMatchObject({
      status: 400,
      text: expect.stringContaining("beta.errors.empty"),
    });
    expect(await post({ body: "x".repeat(BETA_LIMITS.bodyMax + 1) })).toMatchObject({ status: 400 });
    // A free reader's and an Analyst's notes are refused with the same 404 as their reading.
    expect((await post({ body: "Hi" }, (await reader()).cookie)).status).toBe(404);
    expect((await post({ body: "Hi" }, (await reader(90)).cookie)).status).toBe(404);

    const chapter = await loadBetaChapter(BETA);
    const second = blockTexts(chapter?.html ?? "")[1];
    const page = await answer(() =>
      adminFeedbackLoader({
        request: request(`/admin/chapters/${chapterId}/feedback`, author.cookie),
        params: { id: String(chapterId) },
        context: {},
      } as never),
    );
    expect(page.text).toContain("Lovely image.");
    expect(page.text).toContain("The ending lands.");
    expect(page.text).toContain(JSON.stringify(second).slice(1, 40));
    // Not the feedback page of anyone else: the beta reader gets the admin's 404.
    const refused = await answer(() =>
      adminFeedbackLoader({
        request: request(`/admin/chapters/${chapterId}/feedback`, first.cookie),
        params: { id: String(chapterId) },
        context: {},
      } as never),
    );
    expect(refused.status).toBe(404);
  });

  it("takes at most ten notes per reader and chapter in an hour, then again an hour later", async () => {
    const first = await reader(180);
    const chapter = await loadBetaChapter(BETA);
    if (!chapter) throw new Error("the demo has a beta chapter");
    const start = new Date();
    for (let i = 0; i < BETA_LIMITS.perHour; i++) {
      const posted = await postFeedback(
        first.id,
        chapter,
        { body: `Note ${i}`, paragraph: undefined },
        start,
      );
      expect(posted).toMatchObject({ ok: true, left: BETA_LIMITS.perHour - i - 1 });
    }
    expect(await postFeedback(first.id, chapter, { body: "One more", paragraph: 0 }, start)).toEqual({
      ok: false,
      reason: "rateLimited",
      retryAfterSeconds: 3600,
    });
    const later = new Date(start.getTime() + 60 * 60 * 1000 + 1000);
    expect(await postFeedback(first.id, chapter, { body: "Later", paragraph: 0 }, later)).toMatchObject({
      ok: true,
    });
  });
});

describe.each(drivers)("the beta mark in content files on %s", (driver) => {
  let source: DatabaseHandle;
  let fresh: DatabaseHandle;
  beforeAll(async () => {
    source = await openTestDatabase(driver);
    fresh = await openTestDatabase(driver, { content: false });
  });
  afterAll(async () => {
    await source?.close();
    await fresh?.close();
  });

  it("goes out with the export and comes back with the import, written only where it is set", async () => {
    const folder = tempDir("cc-beta-export-");
    await exportContent(source.db, folder);
    const eleven = fs.readFileSync(path.join(folder, "chapters", `${BETA}.md`), "utf8");
    expect(eleven).toMatch(/^status: draft$/m);
    expect(eleven).toMatch(/^betaReaders: true$/m);
    expect(fs.readFileSync(path.join(folder, "chapters", "1.md"), "utf8")).not.toContain("betaReaders");
    await importContent(fresh.db, await readContentDir(folder));
    const marks = await fresh.db
      .select({ number: chapters.number, betaReaders: chapters.betaReaders })
      .from(chapters)
      .where(eq(chapters.betaReaders, true));
    expect(marks).toEqual([{ number: BETA, betaReaders: true }]);
  });
});

describe.runIf(drivers.includes("postgres"))("beta notes under concurrency (PostgreSQL)", () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase("postgres");
  });
  afterAll(() => handle.close());

  it("50 notes posted at once by one reader: exactly the hour's ten are kept, the rest refused", async () => {
    const first = await createReader({ prefix: "beta-race" });
    await grantMembership(first.id, 180);
    const chapter = await loadBetaChapter(BETA);
    if (!chapter) throw new Error("the demo has a beta chapter");
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        postFeedback(first.id, chapter, { body: `Race ${i}`, paragraph: i % 3 }),
      ),
    );
    expect(results.filter((result) => result.ok)).toHaveLength(BETA_LIMITS.perHour);
    expect(results.filter((result) => !result.ok && result.reason === "rateLimited")).toHaveLength(
      50 - BETA_LIMITS.perHour,
    );
    const kept = await handle.db.select().from(betaFeedback).where(eq(betaFeedback.userId, first.id));
    expect(kept).toHaveLength(BETA_LIMITS.perHour);
  });
});
