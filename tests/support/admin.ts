import type { Client } from "./http";

/**
 * Chapter `id`'s editor form as the admin page fills it (GET /admin/chapters/:id), with `change` applied:
 * what a browser would post to save it.
 */
export async function chapterForm(author: Client, id: number, change: Record<string, string> = {}) {
  const editor = await (await author.get(`/admin/chapters/${id}`)).text();
  const field = (name: string) =>
    new RegExp(`name="${name}"[^>]*value="([^"]*)"`).exec(editor)?.[1] ??
    new RegExp(`value="([^"]*)"[^>]*name="${name}"`).exec(editor)?.[1] ??
    "";
  const volume =
    /<select name="volume"[^>]*>[\s\S]*?<option[^>]*value="(\d+)"[^>]*selected/.exec(editor)?.[1] ?? "1";
  return {
    title: field("title"),
    volume,
    bodyMd: /<textarea[^>]*name="bodyMd"[^>]*>([\s\S]*?)<\/textarea>/.exec(editor)?.[1] ?? "",
    status: /<input(?=[^>]*value="published")(?=[^>]*checked)[^>]*>/.test(editor) ? "published" : "draft",
    releaseLocal: field("releaseLocal"),
    coinsRequired: field("coinsRequired"),
    tags: field("tags"),
    version: field("version"),
    ...change,
  };
}
