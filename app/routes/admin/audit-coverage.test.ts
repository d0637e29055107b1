import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Every change made in the admin is written to the audit log (docs/architecture.md). Each admin page whose
 * action takes a form is listed here with the entries its changes write, or why it writes none; a new one
 * must be added, which puts the question to whoever adds it. A page whose action only refuses forms
 * (`readOnlyPage`) changes nothing.
 */
const writes: Record<string, string[] | { none: string }> = {
  "authors.tsx": ["author.grant", "author.revoke"],
  "chapter.tsx": ["chapter.create", "chapter.update", "chapter.delete", "chapter.move"],
  "revisions.tsx": ["chapter.update"],
  "chapter-translation.tsx": ["translation.create", "translation.update"],
  "translation.tsx": ["translation.create", "translation.update", "translation.delete"],
  "chapter-feedback.tsx": ["chapter.beta"],
  "clock.tsx": ["clock.set", "clock.reading"],
  "coin-pack.tsx": ["coinPack.create", "coinPack.update", "coinPack.delete"],
  "gallery-item.tsx": ["gallery.create", "gallery.update", "gallery.delete"],
  "wiki-page.tsx": ["wiki.create", "wiki.update", "wiki.delete"],
  "comments.tsx": ["comment.*", "reader.commentBan", "reader.commentUnban"],
  "goal.tsx": ["goal.create", "goal.update", "goal.delete"],
  "poll.tsx": ["poll.create", "poll.update", "poll.delete"],
  "credits.tsx": ["credits.update"],
  "tiers.tsx": ["tier.update"],
  "legal.tsx": ["legal.update"],
  "site.tsx": ["site.update"],
  "order.tsx": ["order.ship", "payment.refund"],
  "payment.tsx": ["payment.refund"],
  "product.tsx": ["product.create", "product.update", "product.delete"],
  "reader.tsx": ["reader.coins", "reader.membership", "reader.suspend", "reader.restore"],
  "subscriptions.tsx": ["subscription.cancel"],
  "uploads.tsx": ["upload.create"],
  "inquiries.tsx": ["inquiry.answered", "inquiry.reopened"],
  "announcements.tsx": ["announcement.publish", "announcement.delete"],
  "qa.tsx": ["qa.answer", "qa.unanswer", "qa.create", "qa.update", "qa.publish"],
  "drafts.ts": {
    none: "the editor's autosaved draft: the author's own unsaved text, which no one else sees",
  },
  "preview.ts": { none: "renders the posted Markdown for the editor's preview; stores nothing" },
};

const routes = path.join(import.meta.dirname);
// The commands the admin's pages call: the admin's own, and those a domain keeps in its folder (inquiries).
const features = path.join(import.meta.dirname, "../../features");
const source = fs
  .readdirSync(features, { recursive: true, encoding: "utf8" })
  .filter((file) => file.endsWith(".server.ts"))
  .map((file) => fs.readFileSync(path.join(features, file), "utf8"))
  .join("\n");

/** Whether the admin's commands write this audit action: by name, as a row editor's subject, or a family. */
function written(action: string): boolean {
  const [subject, verb] = action.split(".");
  if (verb === "*") return source.includes(`\`${subject}.\${`);
  return (
    source.includes(`"${action}"`) ||
    (source.includes(`subject: "${subject}"`) && source.includes(`\`\${kind.subject}.${verb}\``))
  );
}

describe("the admin's audit log", () => {
  it("knows every admin page whose action changes something", () => {
    const changing = fs
      .readdirSync(routes)
      .filter((file) => /\.tsx?$/.test(file) && !file.endsWith(".test.ts"))
      .filter((file) => {
        const code = fs.readFileSync(path.join(routes, file), "utf8");
        const action = /export (async )?function action[\s\S]*?\n}/.exec(code)?.[0];
        return action !== undefined && !action.includes("readOnlyPage(");
      });
    expect(changing.sort()).toEqual(Object.keys(writes).sort());
  });

  it.each(
    Object.entries(writes).flatMap(([file, actions]) =>
      (Array.isArray(actions) ? actions : []).map((action) => [file, action]),
    ),
  )("%s writes %s", (_file, action) => {
    expect(written(action)).toBe(true);
  });
});
