/**
 * Which freshness stream a change to each table moves: the one place that says so, checked against the
 * database's triggers by tests/integration/streams.test.ts (every table classified, every trigger named here
 * and no other). The triggers themselves are written by the migrations; see docs/page-cache.md, Freshness.
 *
 * - `content`: the content revision (`content_revision`, ADR 54), followed by every instance's revision poll
 *   (app/features/site/revision.server.ts). `everything` retires every kept page; `chapter` names the chapter
 *   when only its text changed (else everything); `comments` moves the comments' own counter (ADR 47);
 *   `language` names the language when a translation was updated (its pages alone retire; a translation
 *   added or removed changes the other languages' notes of the versions there are: everything, ADR 86).
 * - `reader`: a reader event in `session_events` for the row's reader (ADR 53, 79), followed by the kept
 *   sessions (app/features/auth/session-cache.server.ts). `session`: the event forgets the reader's kept
 *   session and their own pages, except an update of only `ownRecordsOnly` (a column a kept session does not
 *   hold); `own records`: only the pages kept for them alone.
 * - `none`: no stream, and the reason.
 *
 * `triggers` names each trigger on the table and the function it runs, streams and otherwise.
 */
import type { PgTable } from "drizzle-orm/pg-core";
import type * as schema from "./index";

export type ContentStream = "everything" | "chapter" | "comments" | "language";
export type ReaderStream = "session" | "own records";

export type TriggerFunction =
  | "bump_content_revision"
  | "note_chapter_change"
  | "note_translation_change"
  | "bump_comments_revision"
  | "note_session_event"
  | "note_account_session_event"
  | "note_reader_event"
  | "forget_stale_body_html";

export type TableStreams =
  | {
      content?: ContentStream;
      reader?: ReaderStream;
      /** With `reader: "session"`: an update of only this column is an event for the reader's own records. */
      ownRecordsOnly?: string;
      triggers: Record<string, TriggerFunction>;
    }
  | { none: string };

/** The export name of every table of the schema: a table added there and not here fails to compile. */
type SchemaTables = {
  [K in keyof typeof schema as (typeof schema)[K] extends PgTable ? K : never]: TableStreams;
};

/** Content the trigger of migration 0003's loop (and 0004) moves on any statement. */
const everything = (table: string): TableStreams => ({
  content: "everything",
  triggers: { [`${table}_content_revision`]: "bump_content_revision" },
});

/** A translation (migration 0038, ADR 86): an update retires its language's pages, any other write everything. */
const translated = (table: string): TableStreams => ({
  content: "language",
  triggers: {
    [`${table}_content_revision`]: "bump_content_revision",
    [`${table}_content_change`]: "note_translation_change",
  },
});

/** A reader's own rows (migrations 0026, 0032). */
const ownRecords = (table: string): TableStreams => ({
  reader: "own records",
  triggers: { [`${table}_reader_event`]: "note_reader_event" },
});

/** What a kept session holds: the reader's membership tier (migration 0025; `note_reader_event` since 0026). */
const membership = (table: string): TableStreams => ({
  reader: "session",
  triggers: { [`${table}_session_event`]: "note_reader_event" },
});

