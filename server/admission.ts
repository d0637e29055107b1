import type { Request as ExpressRequest, Response as ExpressResponse } from "express";
import { sessionCookieName } from "~/features/auth/session.server";
import { logger } from "~/lib/logger.server";
import { parseCookieHeader } from "~/lib/preferences.server";
import { sendRefusal } from "./body-limit";
import { pendingPage } from "./page-cache";

/**
 * Who waits for a slot: the client's address, and the signed-in reader's session token (undefined for a
 * visitor). Turns go to addresses in rotation and, within an address, to its readers in rotation, so invented
 * session cookies from one address share that address's turn, and readers behind one address still take
 * theirs.
 */
export type Who = { address: string; reader?: string };

/** Ends the slot an admitted request holds; a second call does nothing. */
export type Release = () => void;

export type Outcome = Release | "refused" | "gone";

export type GateBounds = {
  /** Requests doing their work at once; 0 admits every request at once (no gate). */
  inFlight: number;
  /** Requests waiting, in all; past it the address waiting most gives one up (its newest). */
  queued: number;
  /** Requests one signed-in reader may have waiting: a browser opens six connections to a site. */
  perReader: number;
};

type Waiter = { who: Who; settle: (outcome: Outcome) => void; gone: AbortSignal; onGone: () => void };

const admittedAtOnce: Release = () => {};

/**
 * A bound on the requests doing work (a render, a write) at once, with the rest waiting their turn, fair per
 * address and per reader (ADR 68). An idle gate admits at the event loop's next turn (`handOver`); a full
 * queue refuses at once (the caller answers 503 with Retry-After) rather than keep a request waiting for
 * seconds. A request whose client went away while it waited (`gone` aborted) leaves the queue.
 */
export class AdmissionGate {
  private running = 0;
  private waiting = 0;
  /** Waiters by address, then by reader ("" for visitors), each in arrival order. Maps iterate in insertion
   * order: the first address, and its first reader, is next; one served moves to the back. */
  private queues = new Map<string, Map<string, Waiter[]>>();
  private perAddress = new Map<string, number>();
  private handing = false;

  constructor(private bounds: GateBounds) {}

  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting };
  }

  /** Resolves with the slot's release once admitted, "refused" past a queue bound, "gone" when `gone` aborts. */
  enter(who: Who, gone: AbortSignal): Promise<Outcome> {
    if (gone.aborted) return Promise.resolve("gone");
    if (this.bounds.inFlight === 0) return Promise.resolve(admittedAtOnce);
    const readers = this.queues.get(who.address);
    const reader = who.reader ?? "";
    if (who.reader !== undefined && (readers?.get(reader)?.length ?? 0) >= this.bounds.perReader)
      return Promise.resolve("refused");
    if (this.waiting >= this.bounds.queued && !this.shedFor(who.address)) return Promise.resolve("refused");
    return new Promise<Outcome>((resolve) => {
      const waiter: Waiter = { who, settle: resolve, gone, onGone: () => this.leave(waiter, "gone") };
      gone.addEventListener("abort", waiter.onGone, { once: true });
      const queue = this.queues.get(who.address) ?? new Map<string, Waiter[]>();
      this.queues.set(who.address, queue);
      const waiters = queue.get(reader) ?? [];
      queue.set(reader, waiters);
      waiters.push(waiter);
      this.waiting++;
      this.perAddress.set(who.address, (this.perAddress.get(who.address) ?? 0) + 1);
      this.handOver();
    });
  }

  private hold(): Release {
    this.running++;
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      this.running--;
      this.handOver();
    };
  }

  /**
   * Admits the next waiter on the event loop's next turn (its check phase: no timer, no delay when idle), one a
   * turn. Database answers and renders continue in promise callbacks (PGlite answers in the same task), so a
   * request run where it was read would run whole before the loop read another socket, and the renders read
   * in one turn would run one after the other ahead of every kept page asked for meanwhile (measured: 4.4 s
   * without a pause). Admitted a turn later, every request read in a turn waits its turn fairly, and the kept
   * pages read in the next turn are answered before the next render starts.
   */
  private handOver() {
    if (this.handing || this.waiting === 0 || this.running >= this.bounds.inFlight) return;
    this.handing = true;
    setImmediate(() => {
      this.handing = false;
      this.admitNext();
      this.handOver();
    });
  }

  private admitNext() {
    if (this.running >= this.bounds.inFlight) return;
    const [address, readers] = this.queues.entries().next().value ?? [];
    const [reader, waiters] = readers?.entries().next().value ?? [];
    const waiter = waiters?.[0];
    if (address === undefined || !readers || reader === undefined || !waiter) return;
    this.leave(waiter, this.hold());
    // Served: its reader to the back of its address's rotation, its address to the back of the gate's.
    if (waiters.length > 0) {
      readers.delete(reader);
      readers.set(reader, waiters);
    }
    if (readers.size > 0) {
      this.queues.delete(address);
      this.queues.set(address, readers);
    }
  }

  /** Takes a waiter out of the queue, where the others keep their places, and settles it. */
  private leave(waiter: Waiter, outcome: Outcome) {
    waiter.gone.removeEventListener("abort", waiter.onGone);
    const { address } = waiter.who;
    const reader = waiter.who.reader ?? "";
    const readers = this.queues.get(address);
    const waiters = readers?.get(reader);
    const at = waiters?.indexOf(waiter) ?? -1;
    if (at >= 0) waiters?.splice(at, 1);
    if (waiters?.length === 0) readers?.delete(reader);
    if (readers?.size === 0) this.queues.delete(address);
    this.waiting--;
    const left = (this.perAddress.get(address) ?? 1) - 1;
    if (left > 0) this.perAddress.set(address, left);
    else this.perAddress.delete(address);
    waiter.settle(outcome);
  }

  /**
   * The queue is full: the address waiting most gives up its newest request (of its reader waiting most) so
   * `address`'s may wait; false when `address` is itself the one waiting most (its newcomer is refused).
   */
  private shedFor(address: string): boolean {
    let most: string | undefined;
    let count = this.perAddress.get(address) ?? 0;
    for (const [other, waiting] of this.perAddress)
      if (waiting > count) {
        most = other;
        count = waiting;
      }
    const readers = most === undefined ? undefined : this.queues.get(most);
    if (!readers) return false;
    let longest: Waiter[] = [];
    for (const waiters of readers.values()) if (waiters.length > longest.length) longest = waiters;
    const newest = longest.at(-1);
    if (!newest) return false;
    this.leave(newest, "refused");
    return true;
  }
}

