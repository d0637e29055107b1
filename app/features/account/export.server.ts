import { asc, type Column, eq, getTableColumns, getTableName, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { db } from "#db/client.server";
import {
  announcementMails,
  announcements,
  auditLog,
  autoUnlockSettings,
  betaFeedback,
  cartItems,
  chapterRevisions,
  chapters,
  chapterUnlocks,
  coinLedger,
  commentBans,
  commentHearts,
  commentReports,
  comments,
  discordLinks,
  editorDrafts,
  feedTokens,
  knownDevices,
  membershipGrants,
  oauthIdentities,
  oauthRequests,
  orderLines,
  orders,
  passkeyEnrolments,
  passwordResetTokens,
  paymentEvents,
  payments,
  pollOptions,
  pollVotes,
  qaMails,
  qaQuestions,
  readingDays,
  readingProgress,
  readingSettings,
  recoveryCodes,
  releaseMails,
  secondFactors,
  sessionEvents,
  sessions,
  signInChallenges,
  subscriptions,
  supporters,
  uploads,
  userAchievements,
  users,
} from "#db/schema";

/** The export's format name and version (docs/data-export.md); the version moves when a section changes shape. */
export const exportFormat = { format: "crimson-covenant/account-data", version: 1 } as const;

const ownerColumn = "the account's own id, given once as account.id";

/**
 * Every table holding rows about a reader, the export section carrying them and the columns left out, each
 * with why. Every other column is exported as stored, so a column added later is exported without anyone
 * remembering to; a table added later fails the coverage test (export.server.test.ts) until it is listed
 * here or in `notExported`.
 */
export const exportedTables = [
  {
    table: users,
    section: "account",
    withheld: {
      passwordHash: "a secret: the argon2id hash of the password",
      emailConfirmationHash: "a secret: it identifies the e-mailed confirmation link",
    },
  },
  {
    table: sessions,
    section: "sessions",
    withheld: { userId: ownerColumn, tokenHash: "a secret: it identifies the session cookie" },
  },
  { table: oauthIdentities, section: "linkedAccounts", withheld: { userId: ownerColumn } },
  { table: discordLinks, section: "discordLink", withheld: { userId: ownerColumn } },
  {
    table: oauthRequests,
    section: "socialSignInsInProgress",
    withheld: {
      linkUserId: ownerColumn,
      stateHash: "a secret of the sign-in in progress",
      codeVerifier: "a secret of the sign-in in progress (PKCE)",
    },
  },
  {
    table: passwordResetTokens,
    section: "passwordResetRequests",
    withheld: { userId: ownerColumn, tokenHash: "a secret: it identifies the e-mailed reset link" },
  },
  {
    table: knownDevices,
    section: "knownDevices",
    withheld: { userId: ownerColumn, deviceHash: "a secret: it identifies the browser's device cookie" },
  },
  {
    table: secondFactors,
    section: "secondFactors",
    withheld: {
      userId: ownerColumn,
      totpSecret: "a secret: whoever has it makes the authenticator app's codes",
    },
  },
  {
    table: recoveryCodes,
    section: "recoveryCodes",
    withheld: { userId: ownerColumn, codeHash: "a secret: it identifies a recovery code" },
  },
  {
    table: signInChallenges,
    section: "signInsWaitingForSecondStep",
    withheld: {
      userId: ownerColumn,
      tokenHash: "a secret of the sign-in in progress",
      codeHash: "a secret: it identifies the e-mailed sign-in code",
      webauthnChallenge: "a secret of the sign-in in progress (the passkey's challenge)",
    },
  },
  {
    table: passkeyEnrolments,
    section: "passkeyEnrolmentsInProgress",
    withheld: { userId: ownerColumn, challenge: "a secret of the enrolment in progress" },
  },
  { table: coinLedger, section: "coinLedger", withheld: { userId: ownerColumn } },
  { table: chapterUnlocks, section: "chapterUnlocks", withheld: { userId: ownerColumn } },
  { table: readingProgress, section: "readingProgress", withheld: { userId: ownerColumn } },
  { table: readingSettings, section: "readingSettings", withheld: { userId: ownerColumn } },
  { table: autoUnlockSettings, section: "autoUnlock", withheld: { userId: ownerColumn } },
  { table: readingDays, section: "readingDays", withheld: { userId: ownerColumn } },
  {
    table: feedTokens,
    section: "privateFeed",
    withheld: { userId: ownerColumn, tokenHash: "a secret: it identifies the private feed's address" },
  },
  {
    table: releaseMails,
    section: "releaseEmails",
    withheld: {
      userId: ownerColumn,
      unsubscribeHash: "a secret: it identifies the e-mail's unsubscribe link",
    },
  },
  { table: userAchievements, section: "achievements", withheld: { userId: ownerColumn } },
  { table: qaQuestions, section: "qaQuestions", withheld: { userId: ownerColumn } },
  { table: qaMails, section: "qaEmails", withheld: { userId: ownerColumn } },
  {
    table: announcementMails,
    section: "announcementEmails",
    withheld: {
      userId: ownerColumn,
      unsubscribeHash: "a secret: it identifies the e-mail's unsubscribe link",
    },
  },
  { table: comments, section: "comments", withheld: { userId: ownerColumn } },
  { table: commentHearts, section: "commentHearts", withheld: { userId: ownerColumn } },
  // The notes the reader left the author on beta drafts (ADR 83).
  { table: betaFeedback, section: "betaNotes", withheld: { userId: ownerColumn } },
  { table: commentReports, section: "commentReports", withheld: { userId: ownerColumn } },
  // The reader's votes on art: which option of which poll, and when.
  { table: pollVotes, section: "pollVotes", withheld: { userId: ownerColumn } },
  {
    table: commentBans,
    section: "commentingBarred",
    withheld: { userId: ownerColumn, bannedBy: "another person's account (the author who acted)" },
  },
  {
    table: payments,
    section: "payments",
    withheld: {
      userId: ownerColumn,
      providerSessionId: "a bearer id of the provider's checkout page (the test provider's is its only key)",
    },
  },
  { table: paymentEvents, section: "paymentEvents", withheld: {} },
  { table: membershipGrants, section: "membershipGrants", withheld: { userId: ownerColumn } },
  { table: subscriptions, section: "subscriptions", withheld: { userId: ownerColumn } },
  // The reader's entry on the supporters wall (how they chose to appear); imported history has no owner.
  { table: supporters, section: "supportersWall", withheld: { userId: ownerColumn } },
  { table: cartItems, section: "cart", withheld: { userId: ownerColumn } },
  { table: orders, section: "orders", withheld: { userId: ownerColumn } },
  { table: orderLines, section: "orderLines", withheld: {} },
] as const satisfies readonly { table: PgTable; section: string; withheld: Record<string, string> }[];

/** Tables that reference an account but are deliberately not exported, with why. */
export const notExported: readonly { table: PgTable; reason: string }[] = [
  {
    table: pollOptions,
    reason: "the polls' options are the site's content, the same for everyone; a vote names its option by id",
  },
  {
    table: auditLog,
    reason:
      "the site's record of changes made in the author's admin (about the site's content and roles, not the " +
      "reader's own data); it outlives an account, whose id is then cleared",
  },
  {
    table: chapterRevisions,
    reason:
      "the history of the site's chapter text, written by its authors; the author id is cleared with the account",
  },
  {
    table: announcements,
    reason:
      "the author's news, published on the site for everyone; the author id is cleared with the account (a " +
      "reader's own copies of it are their e-mails, exported)",
  },
  {
    table: editorDrafts,
    reason: "an author's unsaved chapter text for the site (their work for it, deleted with the account)",
  },
  {
    table: uploads,
    reason:
      "the author's site media (images for pages), not a reader's data: created_by only names which author account uploaded it",
  },
  {
    table: sessionEvents,
    reason:
      "a note to the site's servers that a session ended or changed (ADR 49), deleted after ten minutes; the " +
      "sessions themselves are in the download (sessions)",
  },
];

type Entry = (typeof exportedTables)[number];

/** The columns of a listed table that the export carries: all of them but the withheld. */
function exportedColumns(entry: Entry): Record<string, PgColumn> {
  return Object.fromEntries(
    Object.entries(getTableColumns(entry.table)).filter(([key]) => !(key in entry.withheld)),
  );
}

function entryFor(table: PgTable): Entry {
  const entry = exportedTables.find((candidate) => candidate.table === table);
  if (!entry) throw new Error(`${getTableName(table)} is not in exportedTables`);
  return entry;
}

type Row = Record<string, unknown>;

/** A listed table's rows of one reader, oldest first. */
function rowsOf(table: PgTable, where: SQL, order: Column): Promise<Row[]> {
  return db()
    .select(exportedColumns(entryFor(table)))
    .from(table)
    .where(where)
    .orderBy(asc(order)) as Promise<Row[]>;
}

/** A listed table's rows that belong to a reader through a parent row (`on` joins it, `where` binds it). */
function rowsThrough(table: PgTable, parent: PgTable, on: SQL, where: SQL, order: Column): Promise<Row[]> {
  return db()
    .select(exportedColumns(entryFor(table)))
    .from(table)
    .innerJoin(parent, on)
    .where(where)
    .orderBy(asc(order)) as Promise<Row[]>;
}

/**
 * Everything the site holds about a reader, for "Download my data" (docs/data-export.md): every row of every
 * table about them, without secrets (password and token hashes). Another reader's rows never appear: each
 * query is bound to this account's id.
 */
export async function exportAccountData(userId: number) {
  // A row about a chapter also names it by its number, which the reader knows (the id is internal).
  const chapterNumber = { chapterNumber: chapters.number };
  const [
    [account],
    accountSessions,
    linkedAccounts,
    socialSignInsInProgress,
    passwordResetRequests,
    ledger,
    unlocks,
    progress,
    [settings],
    accountPayments,
    events,
    grants,
    accountSubscriptions,
    cart,
    accountOrders,
    lines,
    days,
    earned,
    wall,
    feed,
    releaseEmails,
    ownComments,
    hearts,
    betaNotes,
    reports,
    [barred],
    devices,
    factors,
    recovery,
    waiting,
    enrolments,
    votes,
    [discord],
    questions,
    qaEmails,
    announcementEmails,
    [autoUnlock],
  ] = await Promise.all([
    rowsOf(users, eq(users.id, userId), users.id),
    rowsOf(sessions, eq(sessions.userId, userId), sessions.createdAt),
    rowsOf(oauthIdentities, eq(oauthIdentities.userId, userId), oauthIdentities.createdAt),
    rowsOf(oauthRequests, eq(oauthRequests.linkUserId, userId), oauthRequests.expiresAt),
    rowsOf(passwordResetTokens, eq(passwordResetTokens.userId, userId), passwordResetTokens.createdAt),
    rowsOf(coinLedger, eq(coinLedger.userId, userId), coinLedger.id),
    db()
      .select({ ...exportedColumns(entryFor(chapterUnlocks)), ...chapterNumber })
      .from(chapterUnlocks)
      .innerJoin(chapters, eq(chapterUnlocks.chapterId, chapters.id))
      .where(eq(chapterUnlocks.userId, userId))
      .orderBy(asc(chapterUnlocks.createdAt)) as Promise<Row[]>,
    db()
      .select({ ...exportedColumns(entryFor(readingProgress)), ...chapterNumber })
      .from(readingProgress)
      .innerJoin(chapters, eq(readingProgress.chapterId, chapters.id))
      .where(eq(readingProgress.userId, userId))
      .orderBy(asc(chapters.number)) as Promise<Row[]>,
    rowsOf(readingSettings, eq(readingSettings.userId, userId), readingSettings.userId),
    rowsOf(payments, eq(payments.userId, userId), payments.id),
    rowsThrough(
      paymentEvents,
      payments,
      eq(paymentEvents.paymentId, payments.id),
      eq(payments.userId, userId),
      paymentEvents.receivedAt,
    ),
    rowsOf(membershipGrants, eq(membershipGrants.userId, userId), membershipGrants.grantedAt),
    rowsOf(subscriptions, eq(subscriptions.userId, userId), subscriptions.id),
    rowsOf(cartItems, eq(cartItems.userId, userId), cartItems.id),
    // With what was refunded of it (its payment's refunds), so a partly refunded order reads as one.
    db()
      .select({ ...exportedColumns(entryFor(orders)), refundedCents: payments.refundedCents })
      .from(orders)
      .innerJoin(payments, eq(payments.id, orders.paymentId))
      .where(eq(orders.userId, userId))
      .orderBy(asc(orders.id)) as Promise<Row[]>,
    rowsThrough(
      orderLines,
      orders,
      eq(orderLines.orderId, orders.id),
      eq(orders.userId, userId),
      orderLines.id,
    ),
    rowsOf(readingDays, eq(readingDays.userId, userId), readingDays.day),
    rowsOf(userAchievements, eq(userAchievements.userId, userId), userAchievements.earnedAt),
    rowsOf(supporters, eq(supporters.userId, userId), supporters.id),
    rowsOf(feedTokens, eq(feedTokens.userId, userId), feedTokens.userId),
    rowsOf(releaseMails, eq(releaseMails.userId, userId), releaseMails.id),
    db()
      .select({ ...exportedColumns(entryFor(comments)), ...chapterNumber })
      .from(comments)
      .innerJoin(chapters, eq(comments.chapterId, chapters.id))
      .where(eq(comments.userId, userId))
      .orderBy(asc(comments.id)) as Promise<Row[]>,
    rowsOf(commentHearts, eq(commentHearts.userId, userId), commentHearts.commentId),
    db()
      .select({ ...exportedColumns(entryFor(betaFeedback)), ...chapterNumber })
      .from(betaFeedback)
      .innerJoin(chapters, eq(betaFeedback.chapterId, chapters.id))
      .where(eq(betaFeedback.userId, userId))
      .orderBy(asc(betaFeedback.id)) as Promise<Row[]>,
    rowsOf(commentReports, eq(commentReports.userId, userId), commentReports.createdAt),
    rowsOf(commentBans, eq(commentBans.userId, userId), commentBans.createdAt),
    rowsOf(knownDevices, eq(knownDevices.userId, userId), knownDevices.id),
    rowsOf(secondFactors, eq(secondFactors.userId, userId), secondFactors.id),
    rowsOf(recoveryCodes, eq(recoveryCodes.userId, userId), recoveryCodes.id),
    rowsOf(signInChallenges, eq(signInChallenges.userId, userId), signInChallenges.id),
    rowsOf(passkeyEnrolments, eq(passkeyEnrolments.userId, userId), passkeyEnrolments.expiresAt),
    rowsOf(pollVotes, eq(pollVotes.userId, userId), pollVotes.votedAt),
    rowsOf(discordLinks, eq(discordLinks.userId, userId), discordLinks.userId),
    rowsOf(qaQuestions, eq(qaQuestions.userId, userId), qaQuestions.id),
    rowsOf(qaMails, eq(qaMails.userId, userId), qaMails.id),
    rowsOf(announcementMails, eq(announcementMails.userId, userId), announcementMails.id),
    rowsOf(autoUnlockSettings, eq(autoUnlockSettings.userId, userId), autoUnlockSettings.userId),
  ]);
  return {
    ...exportFormat,
    exportedAt: new Date().toISOString(),
    account,
    readingSettings: settings ?? null,
    sessions: accountSessions,
    linkedAccounts,
    socialSignInsInProgress,
    passwordResetRequests,
    coinLedger: ledger,
    chapterUnlocks: unlocks,
    readingProgress: progress,
    payments: accountPayments,
    paymentEvents: events,
    membershipGrants: grants,
    subscriptions: accountSubscriptions,
    cart,
    orders: accountOrders,
    orderLines: lines,
    readingDays: days,
    achievements: earned,
    supportersWall: wall,
    privateFeed: feed,
    releaseEmails,
    comments: ownComments,
    commentHearts: hearts,
    betaNotes,
    commentReports: reports,
    commentingBarred: barred ?? null,
    knownDevices: devices,
    secondFactors: factors,
    recoveryCodes: recovery,
    signInsWaitingForSecondStep: waiting,
    passkeyEnrolmentsInProgress: enrolments,
    pollVotes: votes,
    discordLink: discord ?? null,
    qaQuestions: questions,
    qaEmails,
    announcementEmails,
    autoUnlock: autoUnlock ?? null,
  } satisfies Record<Entry["section"], unknown> & Record<string, unknown>;
}
