import { sql } from "drizzle-orm";
import type { Database } from "#db/client.server";
import { WELCOME_COINS } from "~/features/coins/constants";
import { hashToken, randomToken } from "~/lib/tokens.server";
import type { ContentBundle } from "./files.server";

/**
 * A large generated serial for benchmarks (`npm run content -- generate-large`): 1,000 chapters of
 * 3,000-5,000 words in 10 volumes, numbered after the demo's (volumes 11-20, chapters 1001-2000), all
 * released, the first of each volume free and the rest at 1 coin. Deterministic: the same seed gives the
 * same text, so runs compare.
 */
export function generateLargeSerial({ chapters = 1000, volumes = 10, seed = 1 } = {}): ContentBundle {
  let state = seed >>> 0 || 1;
  // xorshift32: a small deterministic generator; quality is irrelevant here.
  const random = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 0x100000000;
  };
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const subjects = [
    "Ilse",
    "Aurelian",
    "Tamsin",
    "The Warden",
    "The Director",
    "The archivist",
    "A courier",
    "The Eternal",
    "The city",
    "Lady Seraphine",
  ];
  const verbs = [
    "watched",
    "counted",
    "remembered",
    "crossed",
    "followed",
    "refused",
    "carried",
    "answered",
    "studied",
    "waited for",
  ];
  const objects = [
    "the ledger",
    "the ash",
    "the red moon",
    "the iron gate",
    "the dead roses",
    "a moonglass vial",
    "the curfew bells",
    "the tunnels",
    "the bond",
    "the lamplit archive",
  ];
  const endings = [
    "before the bells rang.",
    "as the ash kept falling.",
    "without a word.",
    "and did not look back.",
    "while the city slept.",
    "under the bruised sky.",
    "as if it mattered.",
    "for the last time.",
  ];
  const sentence = () => `${pick(subjects)} ${pick(verbs)} ${pick(objects)} ${pick(endings)}`;
  const paragraph = () => Array.from({ length: 4 + Math.floor(random() * 4) }, sentence).join(" ");

  const perVolume = Math.ceil(chapters / volumes);
  const bundle: ContentBundle = {
    legal: [],
    volumes: [],
    chapters: [],
    wiki: [],
    gallery: [],
    products: [],
    tiers: [],
    coinPacks: [],
    uploads: [],
    translations: [],
  };
  for (let v = 0; v < volumes; v++) {
    bundle.volumes.push({
      file: `generated/volumes/${11 + v}.md`,
      data: { number: 11 + v, title: `Generated Volume ${v + 1}` },
      body: "A generated volume for benchmarks.",
    });
  }
  for (let c = 0; c < chapters; c++) {
    const target = 3000 + Math.floor(random() * 2000);
    const paragraphs: string[] = [];
    let words = 0;
    while (words < target) {
      const text = paragraph();
      words += text.split(" ").length;
      paragraphs.push(text);
    }
    bundle.chapters.push({
      file: `generated/chapters/${1001 + c}.md`,
      data: {
        number: 1001 + c,
        title: `Generated Chapter ${c + 1}`,
        volume: 11 + Math.floor(c / perVolume),
        releaseAt: "2026-01-01T00:00:00Z",
        coinsRequired: c % perVolume === 0 ? 0 : 1,
        tags: ["generated"],
        status: "published",
        betaReaders: false,
        artwork: [],
      },
      body: paragraphs.join("\n\n"),
    });
  }
  return bundle;
}

/**
 * Generated readers for benchmarks (`npm run content -- generate-readers [count]`, ADR 70): accounts
 * `reader00001`… with no password (nobody can sign in as them), each with the demo's first chapters read
 * (one to ten, by the account's number), a reading day, a confirmed address and the welcome coins every new
 * account is given (so a bench reader can comment and unlock a chapter as a real one can). As readers differ
 * (ADR 101): every third spent its coins on the first one to three coin chapters, in order, as far as they
 * paid (the ledger says so); every fifth reads in a larger or smaller type; every seventh has one to three of a
 * product in their cart (ADR 102: readers share a shop page by cart). Adds only the numbers not there yet, so
 * running it twice adds nothing. Returns how many accounts it added.
 */