/** How long a refused client is asked to wait: the queue's bound is about a second of renders. */
export const BUSY_RETRY_SECONDS = 1;
/** At most one log line this often while requests are refused, with how many were. */
const LOG_EVERY_MS = 10_000;

/** 503 with Retry-After: a short page in the reader's language for a browser, JSON for scripts. */
export function sendBusy(req: ExpressRequest, res: ExpressResponse): void {
  res.setHeader("Retry-After", String(BUSY_RETRY_SECONDS));
  sendRefusal(req, res, 503, { error: "busy", retryAfter: BUSY_RETRY_SECONDS }, (t) => ({
    title: t("httpErrors.busy.title"),
    body: t("httpErrors.busy.body"),
  }));
}

/**
 * Admission for what React Router answers (server/react-router.ts): a render the page cache keeps (a miss)
 * waits at a gate of its own, so a kept page past its age is rendered again without queueing behind
 * readers' own renders and writes, which wait at the other. Each request waits as its address and, signed
 * in, its session; a refusal is logged once, then at most every 10 s with the count since.
 */
export function admission(bounds: GateBounds) {
  const gates = { kept: new AdmissionGate(bounds), own: new AdmissionGate(bounds) };
  let refused = 0;
  let loggedAt = Number.NEGATIVE_INFINITY;
  const admit = async (req: ExpressRequest, res: ExpressResponse): Promise<Outcome> => {
    if (bounds.inFlight === 0) return admittedAtOnce;
    const gate = pendingPage(req) ? gates.kept : gates.own;
    const gone = new AbortController();
    const leave = () => gone.abort();
    res.once("close", leave);
    const reader = parseCookieHeader(req.headers.cookie).get(sessionCookieName());
    const outcome = await gate.enter({ address: req.ip ?? "unknown", reader }, gone.signal);
    res.off("close", leave);
    if (outcome === "refused") {
      refused++;
      const now = Date.now();
      if (now - loggedAt >= LOG_EVERY_MS) {
        logger.warn(
          { event: "admission.refused", refused, kept: gates.kept.load, own: gates.own.load },
          "busy: requests refused with 503",
        );
        loggedAt = now;
        refused = 0;
      }
    }
    return outcome;
  };
  return Object.assign(admit, { gates });
}
