const STALL_MS = 40000;
export class GameStream {
    url;
    token;
    on;
    lastId = null;
    watchdog = 0;
    wake = null;
    controller = null;
    closed = false;
    pause = 500;
    constructor(url, token, on) {
        this.url = url;
        this.token = token;
        this.on = on;
    }
    start() {
        window.addEventListener("offline", this.dropped);
        window.addEventListener("online", this.retryNow);
        void this.loop();
    }
    close() {
        this.closed = true;
        window.removeEventListener("offline", this.dropped);
        window.removeEventListener("online", this.retryNow);
        window.clearTimeout(this.watchdog);
        this.controller?.abort();
    }
    dropped = () => {
        this.controller?.abort();
    };
    retryNow = () => {
        this.pause = 500;
        this.wake?.();
    };
    feed() {
        window.clearTimeout(this.watchdog);
        this.watchdog = window.setTimeout(this.dropped, STALL_MS);
    }
    async loop() {
        while (!this.closed) {
            const ended = await this.once();
            if (ended || this.closed)
                break;
            this.on.status(false);
            await new Promise((resolve) => {
                this.wake = resolve;
                setTimeout(resolve, this.pause);
            });
            this.wake = null;
            this.pause = Math.min(this.pause * 2, 4000);
        }
    }
    /** One connection, read to its end: true when the stream said the game is over. */
    async once() {
        this.controller = new AbortController();
        const headers = { Accept: "text/event-stream" };
        if (this.token)
            headers.Authorization = `Bearer ${this.token}`;
        if (this.lastId !== null)
            headers["Last-Event-ID"] = this.lastId;
        try {
            const response = await fetch(this.url, { headers, signal: this.controller.signal, cache: "no-store" });
            if (!response.ok || !response.body)
                return false;
            this.on.status(true);
            this.pause = 500;
            this.feed();
            const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
            let buffer = "";
            let id = null, type = "message", data = [];
            for (;;) {
                const { value, done } = await reader.read();
                if (done)
                    return false;
                this.feed();
                buffer += value;
                let newline;
                while ((newline = buffer.indexOf("\n")) >= 0) {
                    const line = buffer.slice(0, newline).replace(/\r$/, "");
                    buffer = buffer.slice(newline + 1);
                    if (line === "") {
                        if (type === "end") {
                            this.on.end();
                            return true;
                        }
                        if (data.length) {
                            if (id !== null && /^\d+(\.\d+)?$/.test(id))
                                this.lastId = id;
                            let parsed = null;
                            try {
                                parsed = JSON.parse(data.join("\n"));
                            }
                            catch {
                                parsed = null;
                            }
                            this.on.event(type, parsed);
                        }
                        id = null;
                        type = "message";
                        data = [];
                    }
                    else if (line.startsWith(":")) {
                        continue;
                    }
                    else {
                        const colon = line.indexOf(":");
                        const field = colon < 0 ? line : line.slice(0, colon);
                        const text = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
                        if (field === "id")
                            id = text;
                        else if (field === "event")
                            type = text;
                        else if (field === "data")
                            data.push(text);
                    }
                }
            }
        }
        catch {
            return false;
        }
        finally {
            window.clearTimeout(this.watchdog);
        }
    }
}