export async function insertGeneratedReaders(database: Database, count = 10_000): Promise<number> {
  if (!Number.isInteger(count) || count < 1 || count > 1_000_000) throw new Error("count: 1 to 1,000,000");
  // One statement: the accounts, then their progress and reading day from what it inserted. Both drivers
  // answer `{ rows }`.
  const result = (await database.execute(sql`
    with plan as (
      select n, 'reader' || lpad(n::text, 5, '0') as name, coalesce(unlocks.cost, 0) as cost,
        unlocks.last
      from generate_series(1, ${count}::int) as n
      left join lateral (
        select max(c.number) as last, sum(c.coins_required)::int as cost
        from (select number, coins_required from chapters where status = 'published' and coins_required > 0
          order by number limit 1 + (n / 3) % 3) c
      ) unlocks on n % 3 = 0
      where not exists (select 1 from users where lower(username) = 'reader' || lpad(n::text, 5, '0'))
    ), spent as (
      select n, name, case when cost <= ${WELCOME_COINS}::int then cost else 0 end as cost,
        case when cost <= ${WELCOME_COINS}::int then last end as last
      from plan
    ), added as (
      insert into users (username, email, created_at, email_confirmed_at, last_read_on, coin_balance)
      select name, name || '@readers.example', now() - make_interval(mins => n), now() - make_interval(mins => n),
        current_date, ${WELCOME_COINS}::int - cost
      from spent
      returning id, username
    ), progress as (
      insert into reading_progress (user_id, chapter_id, scroll_position, completion_percentage, completed)
      select added.id, c.id, 1, 100, true
      from added join chapters c on c.number <= 1 + added.id % 10 and c.status = 'published'
    ), days as (
      insert into reading_days (user_id, day, seconds) select id, current_date, 600 from added
    ), welcome as (
      insert into coin_ledger (user_id, delta, reason, idempotency_key)
      select id, ${WELCOME_COINS}::int, 'welcome', 'welcome:' || id from added
    ), unlocked as (
      insert into chapter_unlocks (user_id, chapter_id, coins_spent)
      select added.id, c.id, c.coins_required
      from added join spent on spent.name = added.username
        join chapters c on c.status = 'published' and c.coins_required > 0 and c.number <= spent.last
      returning user_id, chapter_id, coins_spent
    ), paid as (
      insert into coin_ledger (user_id, delta, reason, reference, idempotency_key)
      select unlocked.user_id, -unlocked.coins_spent, 'unlock', 'chapter:' || c.number,
        'unlock:' || unlocked.user_id || ':' || unlocked.chapter_id
      from unlocked join chapters c on c.id = unlocked.chapter_id
    ), settings as (
      insert into reading_settings (user_id, font_size)
      select added.id, (array[14, 18, 20])[spent.n / 5 % 3 + 1]
      from added join spent on spent.name = added.username
      where spent.n % 5 = 0
    ), carts as (
      insert into cart_items (user_id, product_id, quantity)
      select added.id, product.id, 1 + spent.n / 7 % 3
      from added join spent on spent.name = added.username
        join lateral (select id from products where variant_kind is null order by id limit 1) product on true
      where spent.n % 7 = 0
    )
    select count(*)::int as added from added`)) as unknown as { rows: { added: number }[] };
  return result.rows[0]?.added ?? 0;
}

/**
 * Signed-in sessions for the generated readers (`npm run content -- generate-sessions <count> <file>`): one
 * new session each for `reader00001`… up to `count` (made by `generate-readers` first), so a bench can load the
 * site as thousands of distinct signed-in readers without signing each in (a password hash each would take
 * minutes), last seen over the past five minutes. Returns the session cookies (`session=<token>`), one per
 * reader in account order; only the tokens' hashes are stored, as for every session.
 */
export async function insertGeneratedSessions(database: Database, count: number): Promise<string[]> {
  if (!Number.isInteger(count) || count < 1 || count > 1_000_000) throw new Error("count: 1 to 1,000,000");
  const readers = (await database.execute(sql`
    select id from users where username like 'reader%' and email like '%@readers.example'
    order by username limit ${count}`)) as unknown as { rows: { id: number }[] };
  if (readers.rows.length < count)
    throw new Error(`only ${readers.rows.length} generated readers: run generate-readers ${count} first`);
  const made = readers.rows.map(({ id }) => ({ id, token: randomToken() }));
  // Last seen over the past five minutes, a second apart, as the sessions of readers who came and went are:
  // their touches (one each five minutes, features/auth/session.server.ts) fall due one by one, not at once.
  const rows = made.map(({ id, token }, index) => ({ id, hash: hashToken(token), ago: index % 300 }));
  await database.execute(sql`
    insert into sessions (token_hash, user_id, remember, expires_at, last_seen_at, verified_by)
    select hash, id, true, now() + interval '30 days', now() - make_interval(secs => ago), 'generated'
    from json_to_recordset(${JSON.stringify(rows)}::json) as t(hash text, id int, ago int)`);
  return made.map(({ token }) => `session=${token}`);
}