export const tableStreams: SchemaTables = {
  // Content: what public pages show.
  siteSettings: everything("site_settings"),
  legalPages: everything("legal_pages"),
  volumes: everything("volumes"),
  chapters: {
    content: "chapter",
    triggers: {
      chapters_content_revision: "bump_content_revision",
      chapters_content_change: "note_chapter_change",
      // Not a stream: drops a rendering its text no longer matches, before the row is written.
      chapters_body_html_follows: "forget_stale_body_html",
    },
  },
  chapterTranslations: translated("chapter_translations"),
  translations: translated("translations"),
  wikiPages: everything("wiki_pages"),
  galleryItems: everything("gallery_items"),
  products: everything("products"),
  supportTiers: everything("support_tiers"),
  fundraiserGoals: everything("fundraiser_goals"),
  coinPacks: everything("coin_packs"),
  polls: everything("polls"),
  pollOptions: everything("poll_options"),
  // The home page shows the newest (ADR 95).
  announcements: everything("announcements"),
  creditsPage: everything("credits_page"),
  supporters: {
    content: "everything",
    reader: "own records",
    triggers: {
      supporters_content_revision: "bump_content_revision",
      supporters_reader_event: "note_reader_event",
    },
  },
  comments: {
    content: "comments",
    reader: "own records",
    triggers: {
      comments_comments_revision: "bump_comments_revision",
      comments_reader_event: "note_reader_event",
    },
  },
  commentHearts: {
    content: "comments",
    reader: "own records",
    triggers: {
      comment_hearts_comments_revision: "bump_comments_revision",
      comment_hearts_reader_event: "note_reader_event",
    },
  },

  // What a kept session holds (ADR 49, 51).
  users: {
    reader: "session",
    ownRecordsOnly: "last_read_on",
    triggers: {
      users_session_event: "note_account_session_event",
      users_reader_event: "note_account_session_event",
    },
  },
  sessions: {
    reader: "session",
    ownRecordsOnly: "last_seen_at",
    triggers: { sessions_session_event: "note_session_event", sessions_reader_event: "note_reader_event" },
  },
  readingSettings: { reader: "session", triggers: { reading_settings_session_event: "note_session_event" } },
  payments: membership("payments"),
  membershipGrants: membership("membership_grants"),
  subscriptions: membership("subscriptions"),
  // A kept session holds the chapters its reader unlocked (ADR 79).
  chapterUnlocks: {
    reader: "session",
    triggers: { chapter_unlocks_reader_event: "note_reader_event" },
  },
  // And the lines of their cart (ADR 102: the shop's pages are shared by cart, migration 0045).
  cartItems: {
    reader: "session",
    triggers: { cart_items_reader_event: "note_reader_event" },
  },

  // A reader's own records.
  readingProgress: ownRecords("reading_progress"),
  readingDays: ownRecords("reading_days"),
  userAchievements: ownRecords("user_achievements"),
  feedTokens: ownRecords("feed_tokens"),
  coinLedger: ownRecords("coin_ledger"),
  commentReports: ownRecords("comment_reports"),
  betaFeedback: ownRecords("beta_feedback"),
  commentBans: ownRecords("comment_bans"),
  releaseMails: ownRecords("release_mails"),
  qaQuestions: ownRecords("qa_questions"),
  qaMails: ownRecords("qa_mails"),
  announcementMails: ownRecords("announcement_mails"),
  orders: ownRecords("orders"),
  oauthIdentities: ownRecords("oauth_identities"),
  // Only an update of what the settings page shows (migration 0036), not the sync's lease and times.
  discordLinks: ownRecords("discord_links"),
  passwordResetTokens: ownRecords("password_reset_tokens"),
  knownDevices: ownRecords("known_devices"),
  passkeyEnrolments: ownRecords("passkey_enrolments"),
  recoveryCodes: ownRecords("recovery_codes"),
  secondFactors: ownRecords("second_factors"),
  signInChallenges: ownRecords("sign_in_challenges"),
  pollVotes: ownRecords("poll_votes"),
  // Shown on /settings, a page kept for its reader (ADR 53, 90).
  autoUnlockSettings: ownRecords("auto_unlock_settings"),

  // No stream.
  auditLog: { none: "a log, read by the admin pages, which are never kept" },
  chapterRevisions: { none: "past texts, read only by the editor, never kept" },
  editorDrafts: { none: "the editor's drafts, never shown on a kept page" },
  chapterRedirects: {
    none: "read per request; written with a renumbering, whose chapters update moves content",
  },
  contentRevision: { none: "the content stream itself" },
  contentChanges: { none: "the content stream's record of what moved" },
  databaseEpoch: { none: "drawn again by a restore, which every instance checks on its own (ADR 61)" },
  releaseMailState: { none: "the release mailer's bookkeeping, shown on no page" },
  chapterAnnouncements: { none: "mail to send, shown on no kept page" },
  translationAnnouncements: { none: "mail to send, shown on no kept page" },
  paymentEvents: { none: "a log of the providers' webhooks, for idempotence" },
  chapterVisitorDays: { none: "analytics counts, read by the admin pages, never kept" },
  visitorViewKey: { none: "a secret for counting visitors, shown nowhere" },
  readingDayTotals: { none: "analytics totals, read by the admin pages, never kept" },
  achievements: { none: "the catalogue, written only by a content import, whose other tables move content" },
  orderLines: { none: "written with their order, whose trigger notes the reader" },
  inquiries: { none: "messages to the author, read by the admin pages, never kept" },
  qaMonths: { none: "read by the /qa pages, which differ per reader and are never kept (ADR 82)" },
  uploads: {
    none: "files, served by their own immutable URLs; what shows them (gallery, chapters) moves content",
  },
  sessionEvents: { none: "the reader stream itself" },
  oauthRequests: { none: "a sign-in in flight, before there is a session" },
  rateLimits: { none: "counters of requests, shown nowhere" },
};
