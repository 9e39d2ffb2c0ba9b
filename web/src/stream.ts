// stream.ts - following GET /v1/games/{id}/stream (Server-Sent Events) with fetch, so the
// seat's token goes in the Authorization header rather than the URL and every reconnection
// sends Last-Event-ID: the server then sends exactly the events after the last one seen,
// nothing missed and nothing twice. The stream's ids are the game's versions, and
// "<version>.<seq>" for a table-talk message: the last id is sent back as it came.
//
// After a network drop (or an answer that is not a stream) it reports "down" and tries
// again with a growing pause (0.5 s doubling to 4 s); it stops for good after `event: end`
// (the game is over) or close(). A connection can also die without an error (a phone
// leaving its network, a proxy dropping it): the browser's `offline` event, or silence
// longer than STALL_MS (the server sends a comment every 15 s), abort it, and `online`
// retries at once.
export interface StreamHandlers {
  /** One item: its `event:` type and its data (parsed JSON, null when not JSON). */
  event(type: string, data: unknown): void;
  status(up: boolean): void;
  end(): void;
}

const STALL_MS = 40000;

export class GameStream {
  private lastId: string | null = null;
  private watchdog = 0;
  private wake: (() => void) | null = null;
  private controller: AbortController | null = null;
  private closed = false;
  private pause = 500;

  constructor(private readonly url: string, private readonly token: string | null, private readonly on: StreamHandlers) {}

  start(): void {
    window.addEventListener("offline", this.dropped);
    window.addEventListener("online", this.retryNow);
    void this.loop();
  }

  close(): void {
    this.closed = true;
    window.removeEventListener("offline", this.dropped);
    window.removeEventListener("online", this.retryNow);
    window.clearTimeout(this.watchdog);
    this.controller?.abort();
  }

  private readonly dropped = (): void => {
    this.controller?.abort();
  };

  private readonly retryNow = (): void => {
    this.pause = 500;
    this.wake?.();
  };

  private feed(): void {
    window.clearTimeout(this.watchdog);
    this.watchdog = window.setTimeout(this.dropped, STALL_MS);
  }

  private async loop(): Promise<void> {
    while (!this.closed) {
      const ended = await this.once();
      if (ended || this.closed) break;
      this.on.status(false);
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        setTimeout(resolve, this.pause);
      });
      this.wake = null;
      this.pause = Math.min(this.pause * 2, 4000);
    }
  }

  /** One connection, read to its end: true when the stream said the game is over. */
  private async once(): Promise<boolean> {
    this.controller = new AbortController();
    const headers: Record<string, string> = { Accept: "text/event-stream" };
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    if (this.lastId !== null) headers["Last-Event-ID"] = this.lastId;
    try {
      const response = await fetch(this.url, { headers, signal: this.controller.signal, cache: "no-store" });
      if (!response.ok || !response.body) return false;
      this.on.status(true);
      this.pause = 500;
      this.feed();
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = "";
      let id: string | null = null, type = "message", data: string[] = [];
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return false;
        this.feed();
        buffer += value;
        let newline: number;
        while ((newline = buffer.indexOf("\n")) >= 0) {
          const line = buffer.slice(0, newline).replace(/\r$/, "");
          buffer = buffer.slice(newline + 1);
          if (line === "") {
            if (type === "end") {
              this.on.end();
              return true;
            }
            if (data.length) {
              if (id !== null && /^\d+(\.\d+)?$/.test(id)) this.lastId = id;
              let parsed: unknown = null;
              try {
                parsed = JSON.parse(data.join("\n"));
              } catch {
                parsed = null;
              }
              this.on.event(type, parsed);
            }
            id = null;
            type = "message";
            data = [];
          } else if (line.startsWith(":")) {
            continue;
          } else {
            const colon = line.indexOf(":");
            const field = colon < 0 ? line : line.slice(0, colon);
            const text = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
            if (field === "id") id = text;
            else if (field === "event") type = text;
            else if (field === "data") data.push(text);
          }
        }
      }
    } catch {
      return false;
    } finally {
      window.clearTimeout(this.watchdog);
    }
  }
}
