/** What the preview pane shows: the rendered HTML, or a message key when it could not be rendered. */
export type PreviewResult = { html: string } | { error: string };

export type Render = (text: string) => Promise<PreviewResult>;

type Timers = {
  setTimeout: (callback: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
};

/**
 * When to ask the server for a preview: `delay` ms after the last change (typing is not interrupted by
 * requests), never more than one request at a time (a change during one is sent when it returns), nothing
 * while the pane is hidden (a phone on the Write tab) and nothing for a text already shown. With one request
 * at a time the answers come in the order asked, so a slow answer never replaces a newer one; one that comes
 * after the text changed is shown marked `more` (a newer one follows). A request also waits at least as long
 * as the last one took: rendering a long chapter is the server's work, and an author typing without pause
 * keeps it busy half the time at most. Pure of the DOM: the page gives it `render` and `show`
 * (preview-queue.test.ts).
 */
export class PreviewQueue {
  private latest: string;
  /** The text whose preview is shown. */
  private shownText: string | undefined;
  private inFlight = false;
  /** How long the last request took (ms). */
  private lastTook = 0;
  private timer: unknown;
  private active = false;
  private disposed = false;

  constructor(
    private readonly render: Render,
    private readonly show: (result: PreviewResult, busy: boolean) => void,
    initial: string,
    private readonly delay = 400,
    private readonly timers: Timers = {
      setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
      clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
    },
  ) {
    this.latest = initial;
  }

  /** The text changed: a request once typing pauses. */
  update(text: string): void {
    this.latest = text;
    if (this.active) this.schedule(Math.max(this.delay, this.lastTook));
  }

  /** The pane was shown or hidden: shown, it catches up at once. */
  setActive(active: boolean): void {
    this.active = active;
    if (active) this.schedule(0);
    else this.cancelTimer();
  }

  dispose(): void {
    this.disposed = true;
    this.cancelTimer();
  }

  private cancelTimer(): void {
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(ms: number): void {
    this.cancelTimer();
    this.timer = this.timers.setTimeout(() => {
      this.timer = undefined;
      void this.send();
    }, ms);
  }

  private async send(): Promise<void> {
    // The answer in flight brings the next request when it returns.
    if (this.disposed || this.inFlight || !this.active) return;
    const text = this.latest;
    if (text === this.shownText) return;
    this.inFlight = true;
    const started = Date.now();
    let result: PreviewResult;
    try {
      result = await this.render(text);
    } catch {
      result = { error: "admin.editor.previewFailed" };
    }
    this.inFlight = false;
    this.lastTook = Date.now() - started;
    if (this.disposed) return;
    // A refusal is shown but not remembered as this text's preview: the next change or showing retries.
    this.shownText = "html" in result ? text : undefined;
    const more = this.latest !== text;
    this.show(result, more);
    // Changes made while it was in flight, whose own timer found it busy (or has yet to fire).
    if (more && this.timer === undefined) this.schedule(this.lastTook);
  }
}

/** The preview from the server: POSTs the text as a multipart form (its bytes as they are, not escaped). */
export function fetchPreview(url: string, field: string): Render {
  return async (text) => {
    const form = new FormData();
    form.set(field, text);
    const response = await fetch(url, {
      method: "POST",
      body: form,
      headers: { accept: "application/json" },
    });
    const body = (await response.json().catch(() => undefined)) as
      | { html?: unknown; error?: unknown }
      | undefined;
    if (response.ok && typeof body?.html === "string") return { html: body.html };
    return {
      error:
        typeof body?.error === "string" && body.error.startsWith("admin.editor.")
          ? body.error
          : "admin.editor.previewFailed",
    };
  };
}
