import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { PreviewQueue, type PreviewResult } from "./preview-queue";

/** A render whose answers the test releases one by one, in any order. */
function server() {
  const pending: { text: string; answer: (result: PreviewResult) => void }[] = [];
  const render = vi.fn(
    (text: string) =>
      new Promise<PreviewResult>((resolve) => {
        pending.push({ text, answer: resolve });
      }),
  );
  return {
    render,
    pending,
    /** Answers the request for `text` with its "HTML". */
    async answer(text: string) {
      const index = pending.findIndex((request) => request.text === text);
      const [request] = pending.splice(index, 1);
      request?.answer({ html: `<p>${text}</p>` });
      await vi.advanceTimersByTimeAsync(0);
    },
  };
}

/** The author types each text in turn, pausing `pause` ms after each. */
async function typeEach(queue: PreviewQueue, texts: string[], pause: number) {
  for (const text of texts) {
    queue.update(text);
    await vi.advanceTimersByTimeAsync(pause);
  }
}

describe("the preview queue", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function setUp(initial = "") {
    const fake = server();
    const shown: { result: PreviewResult; more: boolean }[] = [];
    const queue = new PreviewQueue(fake.render, (result, more) => shown.push({ result, more }), initial, 400);
    return { fake, shown, queue };
  }

  it("asks once typing has paused for the delay, with the latest text", async () => {
    const { fake, shown, queue } = setUp();
    queue.setActive(true);
    await typeEach(queue, ["O", "On", "Onc", "Once"], 150);
    expect(fake.render).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(400);
    expect(fake.render.mock.calls).toEqual([["Once"]]);
    await fake.answer("Once");
    expect(shown).toEqual([{ result: { html: "<p>Once</p>" }, more: false }]);
  });

  it("never has two requests in flight: a change during one is sent when it returns", async () => {
    const { fake, shown, queue } = setUp();
    queue.setActive(true);
    await typeEach(queue, ["a", "ab"], 400);
    await typeEach(queue, ["abc"], 1000);
    expect(fake.render.mock.calls).toEqual([["a"]]);
    await fake.answer("a");
    // Shown, marked as about to be replaced; the newest text (not "ab") is asked for once as long has
    // passed as the last request took (sent at 400 ms, answered at 1800).
    expect(shown).toEqual([{ result: { html: "<p>a</p>" }, more: true }]);
    await vi.advanceTimersByTimeAsync(1399);
    expect(fake.render.mock.calls).toEqual([["a"]]);
    await vi.advanceTimersByTimeAsync(1);
    expect(fake.render.mock.calls).toEqual([["a"], ["abc"]]);
    await fake.answer("abc");
    expect(shown.at(-1)).toEqual({ result: { html: "<p>abc</p>" }, more: false });
  });

  it("does not ask while hidden, and catches up when shown", async () => {
    const { fake, shown, queue } = setUp("draft");
    queue.update("draft two");
    await vi.advanceTimersByTimeAsync(2000);
    expect(fake.render).not.toHaveBeenCalled();
    queue.setActive(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(fake.render.mock.calls).toEqual([["draft two"]]);
    await fake.answer("draft two");
    // Hidden and shown again with no change: nothing new to ask.
    queue.setActive(false);
    queue.setActive(true);
    await vi.advanceTimersByTimeAsync(1000);
    expect(fake.render).toHaveBeenCalledTimes(1);
    expect(shown).toHaveLength(1);
  });

  it("shows a refusal or a failure as a message, and tries again after the next change", async () => {
    const shown: PreviewResult[] = [];
    const render = vi
      .fn<(text: string) => Promise<PreviewResult>>()
      .mockResolvedValueOnce({ error: "admin.editor.tooLong" })
      .mockRejectedValueOnce(new TypeError("network"))
      .mockResolvedValue({ html: "<p>ok</p>" });
    const queue = new PreviewQueue(render, (result) => shown.push(result), "");
    queue.setActive(true);
    await typeEach(queue, ["x", "xy", "xyz"], 400);
    expect(shown).toEqual([
      { error: "admin.editor.tooLong" },
      { error: "admin.editor.previewFailed" },
      { html: "<p>ok</p>" },
    ]);
  });

  it("shows nothing after it is disposed", async () => {
    const { fake, shown, queue } = setUp();
    queue.setActive(true);
    queue.update("gone");
    await vi.advanceTimersByTimeAsync(400);
    queue.dispose();
    await fake.answer("gone");
    queue.update("more");
    await vi.advanceTimersByTimeAsync(1000);
    expect(shown).toEqual([]);
    expect(fake.render).toHaveBeenCalledTimes(1);
  });
});
