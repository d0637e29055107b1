import fs from "node:fs";

/** Lines are written once this many characters are buffered (and by the owner's timer before that). */
const CHUNK = 16 * 1024;
/** A reader that stops reading (a stuck pipe) must not grow the buffer without end: past this, lines are dropped. */
const MAX_BUFFERED = 16 * 1024 * 1024;

/**
 * The log's output (ADR 69): lines are buffered and written in chunks, asynchronously, one write at a time so
 * they keep their order. A line costs an array push; a write a system call per ~16 KB. `flushSync` writes what
 * is buffered before the process exits; the chunk in flight at that moment is the kernel's to finish.
 */
export class LogOutput {
  private lines: string[] = [];
  private length = 0;
  private writing = false;
  /** Lines dropped since the owner last asked (`takeDropped`): the buffer was full. */
  private dropped = 0;
  private closed = false;
  /** A flush was asked for while a write was in flight: the write's end does it. */
  private flushAsked = false;
  /** Where lines go instead of the file descriptor (`divert`). */
  private sink: ((line: string) => void) | undefined;

  constructor(private readonly fd: number) {}

  write(line: string): boolean {
    if (this.sink) {
      this.sink(line);
      return true;
    }
    if (this.closed) return false;
    if (this.length >= MAX_BUFFERED) {
      this.dropped++;
      return false;
    }
    this.lines.push(line);
    this.length += line.length;
    if (this.length >= CHUNK) this.flush();
    return true;
  }

  /**
   * Hands every line to `sink` as it comes, instead of buffering it for the file descriptor: the tests keep
   * each test's lines and show them only when it fails. What was buffered before is written first.
   */
  divert(sink: (line: string) => void): void {
    this.flushSync();
    this.sink = sink;
  }

  /** Starts writing what is buffered, unless a write is in flight (it writes the rest when it ends). */
  flush(): void {
    if (this.writing) this.flushAsked = true;
    if (this.writing || this.lines.length === 0) return;
    this.writing = true;
    this.send(Buffer.from(this.take()));
  }

  /** Writes everything buffered now, blocking: for the process's exit, when no callback would run. */
  flushSync(): void {
    let chunk = Buffer.from(this.take());
    while (chunk.length > 0 && !this.closed) {
      try {
        chunk = chunk.subarray(fs.writeSync(this.fd, chunk));
      } catch (error) {
        if (!retryable(error)) this.close();
        // A full pipe: wait for its reader a little, as nothing else can run now.
        else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
      }
    }
  }

  /** How many lines were dropped since the last call. */
  takeDropped(): number {
    const count = this.dropped;
    this.dropped = 0;
    return count;
  }

  private take(): string {
    const text = this.lines.join("");
    this.lines = [];
    this.length = 0;
    return text;
  }

  private send(chunk: Buffer): void {
    fs.write(this.fd, chunk, 0, chunk.length, null, (error, written) => {
      if (error && retryable(error)) {
        setTimeout(() => this.send(chunk), 10).unref();
        return;
      }
      if (error) this.close();
      else if (written < chunk.length) {
        this.send(chunk.subarray(written));
        return;
      }
      this.writing = false;
      if (this.length >= CHUNK || this.flushAsked) {
        this.flushAsked = false;
        this.flush();
      }
    });
  }

  /** The output is gone (its reader closed the pipe): nothing more can be written, so nothing is kept. */
  private close(): void {
    this.closed = true;
    this.take();
  }
}

const retryable = (error: unknown) =>
  (error as NodeJS.ErrnoException).code === "EAGAIN" || (error as NodeJS.ErrnoException).code === "EBUSY";
