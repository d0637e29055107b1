// A cache miss after an author's edit (ADR 54): the author saves a chapter's text through the admin,
// as the editor posts it, and the next visitor's request for the chapter renders it. Each round edits (the
// text gains a sentence, so its word count moves) and times that first request; the median of the rounds.
// Also counts the rounds after which another chapter's page was still kept (`X-Cache: hit`).

const textOf = (html) =>
  html
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&quot;", '"')
    .replaceAll("&#x27;", "'")
    .replaceAll("&#39;", "'")
    .replaceAll("&amp;", "&");

/** The editor form of chapter `number` as the admin page fills it, and the chapter's id. */
async function editorForm(base, cookie, number, title) {
  const list = await (
    await fetch(`${base}/admin/chapters?q=${encodeURIComponent(title)}`, { headers: { cookie } })
  ).text();
  const id = new RegExp(`<td[^>]*>${number}</td><td[^>]*><a[^>]*href="/admin/chapters/(\\d+)"`).exec(
    list,
  )?.[1];
  if (!id) throw new Error(`chapter ${number} is not in the admin's list`);
  const editor = await (await fetch(`${base}/admin/chapters/${id}`, { headers: { cookie } })).text();
  const field = (name) =>
    textOf(
      new RegExp(`name="${name}"[^>]*value="([^"]*)"`).exec(editor)?.[1] ??
        new RegExp(`value="([^"]*)"[^>]*name="${name}"`).exec(editor)?.[1] ??
        "",
    );
  return {
    id,
    fields: {
      title: field("title"),
      volume:
        /<select name="volume"[^>]*>[\s\S]*?<option[^>]*value="(\d+)"[^>]*selected/.exec(editor)?.[1] ?? "1",
      bodyMd: textOf(/<textarea[^>]*name="bodyMd"[^>]*>([\s\S]*?)<\/textarea>/.exec(editor)?.[1] ?? ""),
      status: /<input(?=[^>]*value="published")(?=[^>]*checked)[^>]*>/.test(editor) ? "published" : "draft",
      releaseLocal: field("releaseLocal"),
      coinsRequired: field("coinsRequired"),
      tags: field("tags"),
      version: field("version"),
    },
  };
}

/** A visitor's request, timed from sending to the last byte. */
async function timedGet(url) {
  const started = performance.now();
  const response = await fetch(url, { headers: { "Accept-Encoding": "br" } });
  const text = await response.text();
  return {
    ms: performance.now() - started,
    status: response.status,
    hit: response.headers.get("x-cache") === "hit",
    text,
  };
}

/**
 * `rounds` edits of chapter `number` by the author whose session is `cookie`, each followed by the first
 * visitor's request of the chapter (timed) and of chapter `other` (kept, unless the edit retired it).
 */
export async function measureCacheMiss(base, cookie, { number, title, other, rounds = 25 }) {
  const { id, fields } = await editorForm(base, cookie, number, title);
  const body = fields.bodyMd;
  let version = Number(fields.version);
  const times = [];
  let otherKept = 0;
  // The other chapter kept, as it is on a running site.
  await timedGet(`${base}/chapter/${other}`);
  for (let round = 0; round < rounds; round++) {
    const sentence = `The lamps were relit, round ${round + 1}.`;
    const saved = await fetch(`${base}/admin/chapters/${id}`, {
      method: "POST",
      redirect: "manual",
      headers: { origin: base, "sec-fetch-site": "same-origin", cookie },
      body: new URLSearchParams({ ...fields, bodyMd: `${body}\n\n${sentence}`, version: String(version) }),
    });
    if (saved.status !== 302) throw new Error(`the author's save answered ${saved.status}`);
    version = Number(new URL(saved.headers.get("location"), base).searchParams.get("saved"));
    const first = await timedGet(`${base}/chapter/${number}`);
    if (first.status !== 200 || first.hit || !first.text.includes(sentence))
      throw new Error(
        `chapter ${number} did not show the edit (${first.status}${first.hit ? ", kept" : ""})`,
      );
    times.push(first.ms);
    if ((await timedGet(`${base}/chapter/${other}`)).hit) otherKept++;
  }
  // The text as it was.
  await fetch(`${base}/admin/chapters/${id}`, {
    method: "POST",
    redirect: "manual",
    headers: { origin: base, "sec-fetch-site": "same-origin", cookie },
    body: new URLSearchParams({ ...fields, bodyMd: body, version: String(version) }),
  });
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q) => +sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].toFixed(1);
  return {
    page: `/chapter/${number}`,
    rounds,
    medianMs: at(0.5),
    p90Ms: at(0.9),
    otherKeptRounds: otherKept,
  };
}
