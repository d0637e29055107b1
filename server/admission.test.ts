import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import type { AppLoadContext, ServerBuild } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import { AdmissionGate, admission, type GateBounds, type Outcome, type Release, type Who } from "./admission";
import { lastWordOnError } from "./last-word";
import { reactRouterHandler } from "./react-router";

const bounds: GateBounds = { inFlight: 2, queued: 100, perReader: 8 };

/** Lets the event loop turn a few times: the gate admits one request a turn. */
const settle = async () => {
  for (let turn = 0; turn < 10; turn++) await new Promise((resolve) => setImmediate(resolve));
};

/** A gate, the names of the requests it admitted in order, and the slots they hold (oldest first). */
function harness(gateBounds: GateBounds = bounds) {
  const gate = new AdmissionGate(gateBounds);
  const order: string[] = [];
  const holding: Release[] = [];
  const arrive = (name: string, who: Who) => {
    const gone = new AbortController();
    const entry: { outcome?: Outcome; gone: AbortController } = { gone };
    void gate.enter(who, gone.signal).then((outcome) => {
      entry.outcome = outcome;
      if (typeof outcome !== "function") return;
      order.push(name);
      holding.push(outcome);
    });
    return entry;
  };
  /** The oldest admitted request is done. */
  const finishOne = async () => {
    holding.shift()?.();
    await settle();
  };
  return { gate, order, holding, arrive, finishOne };
}

describe("AdmissionGate", () => {
  it("admits at the loop's next turn while idle, then holds requests past the in-flight bound until a slot is released", async () => {
    const { gate, order, arrive, finishOne } = harness();
    arrive("a", { address: "1" });
    arrive("b", { address: "2" });
    const third = arrive("c", { address: "3" });
    await settle();
    expect(order).toEqual(["a", "b"]);
    expect(third.outcome).toBeUndefined();
    expect(gate.load).toEqual({ running: 2, waiting: 1 });
    await finishOne();
    expect(order).toEqual(["a", "b", "c"]);
    expect(gate.load).toEqual({ running: 2, waiting: 0 });
    await finishOne();
    await finishOne();
    expect(gate.load).toEqual({ running: 0, waiting: 0 });
  });

  it("frees a slot once however often its release is called", async () => {
    const { gate, holding, arrive } = harness();
    for (const name of ["a", "b", "c", "d"]) arrive(name, { address: "1" });
    await settle();
    const first = holding[0];
    first?.();
    first?.();
    await settle();
    expect(gate.load).toEqual({ running: 2, waiting: 1 });
  });

  it("admits everything at once when the bound is 0 (the gate off)", async () => {
    const { gate, order, arrive } = harness({ ...bounds, inFlight: 0 });
    for (let i = 0; i < 20; i++) arrive(`r${i}`, { address: "1", reader: "one" });
    await settle();
    expect(order).toHaveLength(20);
    expect(gate.load).toEqual({ running: 0, waiting: 0 });
  });

  it("takes turns between addresses, however many requests one of them sends", async () => {
    const { order, arrive, finishOne } = harness({ ...bounds, inFlight: 1 });
    arrive("first", { address: "z" });
    for (let i = 0; i < 6; i++) arrive(`flood${i}`, { address: "flood" });
    for (let i = 0; i < 2; i++) arrive(`other${i}`, { address: "other" });
    await settle();
    for (let turn = 0; turn < 8; turn++) await finishOne();
    expect(order).toEqual([
      "first",
      "flood0",
      "other0",
      "flood1",
      "other1",
      "flood2",
      "flood3",
      "flood4",
      "flood5",
    ]);
  });

  it("takes turns between the readers of one address, and its visitors", async () => {
    const { order, arrive, finishOne } = harness({ ...bounds, inFlight: 1 });
    arrive("first", { address: "nat" });
    for (let i = 0; i < 3; i++) arrive(`a${i}`, { address: "nat", reader: "a" });
    arrive("b0", { address: "nat", reader: "b" });
    arrive("v0", { address: "nat" });
    await settle();
    for (let turn = 0; turn < 5; turn++) await finishOne();
    expect(order).toEqual(["first", "a0", "b0", "v0", "a1", "a2"]);
  });

  it("gives invented session cookies of one address that address's turn, not one each", async () => {
    const { order, arrive, finishOne } = harness({ ...bounds, inFlight: 1 });
    arrive("first", { address: "z" });
    for (let i = 0; i < 4; i++) arrive(`forged${i}`, { address: "flood", reader: `token${i}` });
    arrive("reader", { address: "home", reader: "mine" });
    await settle();
    await finishOne();
    await finishOne();
    expect(order).toEqual(["first", "forged0", "reader"]);
  });

  it("refuses a reader's request past the reader's bound, while other readers still wait", async () => {
    const { gate, arrive } = harness({ ...bounds, inFlight: 1, perReader: 3 });
    arrive("first", { address: "z" });
    const mine = [0, 1, 2, 3, 4].map((i) => arrive(`mine${i}`, { address: "1", reader: "mine" }));
    const theirs = arrive("theirs", { address: "1", reader: "theirs" });
    await settle();
    expect(mine.map((entry) => entry.outcome)).toEqual([
      undefined,
      undefined,
      undefined,
      "refused",
      "refused",
    ]);
    expect(theirs.outcome).toBeUndefined();
    expect(gate.load).toEqual({ running: 1, waiting: 4 });
  });

  it("when the queue is full, the address waiting most gives up its newest request", async () => {
    const { gate, order, arrive, finishOne } = harness({ ...bounds, inFlight: 1, queued: 4 });
    arrive("first", { address: "z" });
    await settle();
    const flood = [0, 1, 2, 3].map((i) => arrive(`flood${i}`, { address: "flood" }));
    const other = arrive("other", { address: "other" });
    await settle();
    // The flood's newest gave way to the other address's only request.
    expect(flood.map((entry) => entry.outcome)).toEqual([undefined, undefined, undefined, "refused"]);
    expect(other.outcome).toBeUndefined();
    // The flood, still waiting most, has its next newcomer refused.
    const more = arrive("flood4", { address: "flood" });
    await settle();
    expect(more.outcome).toBe("refused");
    expect(gate.load).toEqual({ running: 1, waiting: 4 });
    for (let turn = 0; turn < 4; turn++) await finishOne();
    expect(order).toEqual(["first", "flood0", "other", "flood1", "flood2"]);
  });

  it("drops a request whose client went away while it waited, and gives its turn to the next", async () => {
    const { gate, order, arrive, finishOne } = harness({ ...bounds, inFlight: 1 });
    arrive("first", { address: "z" });
    const leaving = arrive("leaving", { address: "1" });
    arrive("staying", { address: "2" });
    await settle();
    leaving.gone.abort();
    await settle();
    expect(leaving.outcome).toBe("gone");
    expect(gate.load).toEqual({ running: 1, waiting: 1 });
    await finishOne();
    expect(order).toEqual(["first", "staying"]);
    // Gone before it arrived: never queued.
    const gone = new AbortController();
    gone.abort();
    expect(await gate.enter({ address: "3" }, gone.signal)).toBe("gone");
    await finishOne();
    expect(gate.load).toEqual({ running: 0, waiting: 0 });
  });
});

describe("admission in front of React Router", () => {
  const servers: http.Server[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  /**
   * An Express app whose React Router build waits for `proceed` and then throws (a render that fails), behind
   * a gate of one slot and a queue of one.
   */
  async function start() {
    const gateBounds: GateBounds = { inFlight: 1, queued: 1, perReader: 8 };
    const admit = admission(gateBounds);
    let proceed: () => void = () => {};
    let arrived = 0;
    const build = async (): Promise<ServerBuild> => {
      arrived++;
      await new Promise<void>((resolve) => {
        proceed = resolve;
      });
      throw new Error("the render failed");
    };
    const app = express();
    app.set("trust proxy", "loopback");
    app.all(
      "/{*splat}",
      reactRouterHandler({
        build,
        origin: "http://localhost",
        pages: undefined,
        // Never reached: the build fails before any route.
        getLoadContext: () => ({}) as AppLoadContext,
        admit,
      }),
    );
    app.use(lastWordOnError);
    const server = http.createServer(app);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return { base, admit, proceed: () => proceed(), arrived: () => arrived };
  }

  it("answers past the queue at once with 503, Retry-After and a translated page or JSON; frees slots of failed renders", async () => {
    const { base, admit, proceed, arrived } = await start();
    const first = fetch(`${base}/fundraiser`);
    await expect.poll(arrived).toBe(1);
    const second = fetch(`${base}/fundraiser`);
    await expect.poll(() => admit.gates.own.load.waiting).toBe(1);

    const json = await fetch(`${base}/reader/progress`, { method: "POST", body: "{}" });
    expect(json.status).toBe(503);
    expect(json.headers.get("retry-after")).toBe("1");
    expect(await json.json()).toEqual({ error: "busy", retryAfter: 1 });
    const page = await fetch(`${base}/fundraiser`, {
      headers: { accept: "text/html", "accept-language": "fr" },
    });
    expect(page.status).toBe(503);
    expect(page.headers.get("retry-after")).toBe("1");
    const html = await page.text();
    expect(html).toContain('lang="fr"');
    expect(html).toContain("Le site est très sollicité");

    // The failing renders answer 500 and give their slots back.
    proceed();
    expect((await first).status).toBe(500);
    await expect.poll(arrived).toBe(2);
    proceed();
    expect((await second).status).toBe(500);
    expect(admit.gates.own.load).toEqual({ running: 0, waiting: 0 });
  });

  it("drops a waiting request whose client went away", async () => {
    const { base, admit, proceed, arrived } = await start();
    const first = fetch(`${base}/toc`);
    await expect.poll(arrived).toBe(1);
    const leaving = new AbortController();
    const second = fetch(`${base}/toc`, { signal: leaving.signal }).catch((error: Error) => error.name);
    await expect.poll(() => admit.gates.own.load.waiting).toBe(1);
    leaving.abort();
    expect(await second).toBe("AbortError");
    await expect.poll(() => admit.gates.own.load.waiting).toBe(0);
    proceed();
    expect((await first).status).toBe(500);
    expect(admit.gates.own.load).toEqual({ running: 0, waiting: 0 });
    expect(arrived()).toBe(1);
  });
});
